// A season's page, live: it listens to the sockets of its events still being played (the tournament
// page's own nudges, tournaments/consumers.py) and fetches its standings again when one changes.
import { listenTournament } from "./tournament_socket.js";

const root = document.getElementById("season");
const ids = (root?.dataset.tournaments || "").split(",").filter(Boolean);
let pending = false;

async function refresh() {
  if (pending) return;
  pending = true;
  try {
    const answer = await fetch(`${location.pathname}?part=standings`, { headers: { Accept: "text/html" } });
    if (answer.ok) {
      const box = document.getElementById("season-standings");
      const open = new Set([...document.querySelectorAll(".season-row details[open]")].map((d) => d.closest("li").dataset.player));
      const holder = document.createElement("div");
      holder.innerHTML = await answer.text();
      const fresh = holder.querySelector("#season-standings");
      if (box && fresh) {
        fresh.querySelectorAll(".season-row").forEach((row) => { if (open.has(row.dataset.player)) row.querySelector("details").open = true; });
        box.replaceWith(fresh);
      }
    }
  } finally {
    pending = false;
  }
}

ids.slice(0, 20).forEach((id) => listenTournament(id, refresh, { onOpen: false }));
