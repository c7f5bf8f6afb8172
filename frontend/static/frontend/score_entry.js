// Score entry (over the board): the page follows its table live. The tournament's socket nudges on
// every change; the page reloads itself unless a form is being filled in, then it offers to.
const gettext = window.gettext || ((s) => s);

const root = document.getElementById("score-entry");
let dirty = false;
let leaving = false;
let socket = null;
document.addEventListener("input", () => { dirty = true; });
// A form being sent is the page's next state: no nudge may reload over it.
document.addEventListener("submit", () => { leaving = true; socket?.close(); });

// A minus sign for a Skyjo total: phones' number keyboards often have none.
for (const input of document.querySelectorAll("input[data-sign]")) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "sign-toggle";
  button.textContent = "±";
  button.setAttribute("aria-label", gettext("Change the sign"));
  button.addEventListener("click", () => {
    const value = input.value.trim();
    input.value = value.startsWith("-") || value.startsWith("−") ? value.slice(1) : `-${value}`;
    dirty = true;
    input.focus();
  });
  input.closest("label").after(button);
}

function changed() {
  if (leaving) return;
  if (!dirty) { location.reload(); return; }
  if (document.querySelector(".changed")) return;
  const bar = document.createElement("p");
  bar.className = "changed";
  bar.setAttribute("role", "status");
  bar.textContent = gettext("This table has changed.");
  const again = document.createElement("button");
  again.type = "button";
  again.className = "button";
  again.textContent = gettext("Show it");
  again.addEventListener("click", () => location.reload());
  bar.append(" ", again);
  root.append(bar);
}

async function lookAgain() {
  const response = await fetch(location.href, { headers: { "X-Requested-With": "fetch" } });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("score-entry");
  if (fresh && Number(fresh.dataset.seq) > Number(root.dataset.seq)) changed();
}

let backoff = 1000;
function connect() {
  if (!root || leaving) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${root.dataset.id}/`);
  // A change made while this page loaded came before its socket listened: look once it does.
  socket.onopen = () => { backoff = 1000; lookAgain(); };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.seq > Number(root.dataset.seq)) changed();
  };
  socket.onclose = () => {
    if (leaving) return;
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 15000);
  };
}
connect();
