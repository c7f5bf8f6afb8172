// The table page: one connection (per seat shown), a renderer per game, preview then confirm.
import { Chat } from "./chat.js";
import { TableConnection } from "./connection.js";
import { points } from "./numbers.js";
import { setupButton, signal } from "./turnsignal.js";

const gettext = window.gettext || ((s) => s);
const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));

const config = JSON.parse(document.getElementById("table-config").textContent);
const $ = (id) => document.getElementById(id);
const localSeats = [...config.seats].sort((a, b) => a - b); // seat numbers: the session holds their credentials
const passAndPlay = localSeats.length > 1;

let renderer = null;
let connection = null;
let chat = null; // the table's chat, for the players of a table that allows it (chat.js)
let shownSeat = localSeats.length ? localSeats[0] : null;
let snap = null;
let pending = null; // the previewed action: nothing is played until it is confirmed
let pendingLabel = "";
let curtainFor = null;
let sentCommand = null; // the command id of the confirmed move, until its ack or error
let sentAction = null; // the move that command carries
// A confirmed move the server refused because the table had moved on (stale_seq): once the full
// picture is back it is sent again if it is still legal, else the player is told in plain words.
let retrying = null; // {action, label, attempts}
const MAX_RETRIES = 3;
let retriesSoFar = 0;
// Confirmed while the socket was down (a phone between two networks): sent as soon as it is back.
let sendWhenOpen = false;
const sentTableCommands = new Map(); // command id -> kind ("undo"…), to explain a refusal in words
let pausedByMe = false;
const log = [];
// Keyboard focus across redraws (docs/accessibility.md): the renderers draw the board from scratch,
// so focus follows each card or tile by its data-key. ``anchor`` is the card the previewed move was
// chosen from: Cancel goes back to it, a move played goes on to the next legal card beside it.
let keyboardUser = false;
let anchor = null;
let handKey = null; // the last card or tile of the hand that had focus
let cancelled = false;
let userEvent = false; // this redraw comes from the player's own key or tap (not from the socket)
let drawnPending = null; // the preview as last drawn (choose() sets ``pending`` before it redraws)

const BOT_LEVELS = { random: () => gettext("Beginner"), greedy: () => gettext("Easy"), strong: () => gettext("Strong"), expert: () => gettext("Expert") };

// Computer seats are named by their number and level in the reader's language (games/words/computers.py):
// a tournament's computer keeps its entrant's number at every table.
function nameOf(seat) {
  if (!seat.bot) return seat.name;
  const level = BOT_LEVELS[seat.bot] ? BOT_LEVELS[seat.bot]() : seat.bot;
  return interpolate(gettext("Computer %(n)s (%(level)s)"), { n: seat.computer ?? seat.number + 1, level }, true);
}

function names() {
  return snap ? Object.fromEntries(snap.seats.map((s) => [s.number, nameOf(s)])) : {};
}

function seatName(seat) {
  const name = names()[seat] ?? interpolate(gettext("Seat %(n)s"), { n: seat + 1 }, true);
  // Names are the same for every audience; "you" is worked out here, for the seats this device plays.
  return localSeats.includes(seat) && !passAndPlay ? interpolate(gettext("%(name)s (you)"), { name }, true) : name;
}

function sameAction(a, b) {
  return a && b && JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
}

function showError(message) {
  const banner = $("error");
  banner.textContent = message;
  banner.hidden = !message;
  if (message) setTimeout(() => { if (banner.textContent === message) banner.hidden = true; }, 6000);
}

function connect(seat) {
  if (connection) connection.close();
  shownSeat = seat;
  pending = null;
  connection = new TableConnection(config.socket, seat, {
    onState: (next, previous) => {
      snap = next;
      if (!previous) sentCommand = null; // a full picture (reconnect, resync): nothing is in flight
      if (previous) addToLog(next);
      if (retrying && !previous) retry();
      else update();
      if (chat && !previous) chat.draw(); // the seats' names come with a full picture
      if (sendWhenOpen && !previous) {
        sendWhenOpen = false;
        showError("");
        confirm(); // still pending only if it is still legal on the picture just drawn
      }
      // The page's other parts (a lesson's steps: lesson.js) follow the table through this event.
      document.dispatchEvent(new CustomEvent("table:state", { detail: { seq: next.seq, finished: next.finished } }));
    },
    onAck: (ack) => {
      sentTableCommands.delete(ack.command_id);
      if (ack.command_id === sentCommand) { pending = null; sentCommand = null; sentAction = null; update(); }
    },
    onError: (error) => {
      if (chat && chat.error(error)) return;
      const mine = error.command_id && error.command_id === sentCommand;
      const tableCommand = sentTableCommands.get(error.command_id);
      sentTableCommands.delete(error.command_id);
      if (mine) sentCommand = null;
      if (error.code === "stale_seq" && (mine || tableCommand)) {
        // Never a concurrency error on screen: the connection asks for the whole table again; a
        // move is then played if it still may be, and either way the player is told in words.
        if (mine && sentAction) retrying = { action: sentAction, label: pendingLabel, attempts: retriesSoFar + 1 };
        else if (tableCommand) showError(TABLE_COMMAND_REFUSED[tableCommand] ? TABLE_COMMAND_REFUSED[tableCommand]() : movedOn());
        sentAction = null;
        return;
      }
      if (mine) { sentAction = null; pending = null; } // a refused move's preview closes (#33)
      // A part of the page that explains this refusal itself (a lesson's step) takes it over.
      const told = new CustomEvent("table:error", { detail: error, cancelable: true });
      if (document.dispatchEvent(told)) showError(error.message);
      update();
    },
    onOther: (message) => { if (chat) chat.receive(message); },
    onStatus: (status) => {
      $("status").dataset.status = status;
      if (status === "open" && chat) chat.opened();
      // Refused: this browser does not hold the seat (any more); reloading shows the table as it may see it.
      if (status === "refused") $("status").textContent = gettext("Not connected: reload the page.");
      else $("status").textContent = status === "open" ? gettext("Connected") : gettext("Reconnecting…");
    },
  });
}

// Why a tournament stopped a game before its end (games.eventlog.timeline abandon reasons).
const STOPPED = {
  forfeit: () => gettext("This game was stopped before its end: the organiser recorded a forfeit."),
  "no-show": () => gettext("This game was stopped before its end: a player did not come (no-show)."),
};

const TABLE_EVENTS = {
  "table.undo": () => gettext("took back a move"),
  "table.redo": () => gettext("played a move again"),
  "table.restart": () => gettext("restarted with the same deal"),
  "table.new_game": () => gettext("started a new game"),
  "table.pause": () => gettext("paused the computer players"),
  "table.resume": () => gettext("let the computer players go on"),
  "table.abandon": () => gettext("stopped the game"),
  "table.resign": () => gettext("ended the game (a resignation, or a claim against a player who left)"),
};

// "Name: what" in the reader's punctuation (Kreyòl puts a space before the colon: docs/glossary.md).
const said = (name, move) => interpolate(gettext("%(name)s: %(move)s"), { name, move }, true);

function addToLog(current) {
  const move = current.last_move;
  if (!move) return;
  const first = move.events[0] || {};
  if (TABLE_EVENTS[first.type]) {
    const by = String(first.by || "");
    const bySeat = by.startsWith("seat:") ? Number(by.split(":")[1]) : null;
    const who = bySeat !== null ? seatName(bySeat) : gettext("The table");
    log.unshift({ seq: move.seq, text: said(who, TABLE_EVENTS[first.type]()) });
    if (bySeat !== current.seat) announce(log[0].text);
    return;
  }
  if (move.actor === "system") return;
  const seat = Number(move.actor.split(":")[1]);
  const text = renderer.describeMove ? renderer.describeMove(move, current, seatName) : move.events.map((e) => e.type.replaceAll("_", " ")).join(", ");
  // Numbered by the move's place in the table's log, not by the moves seen since the page opened (#37:
  // a spectator arriving at move 37 saw "1").
  log.unshift({ seq: move.seq, text: said(seatName(seat), text) });
  log.length = Math.min(log.length, 200);
  // Another seat's move is said aloud, in the move log's words; one's own move is not.
  if (seat !== current.seat) announce(log[0].text);
}

// Enter or Space on a card or tile that cannot be chosen now says why instead of doing nothing.
function refusedKey(event) {
  if (event.key !== "Enter" && event.key !== " ") return;
  const node = event.target && event.target.closest ? event.target.closest("[data-key]") : null;
  if (!node || node.getAttribute("aria-disabled") !== "true" || !snap) return;
  const mine = typeof snap.seat === "number" && (snap.to_act || []).includes(snap.seat);
  announce(mine ? gettext("This cannot be played now: choose another.") : gettext("Wait for your turn."));
}

function announce(text) {
  const region = $("announce");
  if (!region) return;
  region.textContent = "";
  region.textContent = text;
}

const movedOn = () => gettext("The table changed just before your request arrived: look at it again.");
const TABLE_COMMAND_REFUSED = {
  undo: () => gettext("Another move was played just before: nothing was taken back. Look at the table and try again."),
  redo: () => gettext("Another move was played just before: nothing was played again. Look at the table and try again."),
  restart: () => gettext("Another move was played just before: the game was not restarted. Look at the table and try again."),
  new_game: () => gettext("Another move was played just before: no new game was started. Look at the table and try again."),
};

// After a refused move the full picture is back: play the move if it is still legal from here.
function retry() {
  const { action, label, attempts } = retrying;
  retrying = null;
  const legal = snap.legal_actions || [];
  const still = legal.find((a) => sameAction(a, action));
  if (still && attempts <= MAX_RETRIES) {
    pending = still;
    pendingLabel = label;
    update();
    confirm(attempts);
    return;
  }
  pending = null;
  update();
  showError(
    legal.length
      ? gettext("Your move was not played: the table changed just before it arrived and it is no longer possible. Choose again.")
      : gettext("Your move was not played: the table changed just before it arrived and it is no longer your turn."),
  );
}

function tableCommand(kind) {
  const id = connection.command(kind);
  if (id) sentTableCommands.set(id, kind);
}

function choose(action, label) {
  pending = action;
  pendingLabel = label || (renderer.describe ? renderer.describe(action, snap) : action.type);
  update();
}

function confirm(attempts = 0) {
  if (!pending || !connection || sentCommand) return;
  sentCommand = connection.command("action", { action: pending });
  sentAction = sentCommand ? pending : null;
  retriesSoFar = attempts; // a retry keeps its count until the move is stored or refused for good
  if (!sentCommand) {
    sendWhenOpen = true;
    showError(gettext("Not connected: your move will be sent when the connection is back."));
  }
}

function cancel() {
  cancelled = true;
  pending = null;
  sendWhenOpen = false;
  retrying = null;
  if (renderer.reset) renderer.reset();
  update();
}

function needsCurtain() {
  if (!passAndPlay || !snap || snap.finished) return null;
  const waiting = snap.to_act.filter((s) => localSeats.includes(s));
  if (!waiting.length || waiting.includes(shownSeat)) return null;
  return waiting[0];
}

function update() {
  if (!snap) return;
  const focus = focusBefore();
  draw();
  focusAfter(focus);
  drawnPending = pending;
}

function draw() {
  curtainFor = needsCurtain();
  const curtain = $("curtain");
  const board = $("board");
  if (curtainFor !== null) {
    // The next player's cards are not fetched until they ask; the previous player's leave the page.
    // The empty board goes too (no bare felt above the curtain); the scores are everyone's.
    board.replaceChildren();
    board.hidden = true;
    curtain.hidden = false;
    renderScores();
    const text = interpolate(gettext("Pass the device to %(name)s."), { name: seatName(curtainFor) }, true);
    $("curtain-text").textContent = text;
    $("turn").textContent = text;
    $("turn").classList.remove("mine");
    $("preview").hidden = true;
    for (const id of ["hint", "undo", "redo", "restart", "new-game", "rematch"]) setTool(id, false);
    renderLog();
    return;
  }
  curtain.hidden = true;
  board.hidden = false;
  const legal = snap.legal_actions || [];
  if (pending && !legal.some((a) => sameAction(a, pending))) pending = null;
  const ctx = {
    seat: snap.seat,
    legal,
    pending,
    names: names(),
    seatName,
    choose,
    clear: () => { pending = null; update(); },
    isPending: (action) => sameAction(action, pending),
    rerender: update,
  };
  renderer.render(board, snap, ctx);
  renderStatus(legal);
  renderPreview();
  renderTools();
  renderLog();
}

function renderStatus(legal) {
  const turn = $("turn");
  if (snap.stopped) {
    turn.textContent = STOPPED[snap.stopped] ? STOPPED[snap.stopped]() : gettext("This game was stopped before its end.");
  } else if (snap.resigned) {
    turn.textContent = interpolate(
      snap.resigned.reason === "left" ? gettext("%(name)s left the game: it is over.") : gettext("%(name)s resigned: the game is over."),
      { name: seatName(snap.resigned.seat) }, true);
  } else if (snap.finished) {
    turn.textContent = gettext("The game is over.");
  } else if (legal.length) {
    turn.textContent = passAndPlay ? interpolate(gettext("%(name)s, your turn."), { name: seatName(snap.seat) }, true) : gettext("Your turn.");
  } else if (snap.paused) {
    turn.textContent = gettext("The computer players are paused.");
  } else {
    const who = snap.to_act.map(seatName).join(", ");
    turn.textContent = interpolate(gettext("Waiting for %(names)s."), { names: who }, true);
  }
  turn.classList.toggle("mine", legal.length > 0);
  signal(legal.length > 0 && !snap.finished && !passAndPlay);
  renderScores();
}

function renderScores() {
  const scores = $("scores");
  scores.replaceChildren();
  const scale = snap.view.score_scale || 1;
  (snap.view.scores || []).forEach((score, seat) => {
    const item = document.createElement("li");
    item.textContent = said(seatName(seat), formatScore(score, scale));
    if (snap.to_act.includes(seat)) item.classList.add("acting");
    scores.append(item);
  });
}

export function formatScore(value, scale) {
  return points(value, scale); // numbers.js: grouped per language, half-points as "½"
}

function renderPreview() {
  const bar = $("preview");
  bar.hidden = !pending;
  $("preview-text").textContent = pending ? pendingLabel : "";
}

// The page leaves out the tools its table does not allow: a rated or tournament table has no hint,
// undo, redo, restart or new game (table.html), so each is looked up before it is used.
function setTool(id, shown, enabled = true) {
  const button = $(id);
  if (!button) return;
  button.hidden = !shown;
  button.disabled = !enabled;
}

function onTool(id, handler) {
  const button = $(id);
  if (button) button.addEventListener("click", handler);
}

function renderTools() {
  const mine = snap.seat !== null;
  setTool("undo", config.casual && mine, snap.can_undo);
  setTool("redo", config.casual && mine, snap.can_redo);
  setTool("restart", config.casual && mine);
  setTool("new-game", config.casual && mine);
  // After a finished game the next one is one tap away (Kazino: the other player deals); a rated
  // table's next game is rated too. A tournament starts its own games.
  setTool("rematch", (config.casual || config.kind === "rated") && mine && snap.finished);
  // A game may be given up, and at a table that counts, claimed when an opponent left (no clock).
  const playing = mine && !snap.finished && !snap.stopped;
  setTool("resign", playing);
  setTool("claim", playing);
  // The strong computer's help is for casual tables only: rated and tournament games count.
  setTool("hint", config.casual && mine && (snap.legal_actions || []).length > 0);
}

function renderLog() {
  const list = $("log-list");
  // Newest first, numbered in the order the moves were played (the newest has the highest number).
  list.reversed = true;
  list.replaceChildren(...log.slice(0, 50).map((line) => Object.assign(document.createElement("li"), { textContent: line.text, value: line.seq })));
}

// ---- Keyboard focus across redraws ------------------------------------------------------------
// The renderers mark what can take focus on the board with a stable data-key ("card:10H", "tile:6-4",
// "cell:5", "option:2"…), the player's own cards or tiles with data-hand-area, and the choices of a
// selected card with data-options.

const keyOf = (node) => (node && node.closest ? node.closest("[data-key]") : null)?.dataset.key ?? null;
const handItems = () => [...$("board").querySelectorAll("[data-hand-area] [data-key]")];
const usable = (node) => !!node && !node.disabled && !node.hidden && node.getClientRects().length > 0;
const playable = (node) => usable(node) && node.getAttribute("aria-disabled") !== "true";

function byKey(key) {
  if (key === null) return null;
  return [...$("board").querySelectorAll("[data-key]")].find((n) => n.dataset.key === key) || null;
}

function focusBefore() {
  const active = document.activeElement;
  const board = $("board");
  const keys = handItems().map((n) => n.dataset.key);
  const key = active && active !== board && board.contains(active) ? keyOf(active) : null;
  if (key !== null && keys.includes(key)) handKey = key;
  return {
    key,
    inBoard: !!active && board.contains(active),
    inHand: key !== null && keys.includes(key),
    inOptions: key !== null && !!active.closest("[data-options]"),
    onPreview: !!active && $("preview").contains(active),
    // "Show my cards" is hidden once they are shown; after a move the curtain itself came up.
    onCurtain: active === $("curtain-show") || (active === document.body && !$("curtain").hidden),
    index: keys.indexOf(key !== null && keys.includes(key) ? key : handKey),
    options: !!board.querySelector("[data-options] [data-key]"),
    pending: drawnPending,
  };
}

/** The card or tile to go on with: a legal one at (or after, or before) ``index``, else any. */
function nextInHand(index) {
  const items = handItems().filter(usable);
  if (!items.length) return null;
  const at = Math.max(0, Math.min(index, items.length - 1));
  const order = [...items.slice(at), ...items.slice(0, at).reverse()];
  return order.find(playable) || items[at];
}

function focusOn(node, scroll) {
  if (!node || node === document.activeElement) return;
  node.focus({ preventScroll: !scroll });
}

function focusAfter(before) {
  const wasCancel = cancelled;
  cancelled = false;
  const board = $("board");
  const scroll = keyboardUser;
  if (curtainFor !== null) {
    if (before.inBoard || before.onPreview) focusOn($("curtain-show"), scroll);
    return;
  }
  if (before.onCurtain && $("curtain").hidden) {
    const first = nextInHand(0);
    if (first) focusOn(first, scroll); // the next player's hand, from its first card
    return;
  }
  const fromHere = before.inBoard || before.onPreview;
  // A new move previewed from the keyboard: Confirm is next (Esc comes back to the card).
  if (pending && pending !== before.pending && keyboardUser && userEvent && fromHere && !$("preview").hidden) {
    if (before.key !== null) anchor = before.key;
    focusOn($("confirm"), scroll);
    return;
  }
  if (before.onPreview && $("preview").hidden) {
    // Cancelled: back to where the move was chosen (the option, else its card). Played, or taken
    // away by another seat's move: on to the next legal card beside it.
    const back = wasCancel ? [byKey(anchor), byKey(handKey)].find(usable) : null;
    focusOn(back || nextInHand(Math.max(0, before.index)) || board, scroll);
    anchor = null;
    return;
  }
  if (!before.inBoard) return;
  const options = [...board.querySelectorAll("[data-options] [data-key]")].filter(usable);
  if (options.length && !before.options && before.inHand && userEvent) {
    focusOn(options[0], scroll); // a card with several moves, just selected: its first move
    return;
  }
  const same = byKey(before.key);
  // A card that can no longer be chosen (turned face up, played) keeps focus only while nothing else
  // of the hand can be played: on one's turn, focus goes on to a card that can (#33: Enter was silent).
  const stay = usable(same) && (playable(same) || !before.inHand || !handItems().some(playable));
  if (stay) focusOn(same, false);
  else if (options.length && before.inOptions) focusOn(options[0], scroll);
  else focusOn(nextInHand(Math.max(0, before.index)) || options[0] || board, scroll);
}

function skipToHand(event) {
  event.preventDefault();
  const target = curtainFor !== null ? $("curtain-show") : nextInHand(0) || $("board");
  keyboardUser = true;
  target.focus();
}

async function hint() {
  const response = await fetch(`${config.hint}?seat=${snap.seat}`, { credentials: "same-origin" });
  const body = await response.json();
  if (body.error) { showError(body.error.message); return; }
  const action = (snap.legal_actions || []).find((a) => sameAction(a, body.action));
  if (action) choose(action, interpolate(gettext("Hint: %(move)s"), { move: renderer.describe ? renderer.describe(action, snap) : action.type }, true));
}

function openDialog(id, fill) {
  const dialog = $(id);
  if (fill) fill();
  // Reading the rules or the score sheet pauses the computer players, at a casual table: in a game
  // that counts no player may stop the clock (a tournament table is paused by its organiser).
  if (config.casual && snap && snap.seat !== null && !snap.paused && !snap.finished) { pausedByMe = true; connection.command("pause"); }
  dialog.showModal();
}

function closed() {
  if (pausedByMe) { pausedByMe = false; connection.command("resume"); }
}

function fillScoreSheet() {
  const table = $("score-table");
  table.replaceChildren();
  const sheet = renderer.scoreSheet ? renderer.scoreSheet(snap, seatName) : null;
  const head = sheet ? sheet.head : [gettext("Player"), gettext("Score")];
  const rows = sheet ? sheet.rows : (snap.view.scores || []).map((s, seat) => [seatName(seat), formatScore(s, snap.view.score_scale || 1)]);
  const tr = document.createElement("tr");
  head.forEach((h) => tr.append(Object.assign(document.createElement("th"), { textContent: h })));
  table.append(tr);
  rows.forEach((row) => {
    const line = document.createElement("tr");
    row.forEach((cell) => line.append(Object.assign(document.createElement("td"), { textContent: cell })));
    table.append(line);
  });
}

async function fillRules() {
  const box = $("rules-body");
  if (box.dataset.loaded) return;
  const html = await (await fetch(config.rules)).text();
  const main = new DOMParser().parseFromString(html, "text/html").querySelector("main");
  box.replaceChildren(...(main ? main.childNodes : []));
  box.dataset.loaded = "1";
}

function keyboard(event) {
  if (!snap || curtainFor !== null || event.target.closest("input, select, textarea, dialog")) return;
  const legal = snap.legal_actions || [];
  if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && legal.length) {
    const index = legal.findIndex((a) => sameAction(a, pending));
    const step = event.key === "ArrowRight" ? 1 : -1;
    choose(legal[(index + step + legal.length) % legal.length]);
    event.preventDefault();
  } else if (event.key === "Enter" && pending && !event.target.closest("button:not(#confirm), [role=button]")) {
    confirm();
    event.preventDefault();
  } else if (event.key === "Escape" && pending) {
    cancel();
  }
}

async function main() {
  try {
    renderer = await import(`./games/${config.engine}.js`);
  } catch {
    renderer = await import("./games/generic.js");
  }
  $("confirm").addEventListener("click", () => confirm());
  $("cancel").addEventListener("click", cancel);
  onTool("hint", hint);
  onTool("undo", () => tableCommand("undo"));
  onTool("redo", () => tableCommand("redo"));
  onTool("restart", () => { if (window.confirm(gettext("Start again with the same deal?"))) tableCommand("restart"); });
  onTool("rematch", () => tableCommand("new_game"));
  onTool("resign", () => { if (window.confirm(gettext("Give up this game? Your side loses it."))) tableCommand("resign"); });
  onTool("claim", () => tableCommand("claim"));
  onTool("new-game", () => { if (window.confirm(gettext("Start a new game with a new deal?"))) tableCommand("new_game"); });
  $("show-rules").addEventListener("click", () => openDialog("rules-dialog", fillRules));
  $("show-scores").addEventListener("click", () => openDialog("score-dialog", fillScoreSheet));
  for (const id of ["rules-dialog", "score-dialog"]) $(id).addEventListener("close", closed);
  $("curtain-show").addEventListener("click", () => connect(curtainFor));
  document.addEventListener("keydown", keyboard);
  if (config.seats && config.seats.length) setupButton($("turn-alerts"));
  $("board").addEventListener("keydown", refusedKey);
  // Focus follows the keyboard only when the keyboard is in use (a tap does not jump to Confirm).
  document.addEventListener("keydown", (event) => { if (!event.ctrlKey && !event.metaKey && !event.altKey) keyboardUser = true; }, true);
  document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);
  // What a key or a tap redraws (in the same task) may move focus; a picture from the socket may not.
  for (const type of ["keydown", "click"]) {
    document.addEventListener(type, () => { userEvent = true; setTimeout(() => { userEvent = false; }, 0); }, true);
  }
  if ($("skip-link")) $("skip-link").addEventListener("click", skipToHand);
  if (config.chat && $("chat")) {
    chat = new Chat({ game: config.game, send: (message) => connection.send(message), seatName, table: () => snap });
  }
  connect(shownSeat);
  // For tests and the curious: the live connection and the picture it holds.
  window.tableClient = { get connection() { return connection; }, get snap() { return snap; }, get pending() { return pending; }, get renderer() { return renderer; }, get chat() { return chat; } };
}

main();
