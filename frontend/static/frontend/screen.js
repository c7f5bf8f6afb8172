// The room screen (frontend/screen.py): rotates through its panels by itself, counts the round clock
// down from the time left the server gave (Date.now(), so a test's clock can drive it), and fetches its
// panels again whenever a tournament it shows changes (the tournament page's socket nudges).
import { clockText, listenTournament } from "./tournament_socket.js";

const root = document.getElementById("screen");
const ids = (root?.dataset.sockets || "").split(",").filter(Boolean);
const rotate = Number(root?.dataset.rotate || 0) * 1000;
let shown = 0;
let deadlines = [];
let pending = false;

function readClocks() {
  const now = Date.now();
  deadlines = [...document.querySelectorAll(".clock")].map((box) => ({
    box,
    running: box.dataset.running === "1",
    end: now + Number(box.dataset.remaining) * 1000,
    left: Number(box.dataset.remaining) * 1000,
  }));
  tick();
}

function tick() {
  const now = Date.now();
  for (const c of deadlines) {
    const left = c.running ? c.end - now : c.left;
    const time = c.box.querySelector(".clock-time");
    if (!time) continue;
    time.textContent = left > 0 ? clockText(left) : c.box.dataset.up;
    c.box.classList.toggle("up", left <= 0);
  }
}

function showPanel(index) {
  const panels = [...document.querySelectorAll(".panel")];
  if (!panels.length) return;
  shown = index % panels.length;
  panels.forEach((p, i) => { p.hidden = i !== shown; });
}

async function refresh() {
  if (pending) return;
  pending = true;
  try {
    const query = new URLSearchParams({ part: "panels", lang: root.dataset.langs || "" });
    const answer = await fetch(`${location.pathname}?${query}`);
    if (answer.ok) {
      document.getElementById("screen-panels").innerHTML = await answer.text();
      showPanel(shown);
      readClocks();
    }
  } finally {
    pending = false;
  }
}

readClocks();
showPanel(0);
setInterval(tick, 250);
if (rotate > 0) setInterval(() => showPanel(shown + 1), rotate);
ids.slice(0, 20).forEach((id) => listenTournament(id, refresh));
window.roomScreen = { refresh, showPanel, get shown() { return shown; } };
