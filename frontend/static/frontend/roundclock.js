// The round clock on a table page and in the organiser's console (frontend/round_clock.py). Each
// [data-round-clock] box holds the clock as the server folded its events (the round's time, the time
// already run, the instant it last started) and the server's instant when it answered. The offset
// between that instant and this browser's clock is taken when the box is first seen, so a browser
// whose clock is wrong still counts the right time; only what is shown depends on it. A box with
// data-url fetches the clock again whenever its tournament's socket says something changed.
import { clockText, listenTournament } from "./tournament_socket.js";

const seen = new WeakMap(); // box -> { clock, offset }

function state(box) {
  let known = seen.get(box);
  if (!known) {
    const clock = JSON.parse(box.dataset.clock || "null");
    known = { clock, offset: clock ? clock.server_now - Date.now() : 0 };
    seen.set(box, known);
  }
  return known;
}

export function remaining(clock, offset, now = Date.now()) {
  if (!clock || !clock.set) return null;
  const ran = clock.used * 1000 + (clock.running_since ? now + offset - clock.running_since : 0);
  return clock.seconds * 1000 - ran;
}

function show(box) {
  const { clock, offset } = state(box);
  const words = JSON.parse(box.dataset.words || "{}");
  const time = box.querySelector("[data-clock-time]");
  const note = box.querySelector("[data-clock-note]");
  const left = remaining(clock, offset);
  box.hidden = box.dataset.hideUnset === "1" && left === null;
  if (left === null) {
    if (time) time.textContent = "–";
    if (note) note.textContent = words.not_set || "";
    return;
  }
  const up = left <= 0;
  if (time) time.textContent = up ? words.up : clockText(left);
  if (note) {
    const notes = [];
    if (!clock.running_since && !up) notes.push(words.paused);
    if (clock.last_hand) notes.push(words.last_hand);
    note.textContent = notes.join(" · ");
  }
  box.classList.toggle("up", up);
  box.dataset.remaining = String(Math.max(0, Math.ceil(left / 1000)));
  for (const part of box.querySelectorAll("[data-when-up]")) part.hidden = !up;
}

function tick() {
  for (const box of document.querySelectorAll("[data-round-clock]")) show(box);
}

async function refetch(box) {
  const answer = await fetch(box.dataset.url, { headers: { Accept: "application/json" } });
  if (!answer.ok) return;
  const { clock } = await answer.json();
  box.dataset.clock = JSON.stringify(clock);
  seen.delete(box);
  show(box);
}

tick();
setInterval(tick, 250);
for (const box of document.querySelectorAll("[data-round-clock][data-tournament]")) {
  listenTournament(box.dataset.tournament, () => refetch(box));
}
window.roundClock = { tick, remaining };
