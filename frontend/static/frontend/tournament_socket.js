// What the tournament's live pages share (roundclock.js, screen.js, seasons.js): the round clock's
// time as it is shown, and the tournament's socket (tournaments/consumers.py), which only nudges — a
// page fetches what it shows again when told something changed.

function two(n) { return String(n).padStart(2, "0"); }

// Milliseconds left as "mm:ss", or "h:mm:ss" from an hour (never below zero).
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

// Listen to tournament ``id``'s socket: ``changed()`` on each nudge, and once each time it (re)opens
// when ``onOpen`` is true (what changed while it was closed is fetched then). A closed socket opens
// again, waiting twice as long each time up to 15 s.
export function listenTournament(id, changed, { onOpen = true } = {}, backoff = 1000) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${id}/`);
  socket.onopen = () => { backoff = 1000; if (onOpen) changed(); };
  socket.onmessage = () => changed();
  socket.onclose = () => setTimeout(() => listenTournament(id, changed, { onOpen }, Math.min(backoff * 2, 15000)), backoff);
}
