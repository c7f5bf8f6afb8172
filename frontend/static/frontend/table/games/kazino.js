// Kazino (Casino): the table with its piles (loose cards, builds, tripes and their owners), both
// players' captured counts, the deck, and the viewer's hand. Select, preview, then confirm: a tap on
// a hand card only selects it; when the card allows several moves the player narrows them by tapping
// a table pile or picks one in a short list; the page shows the sentence with Confirm / Cancel.
import { RED, cardFace, cardText, rankOf, suitOf } from "../cards.js";
import { button, el } from "../dom.js";
import { number } from "../numbers.js";
import { cardWords, named } from "../words.js";

const gettext = window.gettext || ((s) => s);
const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
const pgettext = window.pgettext || ((context, s) => s);
const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => o[k]));

document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("./kazino.css", import.meta.url) }));

const MOVES = new Set(["capture", "build", "tripe", "trail"]);
const DEALS = 6;

// The selection lives here until the player confirms or cancels.
let selected = null; // the hand card tapped
let target = null; // the first card of the table pile tapped to narrow the choice
let seen = null; // the last picture of the table this module saw (to tell what a move did)
let current = null; // the view drawn last
const openCaptured = new Set(); // seats whose captured cards are unfolded

export function reset() {
  selected = null;
  target = null;
}

// ---- Cards and words ------------------------------------------------------------------------

export { cardText }; // the replay page writes a move's cards with it

function rankPlural(rank) {
  const names = { A: gettext("Aces"), J: gettext("Jacks"), Q: gettext("Queens"), K: gettext("Kings") };
  return names[rank] || interpolate(gettext("%(rank)ss"), { rank }, true);
}

/** Cards in words, for names: "four of clubs and five of hearts". */
function cardsWords(cards) {
  return listText(cards.map(cardWords));
}

function listText(parts) {
  if (parts.length < 2) return parts.join("");
  return interpolate(gettext("%(list)s and %(last)s"), { list: parts.slice(0, -1).join(", "), last: parts[parts.length - 1] }, true);
}

function plus(cards) {
  return cards.map(cardText).join(" + ");
}

function pileByFirst(table, first) {
  return (table || []).find((p) => p.cards[0] === first) || null;
}

function pileHolding(table, cards) {
  return (table || []).find((p) => p.kind !== "card" && p.cards.length === cards.length && cards.every((c) => p.cards.includes(c))) || null;
}

/** A captured group in words: a build or tripe by its name, loose cards as a sum. */
function groupText(group, table) {
  const pile = pileHolding(table, group);
  if (pile && pile.kind === "build") return interpolate(gettext("the build of %(value)s (%(cards)s)"), { value: pile.value, cards: plus(pile.cards) }, true);
  if (pile && pile.kind === "tripe") return interpolate(gettext("the tripe of %(rank)s (%(cards)s)"), { rank: rankPlural(rankOf(pile.cards[0])), cards: plus(pile.cards) }, true);
  return plus(group);
}

const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUIT_ORDER = ["S", "H", "D", "C"];

function sortedHand(cards) {
  const key = (c) => RANK_ORDER.indexOf(rankOf(c)) * 4 + SUIT_ORDER.indexOf(suitOf(c));
  return [...cards].sort((a, b) => key(a) - key(b));
}

function isAce(card) {
  return rankOf(card) === "A";
}

// ---- The preview sentence -----------------------------------------------------------------

export function describe(action, snap) {
  const table = snap && snap.view ? snap.view.table : [];
  const card = cardText(action.card);
  if (action.type === "trail") return interpolate(gettext("Trail your %(card)s."), { card }, true);
  if (action.type === "build") {
    const pile = pileByFirst(table, action.on);
    if (pile && pile.kind === "build") {
      return interpolate(gettext("Raise the build of %(old)s to %(value)s with your %(card)s."), { old: pile.value, value: action.value, card }, true);
    }
    return interpolate(gettext("Build %(value)s: your %(card)s on %(on)s."), { value: action.value, card, on: cardText(action.on) }, true);
  }
  if (action.type === "tripe") {
    const pile = pileByFirst(table, action.on);
    if (pile && pile.kind === "tripe") return interpolate(gettext("Add your %(card)s to the tripe of %(rank)s."), { card, rank: rankPlural(rankOf(action.on)) }, true);
    return interpolate(gettext("Make a tripe: your %(card)s on %(on)s."), { card, on: cardText(action.on) }, true);
  }
  if (action.type === "capture") {
    const cards = listText(action.groups.map((g) => groupText(g, table)));
    const count = action.groups.flat().length + 1;
    if (isAce(action.card)) {
      return interpolate(gettext("Capture %(cards)s with your %(card)s played as %(value)s (%(count)s cards)."), { cards, card, value: action.value, count }, true);
    }
    return interpolate(gettext("Capture %(cards)s with your %(card)s (%(count)s cards)."), { cards, card, count }, true);
  }
  return action.type;
}

// ---- The move log -----------------------------------------------------------------------------

function moveText(move, table) {
  const card = cardText(move.card);
  if (move.type === "trail") return interpolate(gettext("trailed %(card)s"), { card }, true);
  if (move.type === "build") {
    if (move.raised) return interpolate(gettext("raised the build of %(old)s to %(value)s with %(card)s"), { old: move.raised, value: move.value, card }, true);
    return interpolate(gettext("built %(value)s: %(card)s on %(on)s"), { value: move.value, card, on: cardText(move.on) }, true);
  }
  if (move.type === "tripe") return interpolate(gettext("made a tripe of %(rank)s: %(card)s on %(on)s"), { rank: rankPlural(rankOf(move.card)), card, on: cardText(move.on) }, true);
  if (move.type === "capture" && move.swept) return interpolate(gettext("captured with %(card)s"), { card }, true);
  if (move.type === "capture") {
    const cards = listText(move.groups ? move.groups.map((g) => groupText(g, table)) : takenParts(move.taken, table, move.card, move.value));
    if (move.value && isAce(move.card)) return interpolate(gettext("took %(cards)s with %(card)s as %(value)s"), { cards, card, value: move.value }, true);
    return interpolate(gettext("took %(cards)s with %(card)s"), { cards, card }, true);
  }
  return "";
}

/** Cards taken, when the groups are not known: builds and tripes by name, then the loose cards in
 * the groups they must have formed (same rank alone, the others in sums of the card's value). */
function takenParts(taken, table, card, value) {
  const piles = (table || []).filter((p) => p.kind !== "card" && p.cards.every((c) => taken.includes(c)));
  const inPiles = new Set(piles.flatMap((p) => p.cards));
  const loose = taken.filter((c) => !inPiles.has(c));
  const alike = loose.filter((c) => rankOf(c) === rankOf(card));
  const rest = loose.filter((c) => rankOf(c) !== rankOf(card));
  const sums = rest.length ? sumGroups(rest, value || sumValue(card)) || [rest] : [];
  return [...piles.map((p) => groupText(p.cards, table)), ...alike.map(cardText), ...sums.map(plus)];
}

function sumValue(card) {
  const rank = rankOf(card);
  return { A: 1, J: 11, Q: 12, K: 13 }[rank] || Number(rank);
}

/** Split ``cards`` into groups that each add up to ``value`` (null when they cannot). */
function sumGroups(cards, value) {
  if (!cards.length) return [];
  const [first, ...others] = cards;
  const pick = (from, need, chosen) => {
    if (need === 0) {
      const tail = sumGroups(others.filter((c) => !chosen.includes(c)), value);
      return tail ? [[first, ...chosen], ...tail] : null;
    }
    for (let i = from; i < others.length; i++) {
      const v = sumValue(others[i]);
      if (v > need) continue;
      const found = pick(i + 1, need - v, [...chosen, others[i]]);
      if (found) return found;
    }
    return null;
  };
  return pick(0, value - sumValue(first), []);
}

function typeText(type) {
  const words = {
    capture: gettext("captured"),
    build: gettext("built"),
    tripe: gettext("made a tripe"),
    trail: gettext("trailed"),
    deal: gettext("new deal"),
    game_start: gettext("new game"),
    game_end: gettext("end of the game"),
    match_end: gettext("end of the match"),
  };
  if (type === "setup") return ""; // the table being set: the deal in the same command says what happened (#33)
  return words[type] || type.replaceAll("_", " ");
}

/** What a move did, read from two pictures of the table (when the server sends event types only). */
function inferMove(type, seat, before, after) {
  if (!before || !after || before.hand !== after.hand) return null;
  const was = new Set(before.table.flatMap((p) => p.cards));
  const wasCaptured = new Set(before.captured.flat());
  if (type === "capture") {
    const gained = after.captured[seat].filter((c) => !wasCaptured.has(c));
    const card = gained.find((c) => !was.has(c));
    if (!card) return null;
    // At the end of a game the cards left on the table are swept in too: they cannot be told apart.
    const lastCard = before.deck_count === 0 && before.hand_counts[0] + before.hand_counts[1] === 1;
    if (lastCard) return { type, card, swept: true };
    const taken = gained.filter((c) => c !== card);
    // An Ace that took anything but Aces was played as 14.
    return { type, card, taken, value: isAce(card) && taken.some((c) => !isAce(c)) ? 14 : null };
  }
  const now = after.table.flatMap((p) => p.cards);
  const card = now.find((c) => !was.has(c));
  if (!card) {
    // The last card of a game: it was swept off the table with the rest.
    const swept = after.captured.flat().find((c) => !was.has(c) && !wasCaptured.has(c));
    return swept && type === "trail" ? { type, card: swept } : null;
  }
  const pile = after.table.find((p) => p.cards.includes(card));
  const start = pile.cards[0] === card ? null : pile.cards[0];
  const old = start ? pileByFirst(before.table, start) : null;
  return { type, card, on: start, value: pile.value, raised: old && old.kind === "build" ? old.value : null };
}

function withRaise(event, table) {
  const pile = event.type === "build" ? pileByFirst(table, event.on) : null;
  return pile && pile.kind === "build" ? { ...event, raised: pile.value } : event;
}

export function describeMove(lastMove, snap, seatName) {
  const before = seen && seen.seq < snap.seq ? seen.view : null;
  seen = snap;
  const seat = Number(String(lastMove.actor).split(":")[1]);
  const parts = [];
  for (const event of lastMove.events) {
    if (MOVES.has(event.type)) {
      const table = before ? before.table : snap.view.table;
      const move = event.card ? withRaise(event, table) : inferMove(event.type, seat, before, snap.view);
      parts.push(move ? moveText(move, table) : typeText(event.type));
    } else if (event.type === "game_end") {
      const last = (snap.view.games || [])[(snap.view.games || []).length - 1];
      const to = event.to !== undefined ? event.to : last ? last.sweep_to : null;
      parts.push(to === null || to === undefined ? typeText("game_end") : interpolate(gettext("the last cards go to %(name)s"), { name: seatName(to) }, true));
      // What the game's cards were worth, before the next game is dealt at once (#33).
      if (last) {
        parts.push(last.captured.map((cards, s) => interpolate(gettext("%(name)s: %(cards)s cards → %(points)s points"), { name: seatName(s), cards, points: pointsText(last.points[s], cards) }, true)).join(", "));
      }
    } else if (event.type === "match_end") {
      parts.push(resultText(snap.view, seatName));
    } else if (event.type === "deal") {
      parts.push(interpolate(gettext("deal %(n)s of %(total)s"), { n: snap.view.deal, total: DEALS }, true));
    } else {
      parts.push(typeText(event.type));
    }
  }
  return parts.filter(Boolean).join(" · ");
}

function resultText(view, seatName) {
  const winners = view.winners || [];
  if (winners.length > 1) return gettext("a draw");
  if (winners.length === 1) return interpolate(gettext("%(name)s wins the match"), { name: seatName(winners[0]) }, true);
  return typeText("match_end");
}

// ---- The score sheet --------------------------------------------------------------------------

function band(count) {
  if (count >= 48) return 30;
  if (count >= 40) return 25;
  if (count >= 36) return 20;
  if (count >= 33) return 15;
  if (count >= 27) return 10;
  return 0;
}

function pointsText(points, captured) {
  const bonus = points - band(captured);
  return bonus > 0 ? interpolate(gettext("%(points)s (bonus %(bonus)s)"), { points, bonus }, true) : String(points);
}

export function scoreSheet(snap, seatName) {
  const view = snap.view;
  const seats = [0, 1];
  const head = [pgettext("the number of a game in the match", "Game")];
  for (const s of seats) {
    head.push(interpolate(gettext("%(name)s: cards"), { name: seatName(s) }, true));
    head.push(interpolate(gettext("%(name)s: points"), { name: seatName(s) }, true));
  }
  const rows = (view.games || []).map((g) => [String(g.game), ...seats.flatMap((s) => [String(g.captured[s]), pointsText(g.points[s], g.captured[s])])]);
  const done = (view.games || []).some((g) => g.game === view.hand);
  if (!done && view.hand) {
    rows.push([interpolate(gettext("%(n)s (playing)"), { n: view.hand }, true), ...seats.flatMap((s) => [String(view.captured_counts[s]), "–"])]);
  }
  rows.push([gettext("Total"), ...seats.flatMap((s) => ["", number(view.scores[s])])]);
  return { head, rows };
}

// ---- Drawing ------------------------------------------------------------------------------------

/** The face of a card (a span; the hand wraps it in a button). Its one label is the corner ("10♥");
 * the big pip and the upside-down rank are drawn by the style sheet, so that what the eye reads is
 * what the accessible name starts with (WCAG 2.5.3). The name in words is on the card's container. */
function face(card, extra = "") {
  return cardFace("kz", card, extra, true);
}

function backs(count, label) {
  const box = el("span", "kz-backs", { "aria-label": label, role: "img" });
  for (let i = 0; i < count; i++) box.append(el("span", "kz-back"));
  return box;
}

function pilesOf(action, table) {
  if (!action) return [];
  if (action.type === "build" || action.type === "tripe") return [action.on];
  if (action.type === "capture") {
    const cards = new Set(action.groups.flat());
    return table.filter((p) => p.cards.some((c) => cards.has(c))).map((p) => p.cards[0]);
  }
  return [];
}

function clearPending(ctx) {
  // The page has no "forget the preview" hook: its Cancel button is the one way (it calls reset()).
  if (!ctx.pending) return;
  const keep = [selected, target];
  const cancel = document.getElementById("cancel");
  if (cancel) cancel.click();
  [selected, target] = keep;
}

function seatPanel(view, seat, snap, ctx, me) {
  // The seat to play says so in words too (not by its border alone) and is the current one.
  const acting = snap.to_act.includes(seat) && !snap.finished;
  const panel = el("section", `kz-seat${me ? " kz-me" : ""}${acting ? " kz-acting" : ""}`, { "data-seat-panel": seat, "aria-current": acting ? "true" : null });
  const name = el("span", "kz-name", { text: ctx.seatName(seat) });
  panel.append(name);
  if (acting) panel.append(el("span", "kz-tag kz-to-play", { text: gettext("to play") }));
  if (view.dealer === seat) panel.append(el("span", "kz-tag", { text: gettext("Dealer") }));
  if (view.last_capturer === seat) panel.append(el("span", "kz-tag kz-last", { text: gettext("Last capture"), "data-last-capturer": seat }));
  if (!me || view.my_cards === null) {
    const n = view.hand_counts[seat];
    panel.append(backs(n, interpolate(ngettext("%(n)s card in hand", "%(n)s cards in hand", n), { n }, true)));
  }
  // The count always shows; the cards themselves (public: every capture happened face up) on request.
  const count = view.captured_counts[seat];
  const details = el("details", "kz-captured-box");
  details.open = openCaptured.has(seat);
  details.addEventListener("toggle", () => (details.open ? openCaptured.add(seat) : openCaptured.delete(seat)));
  // Named by what it shows ("Captured: 3"); a summary says itself whether it is open.
  const summary = el("summary", "kz-captured", { "data-captured": count });
  summary.append(el("span", "kz-stack", { "aria-hidden": "true" }), el("span", "", { text: interpolate(gettext("Captured: %(n)s"), { n: count }, true) }));
  const list = el("span", "kz-captured-cards");
  for (const card of view.captured[seat] || []) list.append(el("span", `kz-mini ${RED.has(suitOf(card)) ? "kz-red" : "kz-black"}`, { text: cardText(card), role: "img", "aria-label": cardWords(card) }));
  if (!count) list.append(el("span", "kz-none", { text: gettext("No cards yet.") }));
  details.append(summary, list);
  panel.append(details);
  return panel;
}

function pileLabel(pile, ctx) {
  if (pile.kind === "build") return interpolate(gettext("Build %(value)s"), { value: pile.value }, true);
  if (pile.kind === "tripe") return interpolate(gettext("Tripe of %(rank)s"), { rank: rankPlural(rankOf(pile.cards[0])) }, true);
  return "";
}

/** A pile in words: "six of hearts"; "Build 9, Ana: four of clubs and five of hearts"; and what the
 * previewed move does with it. */
function pileWords(pile, state, ctx) {
  const label = pileLabel(pile, ctx);
  let words = label ? `${label}, ${ctx.seatName(pile.owner)}: ${cardsWords(pile.cards)}` : cardsWords(pile.cards);
  if (state.taken) words += ` (${gettext("taken by this move")})`;
  if (state.ghost) words += ` (${interpolate(gettext("your %(card)s goes here"), { card: cardWords(state.ghost) }, true)})`;
  return words;
}

function pileNode(pile, state, ctx, onTap) {
  const first = pile.cards[0];
  const classes = ["kz-pile", `kz-k-${pile.kind}`];
  if (state.taken) classes.push("kz-taken");
  if (state.onto) classes.push("kz-onto");
  if (state.candidate) classes.push("kz-candidate");
  if (state.target) classes.push("kz-target");
  const label = pileLabel(pile, ctx);
  const words = pileWords(pile, state, ctx);
  const attrs = { "data-pile": first, "data-kind": pile.kind, "data-value": pile.value, "data-owner": pile.owner === null ? null : pile.owner };
  // A pile one may tap is a button around its cards (named by their corners, then in words); one
  // that only shows is an image with its name in words.
  const node = el("div", classes.join(" "), state.candidate ? attrs : { ...attrs, role: "img", "aria-label": words });
  const fan = el("span", "kz-fan");
  const shown = [];
  pile.cards.forEach((card, i) => {
    const c = face(card);
    c.style.setProperty("--i", i);
    if (i) fan.append(" ");
    fan.append(c);
    shown.push(cardText(card));
  });
  if (state.ghost) {
    const c = face(state.ghost, "kz-ghost");
    c.style.setProperty("--i", pile.cards.length);
    c.removeAttribute("data-card");
    fan.append(" ", c);
    shown.push(cardText(state.ghost));
  }
  if (state.candidate) {
    const hit = button("kz-pile-hit", named(shown.join(" "), words), onTap, { "data-key": `pile:${first}`, "aria-pressed": state.target ? "true" : "false" });
    hit.append(fan);
    node.append(hit);
    // The whole pile (its badge too) answers a tap, as before; the button is what the keyboard uses.
    node.addEventListener("click", (event) => { if (!hit.contains(event.target)) onTap(); });
  } else {
    node.append(fan);
  }
  if (label) {
    const badge = el("span", "kz-badge");
    badge.append(el("strong", "", { text: label }), el("span", "kz-owner", { text: ctx.seatName(pile.owner) }));
    node.append(badge);
  }
  if (state.taken) node.append(el("span", "kz-mark", { text: "✓", "aria-hidden": "true" }));
  if (state.onto) node.append(el("span", "kz-mark kz-arrow", { text: state.onto, "aria-hidden": "true" }));
  return node;
}

function optionLabel(action, snap) {
  return describe(action, snap).replace(/\.$/, "");
}

export function render(board, snap, ctx) {
  const view = snap.view;
  const hand = view.my_cards || [];
  const mine = ctx.legal.length > 0;
  if (!mine || (selected && !hand.includes(selected))) reset();
  if (ctx.pending && ctx.pending.card !== selected) {
    selected = ctx.pending.card;
    target = null;
  }
  if (!seen || seen.seq <= snap.seq) seen = snap;
  current = view;

  const choices = selected ? ctx.legal.filter((a) => a.card === selected) : [];
  const shown = target ? choices.filter((a) => pilesOf(a, view.table).includes(target)) : choices;
  const candidates = new Set(choices.flatMap((a) => pilesOf(a, view.table)));
  const taken = ctx.pending && ctx.pending.type === "capture" ? new Set(pilesOf(ctx.pending, view.table)) : new Set();
  const onto = ctx.pending && (ctx.pending.type === "build" || ctx.pending.type === "tripe") ? ctx.pending.on : null;

  const root = el("div", "kz", { "data-seq": snap.seq, "data-seat": snap.seat === null ? "spectator" : snap.seat, "data-finished": snap.finished ? "1" : "0" });
  const bottom = snap.seat === null ? 0 : snap.seat;
  const top = 1 - bottom;

  root.append(seatPanel(view, top, snap, ctx, false));

  // The felt: every pile, then the deck and the deal.
  const felt = el("section", "kz-felt", { "aria-label": gettext("Table") });
  const piles = el("div", "kz-piles");
  for (const pile of view.table) {
    const first = pile.cards[0];
    const state = {
      taken: taken.has(first),
      onto: onto === first ? `→ ${ctx.pending.type === "build" ? ctx.pending.value : `${rankOf(ctx.pending.card)}×${pile.cards.length + 1}`}` : null,
      ghost: onto === first ? ctx.pending.card : null,
      candidate: mine && candidates.has(first),
      target: target === first,
    };
    piles.append(pileNode(pile, state, ctx, () => tapPile(first, ctx)));
  }
  if (ctx.pending && ctx.pending.type === "trail") {
    // The card about to be trailed (the preview's sentence says it in words).
    const ghost = el("div", "kz-pile kz-k-card kz-trailing", { "aria-hidden": "true" });
    const fan = el("span", "kz-fan");
    const c = face(ctx.pending.card, "kz-ghost");
    c.removeAttribute("data-card");
    fan.append(c);
    ghost.append(fan);
    piles.append(ghost);
  }
  if (!piles.children.length) piles.append(el("p", "kz-empty", { text: gettext("The table is empty.") }));
  felt.append(piles);
  const info = el("div", "kz-info");
  info.append(
    el("span", "kz-deck", { "data-deck": view.deck_count, text: interpolate(gettext("Deck: %(n)s"), { n: view.deck_count }, true) }),
    el("span", "", { text: interpolate(gettext("Deal %(n)s of %(total)s"), { n: view.deal || 1, total: DEALS }, true) }),
  );
  if (view.config && view.config.match === "target") {
    info.append(el("span", "", { text: interpolate(gettext("Game %(n)s · first to %(target)s"), { n: Math.max(1, view.hand), target: view.config.target }, true) }));
  }
  if (view.config && view.config.kings_aces_bonus) info.append(el("span", "", { text: gettext("Bonus for all four Kings and all four Aces") }));
  const last = view.last_capturer;
  info.append(el("span", "", { text: last === null || last === undefined ? gettext("No capture yet") : interpolate(gettext("Last capture: %(name)s"), { name: ctx.seatName(last) }, true) }));
  felt.append(info);
  root.append(felt);

  root.append(seatPanel(view, bottom, snap, ctx, snap.seat !== null));

  if (snap.seat !== null) {
    const handBox = el("div", "kz-hand", { role: "group", "aria-label": gettext("Your cards"), "data-hand-area": "" });
    for (const card of sortedHand(hand)) {
      const count = ctx.legal.filter((a) => a.card === card).length;
      const classes = ["kz-hand-card"];
      if (card === selected) classes.push("kz-selected");
      if (ctx.pending && ctx.pending.card === card) classes.push("kz-playing");
      // A card that cannot be played now keeps its place in the tab order (aria-disabled, not
      // disabled), so that focus stays on the hand while the others play.
      const b = button(classes.join(" "), named(cardText(card), cardWords(card)), () => { if (mine && count) tapCard(card, ctx); }, {
        "data-card": card,
        "data-key": `card:${card}`,
        "aria-pressed": card === selected ? "true" : "false",
        "aria-disabled": !mine || !count ? "true" : null,
      });
      b.append(face(card));
      b.firstChild.removeAttribute("data-card");
      handBox.append(b);
    }
    if (!hand.length && !snap.finished) handBox.append(el("p", "kz-empty", { text: gettext("No cards in hand.") }));
    root.append(handBox);
  }

  if (selected && choices.length > 1) {
    const box = el("div", "kz-options", { role: "group", "aria-label": gettext("What your card does"), "data-options": "" });
    box.append(el("p", "kz-prompt", { text: interpolate(gettext("Choose what your %(card)s does, or tap a highlighted table card."), { card: cardText(selected) }, true) }));
    const list = el("div", "kz-option-list");
    shown.forEach((action) => {
      const index = choices.indexOf(action);
      const label = optionLabel(action, snap);
      const b = button(`kz-option kz-opt-${action.type}${ctx.isPending(action) ? " kz-chosen" : ""}`, label, () => ctx.choose(action), {
        "data-option": index,
        "data-key": `option:${index}`,
        "data-kind": action.type,
        "aria-pressed": ctx.isPending(action) ? "true" : "false",
      });
      b.textContent = label;
      list.append(b);
    });
    box.append(list);
    if (target) box.append(button("kz-option kz-show-all", gettext("Show every move of this card"), () => { clearPending(ctx); target = null; ctx.rerender(); }, { "data-option": "all", "data-key": "option:all", text: gettext("Show every move of this card") }));
    root.append(box);
  }

  if (snap.finished) root.append(resultPanel(view, ctx));
  board.replaceChildren(root);
}

function resultPanel(view, ctx) {
  const box = el("section", "kz-result", { "aria-label": gettext("Result") });
  box.append(el("h2", "", { text: resultText(view, ctx.seatName) }));
  const last = (view.games || [])[(view.games || []).length - 1];
  const list = el("ul");
  for (const seat of [0, 1]) {
    const cards = last ? last.captured[seat] : view.captured_counts[seat];
    const cardCount = interpolate(ngettext("%(n)s card", "%(n)s cards", cards), { n: cards }, true);
    const pointCount = interpolate(ngettext("%(n)s point", "%(n)s points", Math.abs(view.scores[seat])), { n: number(view.scores[seat]) }, true);
    list.append(el("li", "", { text: interpolate(gettext("%(name)s: %(cards)s, %(points)s"), { name: ctx.seatName(seat), cards: cardCount, points: pointCount }, true) }));
  }
  box.append(list);
  return box;
}

function tapCard(card, ctx) {
  if (selected === card) {
    clearPending(ctx);
    reset();
    ctx.rerender();
    return;
  }
  clearPending(ctx);
  selected = card;
  target = null;
  const choices = ctx.legal.filter((a) => a.card === card);
  if (choices.length === 1) ctx.choose(choices[0]);
  else ctx.rerender();
}

function tapPile(first, ctx) {
  if (!selected) return;
  target = target === first ? null : first;
  const view = current || { table: [] };
  const choices = ctx.legal.filter((a) => a.card === selected && (!target || pilesOf(a, view.table).includes(target)));
  if (target && choices.length === 1) {
    ctx.choose(choices[0]);
    return;
  }
  clearPending(ctx);
  ctx.rerender();
}

// The replay's menu: a Kazino match is played in games of six deals; the replay steps game by game.
export const handWord = () => pgettext("Kazino", "Game");
export const handName = (n) => interpolate(pgettext("Kazino", "Game %(n)s"), { n }, true);

// A lesson's step marks what to tap (lesson.js): the card from the hand.
export function lessonKeys(action) {
  return action.card ? [`card:${action.card}`] : [];
}
