// The Play now waiting page: asks the server every few seconds whether a table was made, and goes to it
// (or reloads the page once the wait is over, to say why). No words of its own: the page says them.
const poll = JSON.parse(document.getElementById("play-now-poll").textContent);

async function ask() {
  let answer = null;
  try {
    const response = await fetch(poll.url, { headers: { Accept: "application/json" } });
    if (response.ok) answer = await response.json();
    else if (response.status === 404) return;
  } catch (error) {
    answer = null; // the network is away for a moment: ask again later
  }
  if (answer && answer.table) {
    window.location.assign(answer.table);
    return;
  }
  if (answer && answer.state !== "waiting") {
    window.location.reload();
    return;
  }
  setTimeout(ask, poll.every);
}

setTimeout(ask, poll.every);
