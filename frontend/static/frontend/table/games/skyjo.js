// Skyjo at the table: every seat's 3 × 4 grid, the draw pile, the discard pile (browsable, newest
// first) and the drawn card (its value only for the drawer: the view already redacts it).
// A tap only selects; once the selection names exactly one legal action the page previews it and
// nothing is played until Confirm.
import { number } from "../numbers.js";

const gettext = window.gettext || ((s) => s);
const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => o[k]));

document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("./skyjo.css", import.meta.url) }));

const COLUMNS = 4;
const ROWS = 3;

// What the player has picked so far in a two-step move: "discard" (take the discard, then a cell)
// or "throw" (throw the drawn card away, then a hidden cell). Cleared by Cancel and by every new move.
let source = null;
let seenChoice = null;
let historyOpen = false;
let lastOpen = false;
let nudge = false; // a face-up card was tapped before choosing where the new card comes from

export function reset() {
  source = null;
  nudge = false;
}

// ---------------------------------------------------------------- words

const rowOf = (cell) => Math.floor(cell / COLUMNS) + 1;
const columnOf = (cell) => (cell % COLUMNS) + 1;

function where(cell) {
  return interpolate(gettext("row %(row)s, column %(column)s"), { row: rowOf(cell), column: columnOf(cell) }, true);
}

function cardWord(card) {
  return card === null || card === undefined ? "" : number(card); // −2 with a true minus sign
}

function myGrid(snap) {
  const seat = snap.seat;
  return seat === null || seat === undefined ? null : snap.view.grids[seat];
}

// The card now on a cell, in words: it goes to the discard pile when something is placed there.
function replacedWords(snap, cell) {
  const grid = myGrid(snap);
  const here = grid && grid[cell];
  if (here && here.status === "up") return interpolate(gettext("the %(card)s there goes to the discard pile"), { card: cardWord(here.card) }, true);
  return gettext("the face-down card there goes face up to the discard pile");
}

// Would putting `card` on `cell` make a column of three equal face-up cards?
function wipes(snap, cell, card) {
  const grid = myGrid(snap);
  if (!grid || card === undefined || card === null) return false;
  const column = cell % COLUMNS;
  return [column, column + COLUMNS, column + 2 * COLUMNS]
    .filter((c) => c !== cell)
    .every((c) => grid[c].status === "up" && grid[c].card === card);
}

function wipeWords(snap, cell, card) {
  return wipes(snap, cell, card) ? " " + interpolate(gettext("— this wipes out column %(column)s!"), { column: columnOf(cell) }, true) : "";
}

export function describe(action, snap) {
  const view = snap ? snap.view : {};
  const top = view.discard && view.discard.length ? view.discard[0] : null;
  const drawn = view.drawn && "card" in view.drawn ? view.drawn.card : null;
  const cell = action.cell;
  switch (action.type) {
    case "reveal":
      return interpolate(gettext("Turn face up your card on %(where)s."), { where: where(cell) }, true);
    case "take_discard":
      return interpolate(gettext("Take the %(card)s from the discard pile and put it on %(where)s; %(replaced)s."), { card: cardWord(top), where: where(cell), replaced: replacedWords(snap, cell) }, true) + wipeWords(snap, cell, top);
    case "draw":
      return gettext("Draw the top card of the draw pile (only you will see it).");
    case "place":
      return interpolate(gettext("Place the drawn %(card)s on %(where)s; %(replaced)s."), { card: cardWord(drawn), where: where(cell), replaced: replacedWords(snap, cell) }, true) + wipeWords(snap, cell, drawn);
    case "discard":
      return interpolate(gettext("Throw the drawn %(card)s on the discard pile and turn face up your card on %(where)s."), { card: cardWord(drawn), where: where(cell) }, true);
    case "turn":
      return interpolate(gettext("Just turn face up your card on %(where)s and end your turn."), { where: where(cell) }, true);
    default:
      return action.type;
  }
}

// One event in words. With data (the engine lists the type in PUBLIC_EVENTS) it says which card and
// where; without, only what kind of thing happened.
function eventWords(event, seatName) {
  const has = (key) => event[key] !== undefined && event[key] !== null;
  const at = has("cell") ? where(event.cell) : null;
  switch (event.type) {
    case "revealed":
      return has("card") && at ? interpolate(gettext("turned up a card: %(card)s on %(where)s"), { card: cardWord(event.card), where: at }, true) : gettext("turned up an opening card");
    case "round_started":
      return has("seat") ? interpolate(gettext("%(name)s starts the round"), { name: seatName(event.seat) }, true) : gettext("the round starts");
    case "took_discard":
      if (has("card") && at) {
        const text = interpolate(gettext("took the %(card)s from the discard pile onto %(where)s"), { card: cardWord(event.card), where: at }, true);
        return has("replaced") ? text + " " + interpolate(gettext("(the %(card)s there went to the discard pile)"), { card: cardWord(event.replaced) }, true) : text;
      }
      if (has("card")) return interpolate(gettext("took the %(card)s from the discard pile"), { card: cardWord(event.card) }, true);
      return gettext("took the top discard");
    case "drew":
      return gettext("drew a card");
    case "reshuffled":
      return gettext("the discard pile was shuffled into a new draw pile");
    case "placed":
      if (has("card") && at) {
        const text = interpolate(gettext("placed the drawn %(card)s on %(where)s"), { card: cardWord(event.card), where: at }, true);
        return has("replaced") ? text + " " + interpolate(gettext("(the %(card)s there went to the discard pile)"), { card: cardWord(event.replaced) }, true) : text;
      }
      return gettext("placed the drawn card");
    case "discarded":
      return has("card") ? interpolate(gettext("threw the drawn %(card)s away"), { card: cardWord(event.card) }, true) : gettext("threw the drawn card away");
    case "turned":
      return has("card") && at ? interpolate(gettext("turned up a card: %(card)s on %(where)s"), { card: cardWord(event.card), where: at }, true) : gettext("turned up a card");
    case "wiped":
      return has("column") && has("cards") ? interpolate(gettext("wiped out column %(column)s (3 × %(card)s)"), { column: event.column + 1, card: cardWord(event.cards[0]) }, true) : gettext("wiped out a column");
    case "closed":
      return gettext("closed the round");
    case "final_reveal":
      return has("seat") && has("cards") ? interpolate(gettext("%(name)s's last cards: %(cards)s"), { name: seatName(event.seat), cards: event.cards.map(cardWord).join(" ") }, true) : gettext("the last hidden cards were turned up");
    case "round_ended":
      if (has("points")) {
        const points = event.points.map((p, seat) => `${seatName(seat)} ${p}`).join(", ");
        return interpolate(gettext("round %(hand)s over: %(points)s"), { hand: event.hand, points }, true);
      }
      return gettext("the round is over");
    case "dealt":
      return gettext("a new round is dealt");
    case "game_ended":
      if (has("winners")) return interpolate(gettext("game over, won by %(names)s"), { names: event.winners.map(seatName).join(", ") }, true);
      return gettext("the game is over");
    default:
      return null; // next_turn, setup: nothing worth a line
  }
}

export function describeMove(lastMove, snap, seatName) {
  const name = seatName || ((n) => interpolate(gettext("Seat %(n)s"), { n: n + 1 }, true));
  const events = withDetails(lastMove, snap);
  const parts = events.map((event) => eventWords(event, name)).filter(Boolean);
  return parts.join("; ") || gettext("played");
}

// The view drawn last, to tell what a move changed when its events come without data (the engine
// sends event data only for the types it lists as public).
let shown = null;
// The cells the last move changed ("seat:cell"), so that everyone can follow what just happened.
let fresh = new Set();
let arriving = false; // animate the fresh cells on the first drawing of a move only

function freshCells(before, after) {
  const cells = new Set();
  if (!before || before.hand !== after.hand || !after.grids) return cells;
  after.grids.forEach((grid, seat) => grid.forEach((spot, cell) => {
    const was = before.grids[seat] && before.grids[seat][cell];
    if (spot.status !== "hidden" && JSON.stringify(spot) !== JSON.stringify(was)) cells.add(`${seat}:${cell}`);
  }));
  return cells;
}

// Fill in a move's missing public details (which cell, which card) by comparing the view just
// before the move with the view after it. Only when the two are exactly one move apart and in the
// same round; otherwise the events stay as they came.
function withDetails(lastMove, snap) {
  const events = (lastMove.events || []).map((event) => ({ ...event }));
  const before = shown && shown.view;
  const after = snap.view;
  const seat = Number(String(lastMove.actor).split(":")[1]);
  const types = new Set(events.map((event) => event.type));
  const hasData = events.some((event) => Object.keys(event).length > 1);
  if (hasData || !before || !after || Number.isNaN(seat) || !after.grids[seat]) return events;
  if (shown.seq !== lastMove.seq - events.length || snap.seq !== lastMove.seq || before.hand !== after.hand) return events;
  if (["dealt", "final_reveal", "round_ended", "game_ended"].some((type) => types.has(type))) return events;
  const was = before.grids[seat];
  const now = after.grids[seat];
  const changed = now.map((spot, cell) => cell).filter((cell) => now[cell].status === "up" && JSON.stringify(now[cell]) !== JSON.stringify(was[cell]));
  const wipedColumns = [0, 1, 2, 3].filter((c) => [c, c + COLUMNS, c + 2 * COLUMNS].every((cell) => now[cell].status === "wiped") && [c, c + COLUMNS, c + 2 * COLUMNS].some((cell) => was[cell].status !== "wiped"));
  const wiped = types.has("wiped");
  const cell = changed.length === 1 ? changed[0] : null;
  for (const event of events) {
    if ((event.type === "revealed" || event.type === "turned") && cell !== null) Object.assign(event, { cell, card: now[cell].card });
    if (event.type === "took_discard" && before.discard.length) {
      event.card = before.discard[0];
      if (cell !== null && now[cell].card === event.card) event.cell = cell;
      if (!wiped && event.cell !== undefined) event.replaced = after.discard[0];
    }
    if (event.type === "placed" && cell !== null) {
      Object.assign(event, { cell, card: now[cell].card });
      if (!wiped) event.replaced = after.discard[0];
    }
    if (event.type === "discarded" && !wiped && after.discard.length) event.card = after.discard[0];
    if (event.type === "wiped" && wipedColumns.length === 1 && after.discard.length) {
      Object.assign(event, { column: wipedColumns[0], cards: [after.discard[0], after.discard[0], after.discard[0]] });
    }
    if (event.type === "round_started" && after.starter !== null && after.starter !== undefined) event.seat = after.starter;
  }
  return events;
}

export function scoreSheet(snap, seatName) {
  const view = snap.view;
  const seats = [...Array(view.players).keys()];
  const head = [gettext("Round"), ...seats.map((seat) => seatName(seat))];
  const rows = (view.rounds || []).map((round) => [
    interpolate(gettext("Round %(hand)s"), { hand: round.hand }, true),
    ...seats.map((seat) => {
      let text = cardWord(round.points[seat]);
      if (seat === round.closer) {
        text += " " + (round.doubled ? interpolate(gettext("(closed, doubled from %(total)s)"), { total: cardWord(round.totals[seat]) }, true) : gettext("(closed)"));
      }
      return text;
    }),
  ]);
  if (view.phase !== "over") {
    rows.push([interpolate(gettext("Round %(hand)s, face up now"), { hand: view.hand }, true), ...seats.map((seat) => cardWord(view.showing[seat]))]);
  }
  rows.push([gettext("Total"), ...seats.map((seat) => cardWord(view.scores[seat]))]);
  if (view.outcome) {
    rows.push([gettext("Place"), ...seats.map((seat) => String(view.outcome.places[seat]))]);
  }
  return { head, rows };
}

// ---------------------------------------------------------------- drawing

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function tone(card) {
  if (card < 0) return "neg";
  if (card === 0) return "zero";
  if (card <= 4) return "low";
  if (card <= 8) return "mid";
  return "high";
}

// A card face (value known), a card back, or the empty place of a wiped card.
function cardFace(node, card) {
  node.classList.add("sk-card", "sk-up", `sk-${tone(card)}`);
  node.append(el("span", "sk-value", cardWord(card)));
  return node;
}

function cardBack(node) {
  node.classList.add("sk-card", "sk-back");
  return node;
}

function button(className, label, onClick, data) {
  const node = el("button", className);
  node.type = "button";
  node.setAttribute("aria-label", label);
  Object.assign(node.dataset, data);
  node.addEventListener("click", (event) => {
    event.preventDefault();
    onClick();
  });
  return node;
}

function cellLabel(cell, spot) {
  if (spot.status === "up") return interpolate(gettext("%(where)s: %(card)s"), { where: where(cell), card: cardWord(spot.card) }, true);
  if (spot.status === "hidden") return interpolate(gettext("%(where)s: face down"), { where: where(cell) }, true);
  return interpolate(gettext("%(where)s: wiped out"), { where: where(cell) }, true);
}

function findAction(legal, type, cell) {
  return legal.find((a) => a.type === type && (cell === undefined || a.cell === cell)) || null;
}

// What a tap on one of my cells means, given what is already selected.
function actionForCell(ctx, cell) {
  const legal = ctx.legal;
  if (source === "discard") return findAction(legal, "take_discard", cell);
  if (source === "throw") return findAction(legal, "discard", cell);
  return findAction(legal, "reveal", cell) || findAction(legal, "place", cell) || findAction(legal, "turn", cell);
}

function prompt(snap, ctx) {
  const view = snap.view;
  if (view.phase === "over") return "";
  if (!ctx.legal.length) {
    if (view.phase === "opening" && snap.seat !== null && !view.to_act.includes(snap.seat)) return gettext("Waiting for the others to turn their two opening cards.");
    return "";
  }
  if (view.phase === "opening") {
    const faceUp = 12 - view.hidden[snap.seat] - wipedCount(myGrid(snap));
    return faceUp === 1 ? gettext("Turn one more of your cards face up.") : gettext("Opening: turn two of your cards face up. Tap a face-down card.");
  }
  if (ctx.legal.some((a) => a.type === "place")) {
    if (source === "throw") return gettext("Now tap one of your face-down cards to turn it face up.");
    return gettext("Tap one of your cards to put the drawn card there, or tap the discard pile to throw it away.");
  }
  if (source === "discard") return gettext("Tap one of your cards to put the discard there.");
  if (nudge) return gettext("To replace a card, first tap the discard pile or draw a card; a face-down card can also just be turned.");
  return gettext("Tap the discard pile to take its top card, the draw pile to draw, or a face-down card to just turn it.");
}

function wipedCount(grid) {
  return grid ? grid.filter((spot) => spot.status === "wiped").length : 0;
}

function seatBadges(view, seat) {
  const badges = [];
  if (!view.finished && view.to_act.includes(seat)) badges.push(["sk-badge sk-acting", view.phase === "opening" ? gettext("opening") : gettext("to play")]);
  if (view.closer === seat) badges.push(["sk-badge sk-closer", gettext("closer")]);
  if (view.outcome && view.outcome.winners.includes(seat)) badges.push(["sk-badge sk-winner", gettext("winner")]);
  return badges;
}

function seatPanel(snap, ctx, seat, mine) {
  const view = snap.view;
  const grid = view.grids[seat];
  const panel = el("section", "sk-seat" + (mine ? " sk-mine" : " sk-other"));
  panel.dataset.seat = seat;
  if (!view.finished && view.to_act.includes(seat)) {
    // The seat to play is marked in words (its badge) and as the current one, not by its border alone.
    panel.classList.add("sk-turn");
    panel.setAttribute("aria-current", "true");
  }
  const head = el("header", "sk-seat-head");
  head.append(el("strong", "sk-name", ctx.seatName(seat)));
  for (const [className, text] of seatBadges(view, seat)) head.append(el("span", className, text));
  const facts = el("span", "sk-facts", interpolate(gettext("face-up total %(showing)s · %(hidden)s hidden · game score %(score)s"), { showing: cardWord(view.showing[seat]), hidden: view.hidden[seat], score: cardWord(view.scores[seat]) }, true));
  head.append(facts);
  panel.append(head);
  panel.setAttribute("aria-label", interpolate(gettext("%(name)s's grid"), { name: ctx.seatName(seat) }, true));

  const board = el("div", "sk-grid");
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", interpolate(gettext("%(name)s's grid"), { name: ctx.seatName(seat) }, true));
  // My own grid is always made of buttons, each with its key, so that focus stays on a card while the
  // others play; a card that cannot be chosen now is aria-disabled (it stays in the tab order).
  if (mine && snap.seat !== null) board.dataset.handArea = "";
  const interactive = mine && ctx.legal.length > 0;
  if (interactive) board.classList.add("sk-choosing");
  const holding = view.drawn && "card" in view.drawn && view.drawn.seat === seat ? view.drawn.card : null;
  grid.forEach((spot, cell) => {
    const action = interactive ? actionForCell(ctx, cell) : null;
    let node;
    if (mine && snap.seat !== null) {
      // A tap on a card that needs a source first explains what to pick (nudge).
      const explains = interactive && !(spot.status === "wiped" || source === "throw" || view.phase === "opening");
      node = button("sk-cell", cellLabel(cell, spot), () => {
        const chosen = interactive ? actionForCell(ctx, cell) : null;
        if (chosen) {
          nudge = false;
          ctx.choose(chosen);
        } else if (explains) {
          nudge = true;
          ctx.rerender();
        }
      }, { cell: String(cell), key: `cell:${cell}` });
      if (action) node.classList.add("sk-target");
      else node.setAttribute("aria-disabled", "true");
      if (action && ctx.isPending(action)) {
        node.classList.add("sk-pending");
        node.setAttribute("aria-pressed", "true");
        // Show the card that would land here (drawn by the style sheet; the name says it in words).
        const incoming = action.type === "take_discard" ? view.discard[0] : action.type === "place" ? holding : null;
        if (incoming !== null && incoming !== undefined) {
          const badge = el("span", "sk-incoming");
          badge.dataset.value = cardWord(incoming);
          badge.classList.add("sk-card", "sk-up", `sk-${tone(incoming)}`);
          node.append(badge);
          node.setAttribute("aria-label", interpolate(gettext("%(where)s; the %(card)s comes here"), { where: cellLabel(cell, spot), card: cardWord(incoming) }, true));
        }
      }
    } else {
      node = el("div", "sk-cell");
      node.dataset.cell = String(cell);
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", cellLabel(cell, spot));
    }
    node.dataset.status = spot.status;
    if (fresh.has(`${seat}:${cell}`)) node.classList.add("sk-fresh", ...(arriving ? ["sk-arrive"] : []));
    if (spot.status === "up") {
      node.dataset.card = String(spot.card);
      cardFace(node, spot.card);
    } else if (spot.status === "hidden") {
      cardBack(node);
    } else {
      node.classList.add("sk-wiped");
    }
    board.append(node);
  });
  panel.append(board);
  return panel;
}

function centre(snap, ctx) {
  const view = snap.view;
  const box = el("section", "sk-centre");
  box.setAttribute("aria-label", gettext("Draw pile and discard pile"));
  const piles = el("div", "sk-piles");

  // The draw pile.
  const drawAction = findAction(ctx.legal, "draw");
  const drawLabel = interpolate(ngettext("Draw pile: %(count)s card", "Draw pile: %(count)s cards", view.draw_pile), { count: view.draw_pile }, true);
  const draw = drawAction
    ? button("sk-pile sk-target", drawLabel, () => { source = null; ctx.choose(drawAction); }, { action: "draw", key: "pile:draw" })
    : Object.assign(el("div", "sk-pile"), { role: "img" });
  if (!drawAction) draw.setAttribute("aria-label", drawLabel);
  if (drawAction && ctx.isPending(drawAction)) draw.classList.add("sk-pending");
  draw.dataset.pile = "draw";
  cardBack(draw);
  draw.append(el("span", "sk-count", String(view.draw_pile)));
  piles.append(labelled(draw, gettext("Draw pile")));

  // The discard pile: take its top card (A), or throw the drawn card on it (B2).
  const top = view.discard.length ? view.discard[0] : null;
  const canTake = ctx.legal.some((a) => a.type === "take_discard");
  const canThrow = ctx.legal.some((a) => a.type === "discard");
  const discardLabel = top === null ? gettext("Discard pile: empty")
    : canThrow ? interpolate(gettext("Discard pile, top card %(card)s: throw the drawn card away"), { card: cardWord(top) }, true)
      : canTake ? interpolate(gettext("Discard pile: take the %(card)s"), { card: cardWord(top) }, true)
        : interpolate(gettext("Discard pile, top card %(card)s"), { card: cardWord(top) }, true);
  let discard;
  if (canTake || canThrow) {
    const wanted = canThrow ? "throw" : "discard";
    discard = button("sk-pile sk-target", discardLabel, () => {
      source = source === wanted ? null : wanted;
      nudge = false;
      ctx.rerender();
    }, { action: canThrow ? "throw" : "take-discard", key: "pile:discard" });
    const viaPending = ctx.pending && ctx.pending.type === (canThrow ? "discard" : "take_discard");
    if (source === wanted || viaPending) { discard.classList.add("sk-selected"); discard.setAttribute("aria-pressed", "true"); }
  } else {
    discard = el("div", "sk-pile");
    discard.setAttribute("role", "img");
    discard.setAttribute("aria-label", discardLabel);
  }
  discard.dataset.pile = "discard";
  if (top === null) discard.classList.add("sk-card", "sk-empty");
  else { discard.dataset.card = String(top); cardFace(discard, top); }
  piles.append(labelled(discard, gettext("Discard pile")));

  box.append(piles);
  return box;
}

// The round, the closer and what to do now, in words.
function status(snap, ctx) {
  const view = snap.view;
  const box = el("div", "sk-status");
  const words = el("div", "sk-words");
  words.append(el("p", "sk-info", interpolate(gettext("Round %(hand)s · game to %(target)s points"), { hand: view.hand, target: view.target }, true)));
  if (view.closer !== null && view.closer !== undefined && view.phase !== "over") {
    words.append(el("p", "sk-closing", interpolate(gettext("%(name)s closed: everyone else plays one last turn."), { name: ctx.seatName(view.closer) }, true)));
  }
  const text = prompt(snap, ctx);
  if (text) words.append(el("p", "sk-prompt", text));
  box.append(words);
  // The drawn card, held in hand: its value for the drawer only (the others see only who holds one).
  if (view.drawn) {
    const mineDrawn = "card" in view.drawn;
    const label = mineDrawn
      ? interpolate(gettext("Your drawn card: %(card)s"), { card: cardWord(view.drawn.card) }, true)
      : interpolate(gettext("%(name)s holds a drawn card"), { name: ctx.seatName(view.drawn.seat) }, true);
    const held = el("div", "sk-pile sk-held");
    held.setAttribute("role", "img");
    held.setAttribute("aria-label", label);
    held.dataset.drawn = mineDrawn ? String(view.drawn.card) : "hidden";
    if (mineDrawn) cardFace(held, view.drawn.card);
    else cardBack(held);
    box.prepend(labelled(held, mineDrawn ? gettext("Your drawn card") : interpolate(gettext("%(name)s drew"), { name: ctx.seatName(view.drawn.seat) }, true)));
  }
  return box;
}

function labelled(node, caption) {
  const wrap = el("div", "sk-pile-wrap");
  wrap.append(node, el("span", "sk-caption", caption));
  return wrap;
}

// The whole discard pile, newest first: public, anyone may look at it at any time.
function history(view) {
  const box = el("details", "sk-history");
  box.open = historyOpen;
  box.addEventListener("toggle", () => { historyOpen = box.open; });
  const summary = el("summary", null, interpolate(ngettext("Discard pile: %(count)s card, newest first", "Discard pile: %(count)s cards, newest first", view.discard.length), { count: view.discard.length }, true));
  summary.dataset.action = "history";
  summary.dataset.key = "history";
  box.append(summary);
  const list = el("ol", "sk-history-list");
  list.setAttribute("aria-label", gettext("Discard pile, newest first"));
  view.discard.forEach((card, index) => {
    const item = cardFace(el("li"), card);
    item.dataset.card = String(card);
    item.setAttribute("aria-label", index === 0 ? interpolate(gettext("%(card)s (top)"), { card: cardWord(card) }, true) : cardWord(card));
    list.append(item);
  });
  box.append(list);
  if (view.reshuffles) box.append(el("p", "sk-note", interpolate(ngettext("Reshuffled once this round: the pile starts again from the card left on top.", "Reshuffled %(n)s times this round: the pile starts again from the card left on top.", view.reshuffles), { n: view.reshuffles }, true)));
  return box;
}

// The last round's result, shown while the next one opens, and the final standings.
function results(snap, ctx) {
  const view = snap.view;
  const last = view.rounds && view.rounds.length ? view.rounds[view.rounds.length - 1] : null;
  if (!last || (view.phase !== "opening" && view.phase !== "over")) return null;
  const box = el("section", "sk-results");
  box.setAttribute("aria-label", gettext("Results"));
  if (view.phase === "over" && view.outcome) {
    box.append(el("h2", null, interpolate(gettext("Won by %(names)s"), { names: view.outcome.winners.map(ctx.seatName).join(", ") }, true)));
  }
  box.append(el("p", null, interpolate(gettext("Round %(hand)s: %(points)s"), {
    hand: last.hand,
    points: last.points.map((p, seat) => {
      let text = `${ctx.seatName(seat)} ${cardWord(p)}`;
      if (seat === last.closer && last.doubled) text += " " + gettext("(doubled)");
      return text;
    }).join(" · "),
  }, true)));
  if (last.grids) box.append(lastGrids(last, ctx));
  return box;
}

// The final grids of the last round (the next round is dealt at once, so they are kept here).
function lastGrids(last, ctx) {
  const box = el("details", "sk-last");
  box.open = lastOpen;
  box.addEventListener("toggle", () => { lastOpen = box.open; });
  box.append(el("summary", null, interpolate(gettext("Round %(hand)s: the final grids"), { hand: last.hand }, true)));
  const wrap = el("div", "sk-last-grids");
  last.grids.forEach((cards, seat) => {
    const figure = el("figure");
    figure.append(el("figcaption", null, interpolate(gettext("%(name)s: %(total)s"), { name: ctx.seatName(seat), total: cardWord(last.totals[seat]) }, true)));
    const grid = el("div", "sk-grid");
    cards.forEach((card, cell) => {
      const node = el("div", "sk-cell");
      node.setAttribute("role", "img");
      if (card === null) {
        node.classList.add("sk-wiped");
        node.setAttribute("aria-label", interpolate(gettext("%(where)s: wiped out"), { where: where(cell) }, true));
      } else {
        cardFace(node, card);
        node.setAttribute("aria-label", interpolate(gettext("%(where)s: %(card)s"), { where: where(cell), card: cardWord(card) }, true));
      }
      grid.append(node);
    });
    figure.append(grid);
    wrap.append(figure);
  });
  box.append(wrap);
  return box;
}

export function render(board, snap, ctx) {
  const choice = JSON.stringify([ctx.legal, snap.view.discard[0], snap.view.drawn]);
  if (choice !== seenChoice) {
    // A new move (or an undo) changes what may be chosen: start the selection again. A pause or a
    // resume (opening the rules) changes nothing here, so it keeps the selection.
    seenChoice = choice;
    source = null;
    nudge = false;
  }
  if (!ctx.legal.length) source = null;

  const view = snap.view;
  if (!view.grids || view.grids.length < view.players) {
    // The moment before the first deal (a replay's first step): nothing on the table yet.
    const root = el("div", "sk-table");
    root.dataset.phase = view.phase;
    root.dataset.seq = snap.seq;
    root.append(el("p", "sk-prompt", gettext("The cards are about to be dealt.")));
    board.replaceChildren(root);
    shown = { seq: snap.seq, view };
    return;
  }
  arriving = !shown || shown.seq !== snap.seq;
  if (arriving) fresh = freshCells(shown && shown.view, view);
  const root = el("div", "sk-table");
  root.dataset.phase = view.phase;
  root.dataset.players = view.players;
  root.dataset.seq = snap.seq;
  const me = snap.seat === null || snap.seat === undefined ? null : snap.seat;
  const order = [...Array(view.players).keys()];
  const others = me === null ? order : order.slice(me + 1).concat(order.slice(0, me));
  const row = el("div", "sk-others" + (me === null ? " sk-spectating" : ""));
  others.forEach((seat) => row.append(seatPanel(snap, ctx, seat, false)));
  row.append(centre(snap, ctx));
  const result = results(snap, ctx);
  if (result) root.append(result);
  root.append(row, status(snap, ctx));
  if (me !== null) root.append(seatPanel(snap, ctx, me, true));
  root.append(history(view));
  board.replaceChildren(root);
  shown = { seq: snap.seq, view };
  // Focus comes back to the same card by its data-key (table.js).
}

// The replay's menu: a Skyjo deal played out is a round.
export const handWord = () => gettext("Round");
export const handName = (n) => interpolate(gettext("Round %(hand)s"), { hand: n }, true);

// A lesson's step marks what to tap (lesson.js): a card of the grid, or a pile (a discard first
// throws the drawn card on the discard pile, then turns the cell).
export function lessonKeys(action) {
  if (action.type === "draw") return ["pile:draw"];
  if (action.type === "take_discard") return ["pile:discard"];
  if (action.type === "discard") return ["pile:discard", `cell:${action.cell}`];
  return action.cell !== undefined ? [`cell:${action.cell}`] : [];
}
