// Live tournament page: the server nudges the tournament's group on every change; the page then
// fetches itself again and swaps its content, so standings, rounds and links stay current.
const root = document.getElementById("tournament");
let seq = Number(root.dataset.seq);
let backoff = 1000;

async function refresh() {
  const response = await fetch(location.href, { headers: { "X-Requested-With": "fetch" } });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("tournament");
  if (!fresh) return;
  const open = new Set([...document.querySelectorAll("details[open]")].map((d) => d.closest("[data-match]")?.dataset.match));
  document.getElementById("tournament").replaceWith(fresh);
  for (const key of open) fresh.querySelector(`[data-match="${key}"] details`)?.setAttribute("open", "");
  seq = Number(fresh.dataset.seq);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${root.dataset.id}/`);
  socket.onopen = () => { backoff = 1000; };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.seq > seq) refresh();
  };
  socket.onclose = () => { setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 15000); refresh(); };
}

connect();
window.tournamentPage = { refresh, get seq() { return seq; } };
