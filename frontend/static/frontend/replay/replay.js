// The replay page: a game hand by hand, drawn by the table's own renderers, from the perspectives
// the server offers this viewer. Pictures come over the replay socket one hand at a time; nothing
// here decides what may be seen. In a room, the driver's moves are sent to the server and the
// other members follow the positions it sends back.
import { ReplaySocket } from "./socket.js";
import { Comments } from "./comments.js";
import { Review } from "./review.js";
import { points } from "../table/numbers.js";

const gettext = window.gettext || ((s) => s);
const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));

const config = JSON.parse(document.getElementById("replay-config").textContent);
const $ = (id) => document.getElementById(id);
// Renderers that draw every hand of an all-open picture themselves; for the others the page lists them.
const DRAWS_OPEN_HANDS = new Set(["dominoes"]);

let renderer = null;
let socket = null;
let hands = config.hands; // [number, first index, last index] of each hand this viewer may see
let perspectives = config.perspectives;
let lastVisible = config.last;
let perspective = config.position.perspective;
let index = config.position.index;
let hand = config.position.hand;
let loaded = null; // the hand on screen: {hand, perspective, first, cut, moments, pictures, commands}
let incoming = null; // the chunks of the hand being received
let wanted = null; // which hand and perspective was asked for last
let timer = null;
let lastDriven = "";
const room = { following: true, youDrive: false, driver: null, members: [], canTake: false };
let comments = null;
let review = null;
// The better move of the decision on screen, drawn on the board instead of the move played: the
// server's answer (replay/better.py: the position before the move, with the better one played on it).
let betterShown = null;
let describeHere = (action) => action.type;

function seatName(seat) {
  const entry = config.seats[seat];
  const name = entry ? entry.name : interpolate(gettext("Seat %(n)s"), { n: seat + 1 }, true);
  return config.mine.includes(seat) ? interpolate(gettext("%(name)s (you)"), { name }, true) : name;
}

function names() {
  return Object.fromEntries(config.seats.map((s) => [s.number, seatName(s.number)]));
}

function perspectiveLabel(value) {
  if (value === "public") return gettext("Spectators");
  if (value === "all") return gettext("All cards open");
  return seatName(value);
}

function seatOfActor(actor) {
  const match = /^(?:seat|bot):(\d+)$/.exec(String(actor || ""));
  return match ? Number(match[1]) : null;
}

function showError(message) {
  const banner = $("error");
  banner.textContent = message;
  banner.hidden = !message;
  if (message) setTimeout(() => { if (banner.textContent === message) banner.hidden = true; }, 6000);
}

function showNotice(message) {
  $("notice").textContent = message || "";
  $("notice").hidden = !message;
}

// --- Loading hands -------------------------------------------------------------------------------

const keyOf = (h, p) => `${h}|${p}`;

function load(h, p) {
  wanted = keyOf(h, p);
  incoming = null;
  $("replay").dataset.loading = "1";
  socket.send({ type: "load", hand: h, perspective: p });
}

function received(message) {
  if (keyOf(message.hand, message.perspective) !== wanted) return; // the answer to an older question
  if (message.offset === 0) {
    incoming = { hand: message.hand, perspective: message.perspective, first: message.first, cut: message.cut, total: message.total, moments: [], pictures: [] };
  }
  if (!incoming) return;
  incoming.moments.push(...message.moments);
  incoming.pictures.push(...message.pictures);
  if (incoming.moments.length < incoming.total) return;
  loaded = incoming;
  incoming = null;
  wanted = null;
  hand = loaded.hand;
  perspective = loaded.perspective;
  delete $("replay").dataset.loading;
  describeAll();
  index = clamp(index);
  show();
  drive();
}

// A game in progress moved on: a viewer at the newest moment follows it live; one looking back stays
// where they are, with the new moments within reach. In a room, followers go where the driver goes.
function moved(message) {
  const atEnd = loaded !== null && index >= limit();
  const newestBefore = hands.length ? hands[hands.length - 1][0] : null;
  hands = message.hands;
  perspectives = message.perspectives;
  lastVisible = message.last;
  if (config.room && room.following && !room.youDrive) { if (loaded) show(); return; }
  const newest = hands.length ? hands[hands.length - 1][0] : hand;
  if (atEnd) {
    index = lastVisible;
    load(newest, perspective);
  } else if (loaded && loaded.hand === newestBefore) {
    load(loaded.hand, perspective);
  } else if (loaded) {
    show();
  }
}

function refused(message) {
  if (wanted && loaded) {
    // The hand or perspective asked for was refused: stay where we were.
    perspective = loaded.perspective;
    hand = loaded.hand;
    index = clamp(index);
    show();
  }
  wanted = null;
  incoming = null;
  delete $("replay").dataset.loading;
  showError(message.message);
}

// The last moment one may step to: the end of a hand the spectators see only part of yet, or now.
function limit() {
  return loaded && loaded.cut ? Math.min(lastVisible, loaded.first + loaded.moments.length - 1) : lastVisible;
}

function clamp(target) {
  if (!loaded) return target;
  return Math.max(loaded.first, Math.min(target, loaded.first + loaded.moments.length - 1));
}

// --- One moment as the table's renderers expect it ------------------------------------------------

function snapAt(target) {
  const k = target - loaded.first;
  const view = loaded.pictures[k];
  return {
    type: "state",
    seq: loaded.moments[k].seq,
    seat: typeof loaded.perspective === "number" ? loaded.perspective : null,
    view,
    to_act: view.to_act || [],
    legal_actions: [],
    finished: Boolean(view.finished),
    paused: false,
    game_number: 1,
    seats: config.seats,
    engine: config.engine,
  };
}

function commandsOf(moments) {
  const out = [];
  let start = 0;
  moments.forEach((moment, k) => {
    if (moment.end || k === moments.length - 1) {
      out.push({ start, end: k });
      start = k + 1;
    }
  });
  return out;
}

// Described in order, once per hand: some renderers compare a move with the picture before it.
function describeAll() {
  loaded.commands = commandsOf(loaded.moments);
  for (const command of loaded.commands) {
    const moments = loaded.moments.slice(command.start, command.end + 1);
    const last = moments[moments.length - 1];
    const move = { actor: last.actor, seq: last.seq, events: moments.map((m) => ({ type: m.type, ...(m.data || {}) })) };
    let text = "";
    try {
      text = renderer.describeMove ? renderer.describeMove(move, snapAt(loaded.first + command.end), seatName) : "";
    } catch {
      text = "";
    }
    if (!text) text = move.events.map((e) => e.type.replaceAll("_", " ")).join(", ");
    const seat = seatOfActor(last.actor);
    command.text = seat === null ? text : interpolate(gettext("%(name)s: %(move)s"), { name: seatName(seat), move: text }, true);
  }
}

function commandAt(k) {
  return loaded.commands.find((c) => c.start <= k && k <= c.end);
}

// --- Drawing ---------------------------------------------------------------------------------------

function boardContext(seat) {
  return {
    seat,
    legal: [],
    pending: null,
    names: names(),
    seatName,
    choose: () => {},
    clear: () => {},
    isPending: () => false,
    rerender: () => (betterShown ? drawBetter() : show()),
  };
}

function show() {
  if (!loaded) return;
  const k = index - loaded.first;
  const snap = snapAt(index);
  hideBetter();
  renderer.render($("board"), snap, boardContext(snap.seat));
  const root = $("replay");
  root.dataset.index = index;
  root.dataset.seq = snap.seq;
  root.dataset.hand = loaded.hand;
  root.dataset.perspective = loaded.perspective;
  $("slider").max = loaded.moments.length - 1;
  $("slider").value = k;
  let where = interpolate(gettext("Moment %(n)s of %(total)s"), { n: k + 1, total: loaded.moments.length }, true);
  if (loaded.cut) where += " · " + gettext("spectators see no further yet");
  $("where").textContent = where;
  const command = commandAt(k);
  $("move").textContent = command ? command.text : "";
  $("back").disabled = $("first").disabled = index <= 0;
  $("forward").disabled = $("last").disabled = index >= limit();
  fillSelects();
  openHands(snap);
  scoreSheet(snap);
  markMoment(k);
  renderComments();
  renderReview();
  if (!config.room) history.replaceState(null, "", `?at=${snap.seq}&as=${encodeURIComponent(loaded.perspective)}`);
}

function fillSelects() {
  const handSelect = $("hand");
  // Each game names its deals its own way (a Skyjo or dominoes round, a Pitch hand, a Kazino game):
  // its renderer says so, in the words its table uses (#33).
  const named = (n) => (renderer.handName ? renderer.handName(n) : interpolate(gettext("Hand %(n)s"), { n }, true));
  handSelect.replaceChildren(...hands.map(([number]) => new Option(named(number), String(number))));
  if (renderer.handWord) $("hand-word").textContent = renderer.handWord();
  handSelect.value = String(hand);
  const seen = $("perspective");
  seen.replaceChildren(...perspectives.map((p) => new Option(perspectiveLabel(p), String(p))));
  seen.value = String(perspective);
}

// What an all-open picture holds that the renderer does not draw: the hands of Kazino and Pitch,
// Skyjo's face-down cards (its renderer draws them face down even when their value is known).
function openCards(view) {
  const text = renderer.cardText || ((card) => String(card));
  if (Array.isArray(view.hands)) return { title: gettext("Every hand"), cards: view.hands.map((cards) => (cards || []).map(text)) };
  if (Array.isArray(view.grids)) {
    const hidden = view.grids.map((grid) => grid.filter((cell) => cell.status === "hidden" && cell.card !== undefined).map((cell) => String(cell.card)));
    return { title: gettext("Cards face down"), cards: hidden };
  }
  return null;
}

function openHands(snap) {
  const box = $("open-hands");
  const open = loaded.perspective === "all" && !DRAWS_OPEN_HANDS.has(config.engine) ? openCards(snap.view) : null;
  box.hidden = !open;
  if (!open) return;
  $("open-hands-title").textContent = open.title;
  $("open-hands-list").replaceChildren(...open.cards.map((cards, seat) => {
    const item = document.createElement("li");
    item.dataset.seat = seat;
    item.textContent = interpolate(gettext("%(name)s: %(cards)s"), { name: seatName(seat), cards: cards.join(" ") || "–" }, true);
    return item;
  }));
}

function scoreSheet(snap) {
  const table = $("score-table");
  const sheet = renderer.scoreSheet ? renderer.scoreSheet(snap, seatName) : null;
  const scale = snap.view.score_scale || 1;
  const head = sheet ? sheet.head : [gettext("Player"), gettext("Score")];
  const rows = sheet ? sheet.rows : (snap.view.scores || []).map((s, seat) => [seatName(seat), points(s, scale)]);
  const line = (cells, tag) => {
    const tr = document.createElement("tr");
    cells.forEach((cell) => tr.append(Object.assign(document.createElement(tag), { textContent: cell })));
    return tr;
  };
  table.replaceChildren(line(head, "th"), ...rows.map((row) => line(row, "td")));
}

function renderMoments() {
  const list = $("moments");
  list.replaceChildren(...loaded.commands.map((command) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "moment";
    button.dataset.index = loaded.first + command.end;
    button.textContent = command.text;
    button.addEventListener("click", () => go(loaded.first + command.end));
    item.append(button);
    const seqs = loaded.moments.slice(command.start, command.end + 1).map((m) => m.seq);
    const count = comments ? comments.count(seqs) : 0;
    if (count) {
      const badge = document.createElement("span");
      badge.className = "moment-comments";
      badge.textContent = `💬 ${count}`;
      badge.setAttribute("aria-label", interpolate(gettext("Comments: %(n)s"), { n: count }, true));
      item.append(badge);
    }
    const decision = review ? review.at(seqs) : null;
    if (decision && decision.label) {
      const mark = document.createElement("span");
      mark.className = "moment-review";
      mark.dataset.label = decision.label;
      mark.textContent = Review.mark(decision);
      mark.title = decision.text;
      mark.setAttribute("aria-label", decision.text);
      item.append(mark);
    }
    return item;
  }));
  list.dataset.hand = loaded.hand;
  list.dataset.perspective = loaded.perspective;
}

function markMoment(k) {
  const list = $("moments");
  if (list.dataset.hand !== String(loaded.hand) || list.dataset.perspective !== String(loaded.perspective) || list.children.length !== loaded.commands.length) renderMoments();
  const command = commandAt(k);
  for (const button of list.querySelectorAll(".moment")) {
    const here = command && Number(button.dataset.index) === loaded.first + command.end;
    button.classList.toggle("current", here);
    if (here) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}

function renderReview() {
  const box = $("review");
  if (!review || !review.enabled) { box.hidden = true; return; }
  box.hidden = false;
  let here = null;
  // The better move is described on the board its player faced: the picture before the command's
  // first event, not the one after the move played (#33: "on the 4" named an end the move made).
  let before = null;
  if (loaded) {
    const command = commandAt(index - loaded.first);
    if (command) {
      here = review.at(loaded.moments.slice(command.start, command.end + 1).map((m) => m.seq));
      if (command.start > 0) before = snapAt(loaded.first + command.start - 1);
    }
  }
  const describe = (action) => {
    try {
      return renderer.describe ? renderer.describe(action, before) : action.type;
    } catch {
      return action.type;
    }
  };
  describeHere = describe;
  review.render($("review-body"), { seatName, describe, here });
  if (here && here.label && config.better && JSON.stringify(here.best) !== JSON.stringify(here.played)) {
    const on = betterShown !== null && betterShown.seq === here.seq;
    const button = document.createElement("button");
    button.type = "button";
    button.id = "better-toggle";
    button.className = "button" + (on ? "" : " primary");
    button.textContent = on ? gettext("Back to the move played") : gettext("Show the better move");
    button.addEventListener("click", () => toggleBetter(here));
    $("review-body").append(button);
  }
  renderGraph();
}

// The graph comes drawn from the server (with the page, or with the review once it is done); here
// only the current decision's mark is lit, and its links move the replay instead of reloading it.
function renderGraph() {
  const box = $("review-graph-box");
  if (!box.querySelector("#review-graph") && review && review.graph) box.innerHTML = review.graph;
  let seqs = [];
  if (loaded) {
    const command = commandAt(index - loaded.first);
    if (command) seqs = loaded.moments.slice(command.start, command.end + 1).map((m) => m.seq);
  }
  for (const node of box.querySelectorAll("a[data-seq]")) {
    const here = seqs.includes(Number(node.dataset.seq));
    node.classList.toggle("current", here);
    if (here) node.setAttribute("aria-current", "step");
    else node.removeAttribute("aria-current");
  }
}

function graphClicked(event) {
  const link = event.target.closest("a[data-index]");
  if (!link || !loaded) return;
  event.preventDefault();
  go(Number(link.dataset.index));
}

async function toggleBetter(decision) {
  if (betterShown) { show(); return; }
  const asked = { index, perspective: loaded.perspective };
  let body;
  try {
    const response = await fetch(`${config.better}?at=${decision.seq}&as=${encodeURIComponent(loaded.perspective)}`, { credentials: "same-origin" });
    body = await response.json();
  } catch {
    showError(gettext("The better move could not be shown."));
    return;
  }
  if (body.error) { showError(body.error.message); return; }
  if (!loaded || index !== asked.index || loaded.perspective !== asked.perspective) return; // moved on meanwhile
  betterShown = body;
  drawBetter();
  renderReview();
}

// The board as it would be after the better move, marked as imagined, with the move played named.
function drawBetter() {
  const picture = betterShown.picture;
  const snap = { ...snapAt(index), view: picture, to_act: picture.to_act || [], finished: Boolean(picture.finished) };
  renderer.render($("board"), snap, boardContext(snap.seat));
  $("board").dataset.better = String(betterShown.seq);
  const note = $("better-note");
  const strip = (text) => String(text).replace(/[.\s]+$/, "");
  const played = document.createElement("mark");
  played.className = "better-played";
  played.textContent = strip(describeHere(betterShown.played));
  note.replaceChildren(
    Object.assign(document.createElement("strong"), { textContent: interpolate(gettext("On the board: the better move, %(best)s."), { best: strip(describeHere(betterShown.best)) }, true) }),
    " ",
    gettext("Played instead:"),
    " ",
    played,
  );
  note.hidden = false;
  // On a phone the button is far below the board: bring the imagined board into sight.
  const box = note.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) note.scrollIntoView({ block: "start" });
}

function hideBetter() {
  betterShown = null;
  $("better-note").hidden = true;
  $("better-note").replaceChildren();
  delete $("board").dataset.better;
}

function renderComments() {
  if (!loaded || !comments) return;
  const seq = loaded.moments[index - loaded.first].seq;
  comments.render($("comments-here"), seq);
}

// --- Moving ----------------------------------------------------------------------------------------

function handOf(target) {
  const found = hands.find(([, first, last]) => first <= target && target <= last);
  return found ? found[0] : null;
}

function go(target, fromUser = true) {
  if (fromUser) leaveDriver();
  target = Math.max(0, Math.min(target, limit()));
  const h = handOf(target);
  if (h === null) return;
  index = target;
  if (!loaded || h !== loaded.hand || perspective !== loaded.perspective) {
    hand = h;
    load(h, perspective);
    return;
  }
  show();
  drive();
}

function step(delta) {
  go(index + delta);
}

function chooseHand(number) {
  leaveDriver();
  const found = hands.find(([n]) => n === number);
  if (found) go(found[1], false);
}

function choosePerspective(value) {
  leaveDriver();
  perspective = value === "public" || value === "all" ? value : Number(value);
  load(hand, perspective);
}

function playing() {
  return timer !== null;
}

function stop() {
  clearInterval(timer);
  timer = null;
  setPlayButton();
}

function play() {
  if (playing()) { stop(); return; }
  if (index >= limit()) go(0);
  timer = setInterval(() => {
    if (wanted) return; // a hand is on its way
    if (index >= limit()) { stop(); return; }
    step(1);
  }, Number($("speed").value));
  setPlayButton();
}

function setPlayButton() {
  const button = $("play");
  button.textContent = playing() ? "❚❚" : "▶";
  button.setAttribute("aria-label", playing() ? gettext("Pause") : gettext("Play"));
  button.setAttribute("aria-pressed", playing() ? "true" : "false");
}

// --- Rooms -----------------------------------------------------------------------------------------

function drive() {
  if (!config.room || !room.youDrive || !loaded) return;
  const seq = loaded.moments[index - loaded.first].seq;
  const key = `${seq}|${loaded.perspective}`;
  if (key === lastDriven) return;
  lastDriven = key;
  socket.send({ type: "move", seq, perspective: loaded.perspective });
}

// A member who moves by themselves stops following the driver (until they rejoin).
function leaveDriver() {
  if (config.room && !room.youDrive && room.following) setFollowing(false);
}

function setFollowing(on) {
  room.following = on;
  socket.send({ type: "follow", on });
  renderRoom();
}

function followed(position) {
  if (room.youDrive && loaded) return; // the driver's own moves coming back
  if (!room.following) return;
  showNotice(position.notice ? position.notice.message : "");
  index = position.index;
  hand = position.hand;
  perspective = position.perspective;
  if (!loaded || loaded.hand !== hand || loaded.perspective !== perspective) load(hand, perspective);
  else { index = clamp(index); show(); }
}

function renderRoom() {
  if (!config.room) return;
  const driver = room.driver && room.driver.name ? room.driver.name : gettext("nobody");
  $("room-driver").textContent = room.youDrive ? gettext("You drive this room.") : interpolate(gettext("%(name)s drives this room."), { name: driver }, true);
  $("room-state").textContent = room.youDrive ? "" : room.following ? gettext("You follow the driver.") : gettext("You look around on your own.");
  $("room").dataset.following = room.following ? "1" : "0";
  $("room").dataset.drive = room.youDrive ? "1" : "0";
  $("own-control").hidden = room.youDrive || !room.following;
  $("rejoin").hidden = room.youDrive || room.following;
  $("take-wheel").hidden = room.youDrive || !room.canTake;
  const others = room.members.filter((m) => m.id !== config.user);
  $("give-box").hidden = !room.youDrive || !others.length;
  $("give-to").replaceChildren(...others.map((m) => new Option(m.name, String(m.id))));
}

// --- The socket ------------------------------------------------------------------------------------

function onMessage(message) {
  switch (message.type) {
    case "ready":
      hands = message.hands;
      perspectives = message.perspectives;
      lastVisible = message.last;
      // A reconnected member who was looking around alone stays alone; a follower waits for the
      // room's position, which comes next.
      if (config.room && !room.following) socket.send({ type: "follow", on: false });
      if (!config.room || (loaded && (room.youDrive || !room.following))) load(hand, perspective);
      break;
    case "moved":
      moved(message);
      break;
    case "hand":
      received(message);
      break;
    case "error":
      refused(message);
      break;
    case "position":
      followed(message);
      break;
    case "driver":
      room.driver = message.driver;
      room.youDrive = message.you_drive;
      room.canTake = message.can_take;
      room.members = message.members || [];
      if (room.youDrive) room.following = true;
      renderRoom();
      break;
    case "following":
      room.following = message.on;
      renderRoom();
      break;
    case "comment":
      comments.upsert(message.comment);
      break;
    case "comment_removed":
      comments.remove(message.id);
      break;
  }
}

function linkHere() {
  const seq = loaded ? loaded.moments[index - loaded.first].seq : config.position.seq;
  return `${config.link}?at=${seq}&as=${encodeURIComponent(perspective)}`;
}

async function copyLink() {
  const link = linkHere();
  $("link-text").value = link;
  $("link-box").hidden = false;
  try {
    await navigator.clipboard.writeText(link);
    showNotice(gettext("Link copied."));
  } catch {
    $("link-text").select(); // no clipboard here (an insecure page): the link is selected to copy by hand
  }
}

function keyboard(event) {
  if (event.target.closest("input, select, textarea, dialog")) return;
  if (event.key === "ArrowRight") step(1);
  else if (event.key === "ArrowLeft") step(-1);
  else if (event.key === " " && !event.target.closest("button")) play();
  else if (event.key === "Home" && loaded) go(loaded.first);
  else if (event.key === "End" && loaded) go(loaded.first + loaded.moments.length - 1);
  else return;
  event.preventDefault();
}

async function main() {
  try {
    renderer = await import(`../table/games/${config.engine}.js`);
  } catch {
    renderer = await import("../table/games/generic.js");
  }
  showNotice(config.notice);
  fillSelects();
  $("first").addEventListener("click", () => { if (loaded) go(index > loaded.first ? loaded.first : index - 1); });
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => { if (loaded) go(index < loaded.first + loaded.moments.length - 1 ? loaded.first + loaded.moments.length - 1 : index + 1); });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", () => { if (playing()) { stop(); play(); } });
  $("slider").addEventListener("input", (event) => { if (loaded) go(loaded.first + Number(event.target.value)); });
  $("hand").addEventListener("change", (event) => chooseHand(Number(event.target.value)));
  $("perspective").addEventListener("change", (event) => choosePerspective(event.target.value));
  $("copy-link").addEventListener("click", copyLink);
  const opener = $("open-room");
  if (opener) opener.addEventListener("submit", () => { opener.elements.at.value = loaded ? loaded.moments[index - loaded.first].seq : ""; opener.elements.as.value = perspective; });
  if (config.room) {
    $("own-control").addEventListener("click", () => setFollowing(false));
    $("rejoin").addEventListener("click", () => setFollowing(true));
    $("take-wheel").addEventListener("click", () => socket.send({ type: "take" }));
    $("give").addEventListener("click", () => socket.send({ type: "give", to: Number($("give-to").value) }));
  }
  comments = new Comments(config, { onChange: () => { renderComments(); if (loaded) renderMoments(); markMomentIfLoaded(); }, onError: showError });
  const form = $("comment-form");
  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!loaded) return;
      const seq = loaded.moments[index - loaded.first].seq;
      if (await comments.post(seq, $("comment-text").value)) $("comment-text").value = "";
    });
  }
  document.addEventListener("keydown", keyboard);
  $("review-graph-box").addEventListener("click", graphClicked);
  socket = new ReplaySocket(config.socket, {
    onOpen: () => {},
    onMessage,
    onStatus: (status) => {
      $("status").dataset.status = status;
      $("status").textContent = status === "open" ? gettext("Connected") : gettext("Reconnecting…");
    },
  });
  comments.load();
  review = new Review(config, { onChange: () => { if (loaded) renderMoments(); markMomentIfLoaded(); renderReview(); }, onError: showError });
  review.load();
  renderReview();
  // For tests and the curious: where the replay is and what it holds.
  window.replayClient = { get index() { return index; }, get loaded() { return loaded; }, get room() { return room; }, get review() { return review; } };
}

function markMomentIfLoaded() {
  if (loaded) markMoment(index - loaded.first);
}

main();
