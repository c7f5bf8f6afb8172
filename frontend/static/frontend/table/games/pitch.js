// Pitch (Auction Pitch / Setback) at the table: every seat with its bid, tricks won and score
// (partnerships as teams), the trump once set, the bidding so far or the trick on the table, the
// last hand's result, and the viewer's hand.
// Select, preview, then confirm: a tap on a bid button or a card only selects it; once the selection
// names exactly one legal action the page shows the sentence with Confirm / Cancel. During the
// bidding a tap on a card of the hand selects "bid 4 by pitching this card".
import { RED, SUIT_SIGN, cardFace, cardText, rankOf, suitOf } from "../cards.js";
import { button, el } from "../dom.js";
import { number } from "../numbers.js";
import { cardWords, named } from "../words.js";

const gettext = window.gettext || ((s) => s);
const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => o[k]));

document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("./pitch.css", import.meta.url) }));

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const GAME_POINTS = { 10: 10, A: 4, K: 3, Q: 2, J: 1 };

// The selection lives here until the player confirms or cancels.
let selected = null; // the hand card tapped
let pitching = false; // "bid 4" tapped: the next card tapped is pitched
let seen = null; // the last snapshot this module saw (to tell what a move did)
let lastTrick = null; // the last trick of the previous hand, when this page saw it played
const history = new Map(); // hand number -> that hand's score summary, for the score sheet
let historyGame = null;

export function reset() {
  selected = null;
  pitching = false;
}

// ---- Cards and words ------------------------------------------------------------------------

const rankIndex = (card) => RANKS.indexOf(rankOf(card));

export { cardText }; // the replay page writes a move's cards with it

function suitName(suit) {
  return { S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs") }[suit] || suit;
}


function gamePoints(cards) {
  return cards.reduce((sum, card) => sum + (GAME_POINTS[rankOf(card)] || 0), 0);
}

function seatOf(actor) {
  const n = Number(String(actor).split(":")[1]);
  return Number.isInteger(n) ? n : null;
}

function teamsOf(view) {
  return view && view.teams ? view.teams : null;
}

/** The side (a seat, or a team index with partnerships) a seat scores for. */
function sideOf(view, seat) {
  const teams = teamsOf(view);
  return teams ? teams.findIndex((t) => t.includes(seat)) : seat;
}

function sides(view) {
  const teams = teamsOf(view);
  return teams ? teams.map((_, i) => i) : [...Array(view.players).keys()];
}

function sideName(view, side, seatName) {
  const teams = teamsOf(view);
  if (side === null || side === undefined) return "—";
  if (!teams) return seatName(side);
  return interpolate(gettext("%(first)s & %(second)s"), { first: seatName(teams[side][0]), second: seatName(teams[side][1]) }, true);
}

function teamLabel(index) {
  return interpolate(gettext("Team %(n)s"), { n: index + 1 }, true);
}

function isStealBid(view, amount) {
  return view && view.high_bid > 0 && amount === view.high_bid;
}

// ---- The preview sentence -----------------------------------------------------------------

export function describe(action, snap) {
  const view = snap && snap.view ? snap.view : null;
  if (action.type === "pass") return gettext("Pass");
  if (action.type === "bid") {
    if (isStealBid(view, action.amount)) return interpolate(gettext("Bid %(n)s: steal the bid"), { n: action.amount }, true);
    return interpolate(gettext("Bid %(n)s"), { n: action.amount }, true);
  }
  if (action.type === "pitch") {
    return interpolate(gettext("Bid 4 by pitching %(card)s: %(suit)s will be trump"), { card: cardText(action.card), suit: suitName(suitOf(action.card)) }, true);
  }
  if (action.type === "play") {
    const trump = view && view.trump;
    if (trump && suitOf(action.card) === trump && view.trick.length && suitOf(view.trick[0].card) !== trump) {
      return interpolate(gettext("Play %(card)s (a trump)"), { card: cardText(action.card) }, true);
    }
    return interpolate(gettext("Play %(card)s"), { card: cardText(action.card) }, true);
  }
  return action.type;
}

// ---- The move log ---------------------------------------------------------------------------

function bidText(amount, steal) {
  if (amount === 0) return gettext("passed");
  if (amount === 4) return gettext("pitched (bid 4)");
  if (steal) return interpolate(gettext("bid %(n)s and stole the bid"), { n: amount }, true);
  return interpolate(gettext("bid %(n)s"), { n: amount }, true);
}

function awardsText(summary, view, seatName) {
  const names = { high: gettext("High"), low: gettext("Low"), jack: gettext("Jack"), game: gettext("Game") };
  return Object.keys(names)
    .map((key) => `${names[key]}: ${sideName(view, summary.awards[key], seatName)}`)
    .join(" · ");
}

function handResult(summary, view, seatName) {
  const who = seatName(summary.pitcher);
  const side = sideOf(view, summary.pitcher);
  if (summary.made) {
    return interpolate(gettext("%(name)s bid %(bid)s and made it (+%(points)s)"), { name: who, bid: summary.bid, points: summary.points[side] }, true);
  }
  return interpolate(gettext("%(name)s bid %(bid)s and was set back (−%(bid)s)"), { name: who, bid: summary.bid }, true);
}

/** The card a seat played, read from the picture after the move (or the one before it). */
function playedCard(seat, before, after) {
  if (after && before && after.hand === before.hand) {
    const onTable = after.trick.find((p) => p.seat === seat);
    if (onTable) return onTable.card;
    const last = after.tricks[after.tricks.length - 1];
    const inTrick = last && last.cards.find((p) => p.seat === seat);
    if (inTrick && after.tricks.length > before.tricks.length) return inTrick.card;
  }
  // The last card of a hand: only its owner knows it (their hand held one card).
  if (before && before.seat === seat && before.cards && before.cards.length === 1) return before.cards[0];
  return null;
}

function eventText(event, seat, before, after, seatName) {
  const sameHand = before && after && before.hand === after.hand;
  switch (event.type) {
    case "pass":
      return bidText(0);
    case "bid": {
      const amount = event.amount ?? (after.bids.filter((b) => b.seat === seat).pop() || {}).bid;
      if (amount === undefined) return gettext("bid");
      const steal = event.steal ?? (sameHand && before.high_bid === amount);
      return bidText(amount, steal);
    }
    case "pitch": {
      const card = event.card || (after.trick[0] || (after.tricks[0] && after.tricks[0].cards[0]) || {}).card;
      return card ? interpolate(gettext("pitched %(card)s (bid 4)"), { card: cardText(card) }, true) : bidText(4);
    }
    case "pitcher": {
      const who = event.seat ?? after.pitcher;
      const bid = event.bid ?? after.bid;
      return who === null || who === undefined ? "" : interpolate(gettext("%(name)s is the pitcher at %(bid)s"), { name: seatName(who), bid }, true);
    }
    case "trump": {
      const suit = event.suit || after.trump || (after.last_hand && after.last_hand.trump);
      return suit ? interpolate(gettext("%(suit)s are trump"), { suit: `${SUIT_SIGN[suit]} ${suitName(suit)}` }, true) : gettext("trump is set");
    }
    case "play": {
      const card = event.card || playedCard(seat, before, after);
      return card ? interpolate(gettext("played %(card)s"), { card: cardText(card) }, true) : gettext("played a card");
    }
    case "trick": {
      let winner = event.winner;
      if (winner === undefined && sameHand && after.tricks.length) winner = after.tricks[after.tricks.length - 1].winner;
      return winner === undefined ? gettext("the last trick is taken") : interpolate(gettext("the trick goes to %(name)s"), { name: seatName(winner) }, true);
    }
    case "score": {
      const summary = event.pitcher !== undefined ? event : after.last_hand;
      return summary ? handResult(summary, after, seatName) : gettext("the hand is scored");
    }
    case "deal": {
      const dealer = event.dealer ?? after.dealer;
      const hand = event.hand ?? after.hand;
      return interpolate(gettext("hand %(n)s, dealt by %(name)s"), { n: hand, name: seatName(dealer) }, true);
    }
    case "end":
      return winnersText(after, seatName, event.winners);
    case "setup":
      return ""; // the table being set: the deal in the same command says what happened (#33)
    default:
      return event.type.replaceAll("_", " ");
  }
}

/** The sixth trick of a hand that this move ended (the next deal clears it from the view). */
function closingTrick(events, seat, before, after) {
  if (!before || before.phase !== "play" || before.hand === after.hand || seat === null) return null;
  const play = events.find((e) => e.type === "play");
  const card = (play && play.card) || playedCard(seat, before, after);
  if (!card) return null;
  const cards = [...before.trick, { seat, card }];
  if (cards.length !== before.players) return null;
  const trick = events.find((e) => e.type === "trick");
  const winner = trick && trick.winner !== undefined ? trick.winner : winningPlay(cards, before.trump).seat;
  return { hand: before.hand, cards, winner, trump: before.trump };
}

export function describeMove(lastMove, snap, seatName) {
  const after = snap.view;
  const before = seen && seen.seq < snap.seq && seen.game_number === snap.game_number ? seen.view : null;
  remember(snap);
  const seat = seatOf(lastMove.actor);
  const closing = closingTrick(lastMove.events, seat, before, after);
  if (closing) lastTrick = { ...closing, game: snap.game_number };
  const parts = lastMove.events.map((event) => {
    if (event.type === "trick" && closing) return interpolate(gettext("the trick goes to %(name)s"), { name: seatName(closing.winner) }, true);
    return eventText(event, seat, before, after, seatName);
  });
  return parts.filter(Boolean).join(" · ");
}

function winnersText(view, seatName, given) {
  const winners = given || view.winners || [];
  if (!winners.length) return gettext("the game is over");
  const teams = teamsOf(view);
  if (teams) {
    const side = sideOf(view, winners[0]);
    if (winners.every((s) => sideOf(view, s) === side)) {
      return interpolate(gettext("%(team)s (%(names)s) win the game"), { team: teamLabel(side), names: sideName(view, side, seatName) }, true);
    }
  }
  if (winners.length === 1) return interpolate(gettext("%(name)s wins the game"), { name: seatName(winners[0]) }, true);
  return interpolate(gettext("%(names)s share the win"), { names: winners.map(seatName).join(", ") }, true);
}

// ---- The score sheet ------------------------------------------------------------------------

const signed = (n) => number(n); // a true minus sign, grouped per language

/** Keep every hand's result this page has seen (the view carries only the last one). */
function remember(snap) {
  if (!seen || seen.seq <= snap.seq) seen = snap;
  const view = snap.view;
  if (historyGame !== snap.game_number) {
    history.clear();
    historyGame = snap.game_number;
  }
  for (const hand of [...history.keys()]) if (hand >= view.hand && view.phase !== "over") history.delete(hand); // undone
  for (const past of view.past_hands || []) history.set(past.hand, past); // the whole game, from the view
  if (view.last_hand) history.set(view.last_hand.hand, view.last_hand);
}

export function scoreSheet(snap, seatName) {
  const view = snap.view;
  remember(snap);
  const all = sides(view);
  const head = [gettext("Hand"), gettext("Pitcher"), gettext("Bid"), gettext("Trump"), gettext("High"), gettext("Low"), gettext("Jack"), gettext("Game")];
  for (const side of all) head.push(sideName(view, side, seatName));
  const seatFor = (side) => (teamsOf(view) ? view.teams[side][0] : side);
  const rows = [...history.values()]
    .sort((a, b) => a.hand - b.hand)
    .map((h) => {
      const bid = h.made ? interpolate(gettext("%(n)s ✓"), { n: h.bid }, true) : interpolate(gettext("%(n)s ✗ set back"), { n: h.bid }, true);
      const row = [String(h.hand), seatName(h.pitcher), bid, SUIT_SIGN[h.trump]];
      for (const key of ["high", "low", "jack", "game"]) row.push(sideName(view, h.awards[key], seatName));
      for (const side of all) {
        const change = h.changes[seatFor(side)];
        const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
        row.push(interpolate(gettext("%(change)s → %(total)s"), { change: `${sign}${Math.abs(change)}`, total: signed(h.scores[seatFor(side)]) }, true));
      }
      return row;
    });
  const firstKnown = rows.length ? Number(rows[0][0]) : view.hand;
  if (firstKnown > 1) {
    rows.unshift([interpolate(gettext("Hands 1–%(n)s"), { n: firstKnown - 1 }, true), gettext("(played before this page was opened)"), "", "", "", "", "", "", ...all.map(() => "")]);
  }
  const now = view.phase === "over" ? gettext("Final") : interpolate(gettext("Now (hand %(n)s)"), { n: view.hand }, true);
  rows.push([now, "", "", "", "", "", "", "", ...all.map((side) => signed(view.scores[seatFor(side)]))]);
  return { head, rows };
}

// ---- Drawing ------------------------------------------------------------------------------

/** The face of a card: its one label is the corner ("10♥"); the big pip is drawn by the style sheet.
 * The name in words is given by the card's container (a button, or the words beside it). */
function face(card, extra = "") {
  return cardFace("pt", card, extra);
}

function backs(count, label) {
  const box = el("span", "pt-backs", { "aria-label": label, role: "img" });
  for (let i = 0; i < count; i++) box.append(el("span", "pt-back"));
  return box;
}

function clearPending(ctx) {
  // Forget the page's preview but keep this module's selection (the caller sets the next one).
  if (!ctx.pending) return;
  if (ctx.clear) {
    ctx.clear();
    return;
  }
  const keep = [selected, pitching];
  const cancel = document.getElementById("cancel"); // older pages: Cancel is the one way (it calls reset())
  if (cancel) cancel.click();
  [selected, pitching] = keep;
}

function bidOf(view, seat) {
  const entry = view.bids.find((b) => b.seat === seat);
  return entry ? entry.bid : null;
}

function bidChip(view, seat) {
  const bid = bidOf(view, seat);
  if (bid === null) return null;
  if (bid === 0) return el("span", "pt-chip pt-chip-pass", { text: gettext("Pass"), "data-bid-made": "0" });
  if (bid === 4) return el("span", "pt-chip pt-chip-bid", { text: gettext("Pitched: bid 4"), "data-bid-made": "4" });
  return el("span", "pt-chip pt-chip-bid", { text: interpolate(gettext("Bid %(n)s"), { n: bid }, true), "data-bid-made": bid });
}

function tricksWon(view, seat) {
  return view.tricks.filter((t) => t.winner === seat).length;
}

function seatPanel(view, seat, snap, ctx, me) {
  const acting = snap.to_act.includes(seat) && !snap.finished;
  const team = teamsOf(view) ? sideOf(view, seat) : null;
  const classes = ["pt-seat"];
  if (me) classes.push("pt-me");
  if (acting) classes.push("pt-acting");
  if (team !== null) classes.push(`pt-team-${team}`);
  // The seat to play says so in words too (not by its border alone) and is the current one.
  const panel = el("section", classes.join(" "), { "data-seat-panel": seat, "aria-label": ctx.seatName(seat), "aria-current": acting ? "true" : null });
  const top = el("div", "pt-seat-top");
  top.append(el("span", "pt-name", { text: ctx.seatName(seat) }));
  if (acting && view.phase !== "bidding") top.append(el("span", "pt-tag pt-to-play", { text: gettext("to play") }));
  if (team !== null) top.append(el("span", "pt-tag pt-team-tag", { text: teamLabel(team) }));
  if (view.dealer === seat) top.append(el("span", "pt-tag", { text: gettext("Dealer") }));
  if (view.pitcher === seat) top.append(el("span", "pt-tag pt-pitcher-tag", { text: gettext("Pitcher") }));
  const chip = bidChip(view, seat);
  if (chip) top.append(chip);
  else if (acting && view.phase === "bidding") top.append(el("span", "pt-chip pt-chip-thinking", { text: gettext("Bidding…") }));
  top.append(el("span", "pt-score", { "data-score": view.scores[seat], text: interpolate(ngettext("%(n)s point", "%(n)s points", Math.abs(view.scores[seat])), { n: signed(view.scores[seat]) }, true) }));
  panel.append(top);

  const bottom = el("div", "pt-seat-bottom");
  if (!me || view.cards === null) {
    const n = view.hand_counts[seat] || 0;
    bottom.append(backs(n, interpolate(ngettext("%(n)s card in hand", "%(n)s cards in hand", n), { n }, true)));
  }
  const won = tricksWon(view, seat);
  bottom.append(el("span", "pt-tricks", { "data-tricks": won, text: interpolate(ngettext("%(n)s trick", "%(n)s tricks", won), { n: won }, true) }));
  const captured = view.captured[seat] || [];
  if (captured.length) {
    const trumps = view.trump ? captured.filter((c) => suitOf(c) === view.trump).sort((a, b) => rankIndex(b) - rankIndex(a)) : [];
    const box = el("span", "pt-won", { "aria-label": interpolate(gettext("Won: %(cards)s"), { cards: captured.map(cardText).join(" ") }, true), title: captured.map(cardText).join(" ") });
    box.append(el("span", "", { text: interpolate(gettext("game points %(n)s"), { n: gamePoints(captured) }, true) }));
    for (const card of trumps) box.append(el("span", `pt-mini ${RED.has(suitOf(card)) ? "pt-red" : "pt-black"}`, { text: cardText(card), "data-won": card, role: "img", "aria-label": cardWords(card) }));
    bottom.append(box);
  }
  const voids = (view.voids && view.voids[seat]) || [];
  if (voids.length) {
    const signs = voids.map((suit) => SUIT_SIGN[suit]).join(" ");
    bottom.append(el("span", "pt-void", { "data-voids": voids.join(""), title: interpolate(gettext("Out of %(suits)s"), { suits: voids.map(suitName).join(", ") }, true), text: interpolate(gettext("out of %(suits)s"), { suits: signs }, true) }));
  }
  panel.append(bottom);
  return panel;
}

function infoBar(view, ctx) {
  const bar = el("div", "pt-info");
  bar.append(el("span", "pt-info-item", { text: interpolate(gettext("Hand %(n)s"), { n: Math.max(1, view.hand) }, true) }));
  bar.append(el("span", "pt-info-item", { text: interpolate(gettext("Play to %(n)s"), { n: view.config.target }, true) }));
  const trump = el("span", `pt-trump ${view.trump && RED.has(view.trump) ? "pt-red" : ""}`.trim(), { "data-trump": view.trump || "" });
  if (view.trump) {
    trump.append(el("span", "pt-trump-label", { text: gettext("Trump") }), el("span", "pt-trump-sign", { text: SUIT_SIGN[view.trump], "aria-hidden": "true" }), el("span", "pt-trump-name", { text: suitName(view.trump) }));
  } else {
    trump.append(el("span", "pt-trump-label", { text: gettext("Trump: set by the first card led") }));
  }
  bar.append(trump);
  if (view.pitcher !== null && view.pitcher !== undefined) {
    bar.append(el("span", "pt-info-item pt-contract", { "data-pitcher": view.pitcher, text: interpolate(gettext("%(name)s must take %(bid)s"), { name: ctx.seatName(view.pitcher), bid: view.bid }, true) }));
  } else if (view.high_bid > 0) {
    bar.append(el("span", "pt-info-item", { text: interpolate(gettext("High bid: %(n)s by %(name)s"), { n: view.high_bid, name: ctx.seatName(view.high_bidder) }, true) }));
  }
  return bar;
}

function teamsBar(view, ctx) {
  const teams = teamsOf(view);
  if (!teams) return null;
  const bar = el("div", "pt-teams");
  teams.forEach((team, i) => {
    bar.append(el("span", `pt-team pt-team-${i}`, { "data-team": i, text: interpolate(gettext("%(team)s: %(names)s — %(score)s"), { team: teamLabel(i), names: sideName(view, i, ctx.seatName), score: signed(view.scores[team[0]]) }, true) }));
  });
  return bar;
}

/** The card now winning a trick: the highest trump, else the highest card of the suit led. */
function winningPlay(trick, trump) {
  let best = null;
  for (const play of trick) {
    if (!best) best = play;
    else if (suitOf(play.card) === trump && suitOf(best.card) !== trump) best = play;
    else if (suitOf(play.card) === suitOf(best.card) && rankIndex(play.card) > rankIndex(best.card)) best = play;
  }
  return best;
}

/** A trick as a list: each card with who played it, in words for screen readers ("six of hearts,
 * played by Ana, winning the trick"), and the winning card marked in words as well as in gold. */
function trickNode(plays, view, ctx, { ghost = null, done = null, small = false } = {}) {
  const row = el("ul", `pt-trick${done ? " pt-done" : ""}${small ? " pt-small" : ""}`, { "data-trick": small ? "previous-hand" : done ? "last" : "current" });
  const trump = view.trump || (plays[0] ? suitOf(plays[0].card) : null);
  const best = plays.length > 1 ? winningPlay(plays, trump) : null;
  for (const play of plays) {
    const spot = el("li", "pt-spot", { "data-played-by": play.seat });
    const card = face(play.card, best === play ? "pt-winning" : "");
    card.setAttribute("aria-hidden", "true");
    let words = interpolate(gettext("%(card)s, played by %(name)s"), { card: cardWords(play.card), name: ctx.seatName(play.seat) }, true);
    if (best === play) words += `, ${done ? gettext("won the trick") : gettext("winning the trick")}`;
    spot.append(card, el("span", "pt-by", { text: ctx.seatName(play.seat), "aria-hidden": "true" }));
    if (best === play) spot.append(el("span", "pt-win-tag", { text: done ? gettext("won") : gettext("winning"), "aria-hidden": "true" }));
    spot.append(el("span", "sr-only", { text: words }));
    row.append(spot);
  }
  if (ghost) {
    const spot = el("li", "pt-spot pt-ghost-spot");
    const card = face(ghost.card, "pt-ghost");
    card.removeAttribute("data-card");
    card.setAttribute("aria-hidden", "true");
    spot.append(card, el("span", "pt-by", { text: ghost.label, "aria-hidden": "true" }), el("span", "sr-only", { text: `${ghost.label}: ${cardWords(ghost.card)}` }));
    row.append(spot);
  }
  return row;
}

function biddingNode(view, snap, ctx) {
  const box = el("div", "pt-bidding", { "aria-label": gettext("The bidding so far") });
  box.append(el("h3", "pt-felt-title", { text: gettext("Bidding") }));
  const list = el("ol", "pt-bid-list");
  for (const entry of view.bids) {
    const text = entry.bid === 0 ? gettext("Pass") : entry.bid === 4 ? gettext("Pitched: bid 4") : interpolate(gettext("Bid %(n)s"), { n: entry.bid }, true);
    list.append(el("li", entry.bid ? "pt-bid-line pt-bid-up" : "pt-bid-line", { "data-bid-seat": entry.seat, text: `${ctx.seatName(entry.seat)}: ${text}` }));
  }
  for (const seat of view.to_act || snap.to_act) {
    list.append(el("li", "pt-bid-line pt-bid-next", { text: interpolate(gettext("%(name)s to bid…"), { name: ctx.seatName(seat) }, true) }));
  }
  box.append(list);
  const first = (view.dealer + 1) % view.players;
  box.append(el("p", "pt-note", { text: interpolate(gettext("One bid each, from %(first)s round to the dealer, %(dealer)s."), { first: ctx.seatName(first), dealer: ctx.seatName(view.dealer) }, true) }));
  return box;
}

function lastHandNode(view, ctx) {
  const h = view.last_hand;
  const box = el("div", "pt-last-hand", { "data-last-hand": h.hand });
  box.append(el("h3", "pt-felt-title", { text: interpolate(gettext("Hand %(n)s result"), { n: h.hand }, true) }));
  box.append(el("p", h.made ? "pt-made" : "pt-set", { text: `${handResult(h, view, ctx.seatName)} · ${SUIT_SIGN[h.trump]} ${suitName(h.trump)}` }));
  box.append(el("p", "pt-awards", { text: awardsText(h, view, ctx.seatName) }));
  return box;
}

function feltNode(view, snap, ctx) {
  const felt = el("section", "pt-felt", { "aria-label": gettext("Table") });
  const main = el("div", "pt-felt-main");
  const pending = ctx.pending && (ctx.pending.type === "play" || ctx.pending.type === "pitch") ? ctx.pending : null;
  const ghost = pending ? { card: pending.card, label: ctx.pending.type === "pitch" ? gettext("Your pitch") : gettext("Your card") } : null;
  if (view.phase === "bidding") {
    main.append(biddingNode(view, snap, ctx));
    if (ghost) main.append(trickNode([], view, ctx, { ghost }));
  } else if (view.trick.length || ghost) {
    main.append(el("h3", "pt-felt-title", { text: interpolate(gettext("Trick %(n)s of 6"), { n: view.tricks.length + 1 }, true) }));
    main.append(trickNode(view.trick, view, ctx, { ghost }));
  } else if (view.tricks.length) {
    const last = view.tricks[view.tricks.length - 1];
    main.append(el("h3", "pt-felt-title", { text: interpolate(gettext("Trick %(n)s went to %(name)s"), { n: view.tricks.length, name: ctx.seatName(last.winner) }, true) }));
    main.append(trickNode(last.cards, view, ctx, { done: true }));
  } else if (view.phase === "play" && view.pitcher !== null) {
    main.append(el("p", "pt-note", { text: interpolate(gettext("%(name)s leads: the suit of that card becomes trump."), { name: ctx.seatName(view.pitcher) }, true) }));
  }
  felt.append(main);
  if (view.last_hand && (view.phase !== "play" || (!view.tricks.length && !view.trick.length))) {
    const side = lastHandNode(view, ctx);
    if (lastTrick && lastTrick.hand === view.last_hand.hand && lastTrick.game === snap.game_number) {
      side.append(el("p", "pt-note", { text: interpolate(gettext("The last trick of hand %(n)s went to %(name)s:"), { n: lastTrick.hand, name: ctx.seatName(lastTrick.winner) }, true) }));
      side.append(trickNode(lastTrick.cards, { ...view, trump: lastTrick.trump }, ctx, { done: true, small: true }));
    }
    felt.append(side);
  }
  return felt;
}

function bidControls(view, snap, ctx) {
  const box = el("div", "pt-bids", { role: "group", "aria-label": gettext("Your bid"), "data-options": "" });
  const isDealer = snap.seat === view.dealer;
  let prompt = gettext("Your bid: you have one chance.");
  if (isDealer && view.high_bid === 0) prompt = gettext("Everybody passed: as the dealer you must bid 2 or 3, or pitch a card.");
  else if (isDealer && view.high_bid > 0) prompt = interpolate(gettext("You are the dealer: you may steal the bid at %(n)s."), { n: view.high_bid }, true);
  box.append(el("p", "pt-prompt", { text: prompt }));
  const row = el("div", "pt-bid-row");
  const options = [
    { key: "0", action: ctx.legal.find((a) => a.type === "pass"), label: gettext("Pass") },
    ...[1, 2, 3].map((n) => ({
      key: String(n),
      action: ctx.legal.find((a) => a.type === "bid" && a.amount === n),
      label: isStealBid(view, n) ? interpolate(gettext("Steal at %(n)s"), { n }, true) : interpolate(gettext("Bid %(n)s"), { n }, true),
    })),
  ];
  for (const option of options) {
    const chosen = option.action && ctx.isPending(option.action);
    const b = button(`pt-bid${chosen ? " pt-chosen" : ""}`, option.label, () => tapBid(option.action, ctx), {
      "data-bid": option.key,
      "data-key": `bid:${option.key}`,
      "aria-pressed": chosen ? "true" : "false",
      disabled: !option.action,
      text: option.label,
    });
    row.append(b);
  }
  const canPitch = ctx.legal.some((a) => a.type === "pitch");
  const pitchChosen = ctx.pending && ctx.pending.type === "pitch";
  const pitchLabel = gettext("Bid 4 by pitching a card");
  const pitch = button(`pt-bid pt-bid-pitch${pitching || pitchChosen ? " pt-chosen" : ""}`, pitchLabel, () => tapPitch(ctx), {
    "data-bid": "4",
    "data-key": "bid:4",
    "aria-pressed": pitching || pitchChosen ? "true" : "false",
    disabled: !canPitch,
    text: pitchLabel,
  });
  row.append(pitch);
  box.append(row);
  return box;
}

export function render(board, snap, ctx) {
  const view = snap.view;
  remember(snap);
  const hand = view.cards || [];
  const mine = ctx.legal.length > 0;
  if (!mine || (selected && !hand.includes(selected))) reset();
  // Keep the selection in step with the page's preview (a hint, the arrow keys).
  if (ctx.pending) {
    selected = ctx.pending.card || null;
    pitching = ctx.pending.type === "pitch";
  }

  const root = el("div", "pt", {
    "data-seq": snap.seq,
    "data-phase": view.phase,
    "data-hand": view.hand,
    "data-seat": snap.seat === null ? "spectator" : snap.seat,
    "data-finished": snap.finished ? "1" : "0",
    "data-players": view.players,
  });
  root.append(infoBar(view, ctx));
  const teams = teamsBar(view, ctx);
  if (teams) root.append(teams);

  const me = snap.seat === null ? null : snap.seat;
  const start = me === null ? 0 : me + 1;
  const others = el("div", `pt-others pt-n${view.players - (me === null ? 0 : 1)}`);
  for (let i = 0; i < view.players; i++) {
    const seat = (start + i) % view.players;
    if (seat !== me) others.append(seatPanel(view, seat, snap, ctx, false));
  }
  root.append(others);
  root.append(feltNode(view, snap, ctx));
  if (me !== null) root.append(seatPanel(view, me, snap, ctx, true));

  if (mine && view.phase === "bidding") root.append(bidControls(view, snap, ctx));

  if (me !== null) {
    const bidding = view.phase === "bidding" && mine;
    if (bidding) {
      const text = pitching ? gettext("Tap the card to pitch: it is led at once and its suit becomes trump.") : gettext("Or tap a card to bid 4 by pitching it.");
      root.append(el("p", `pt-hand-prompt${pitching ? " pt-pitching" : ""}`, { text }));
    } else if (mine && view.phase === "play") {
      root.append(el("p", "pt-hand-prompt", { text: view.trick.length ? gettext("Your turn: tap a card to play it.") : gettext("Your lead: tap a card to play it.") }));
    }
    const handBox = el("div", `pt-hand${bidding && pitching ? " pt-pitching" : ""}`, { role: "group", "aria-label": gettext("Your cards"), "data-hand-area": "" });
    for (const card of hand) {
      const action = ctx.legal.find((a) => (a.type === "play" || a.type === "pitch") && a.card === card);
      const classes = ["pt-hand-card"];
      if (card === selected) classes.push("pt-selected");
      if (action && ctx.isPending(action)) classes.push("pt-playing");
      if (view.trump && suitOf(card) === view.trump) classes.push("pt-is-trump");
      const words = action && action.type === "pitch" ? interpolate(gettext("Bid 4 by pitching %(card)s"), { card: cardWords(card) }, true) : cardWords(card);
      // A card that cannot be played now keeps its place in the tab order (aria-disabled, not
      // disabled), so that focus stays on the hand while the others play.
      const b = button(classes.join(" "), named(cardText(card), words), () => { if (action) tapCard(card, ctx); }, {
        "data-card": card,
        "data-key": `card:${card}`,
        "data-action": action ? action.type : null,
        "aria-pressed": card === selected ? "true" : "false",
        "aria-disabled": action ? null : "true",
      });
      b.append(face(card));
      b.firstChild.removeAttribute("data-card");
      handBox.append(b);
    }
    if (!hand.length && !snap.finished) handBox.append(el("p", "pt-note", { text: gettext("No cards in hand.") }));
    root.append(handBox);
  }

  if (snap.finished) root.append(resultPanel(view, ctx));
  board.replaceChildren(root);
}

function resultPanel(view, ctx) {
  const box = el("section", "pt-result", { "aria-label": gettext("Result") });
  box.append(el("h2", "", { text: winnersText(view, ctx.seatName) }));
  const last = view.last_hand;
  const limit = view.config.max_hands;
  if (last && limit && view.hand >= limit && last.scores[last.pitcher] < view.config.target) {
    box.append(el("p", "pt-note", { text: interpolate(gettext("The hand limit (%(n)s hands) was reached: the highest score wins."), { n: limit }, true) }));
  } else if (last && typeof last.pitcher === "number" && last.scores[last.pitcher] >= view.config.target) {
    // Why the game ended and why a higher score may lose (#33): only the pitcher's own bid can reach
    // the target; another side passing it on someone else's bid plays on.
    box.append(el("p", "pt-note pt-why", { text: interpolate(gettext("Only a pitcher who reaches %(target)s on their own bid wins: %(name)s did, with %(points)s."), { target: view.config.target, name: sideName(view, teamsOf(view) ? sideOf(view, last.pitcher) : last.pitcher, ctx.seatName), points: last.scores[last.pitcher] }, true) }));
    const pitcherSide = teamsOf(view) ? sideOf(view, last.pitcher) : last.pitcher;
    const higher = sides(view).some((side) => side !== pitcherSide && view.scores[teamsOf(view) ? view.teams[side][0] : side] >= last.scores[last.pitcher]);
    if (higher) box.append(el("p", "pt-note", { text: gettext("A score as high or higher, reached without the bid, does not win.") }));
  }
  const list = el("ul");
  for (const side of sides(view)) {
    const seat = teamsOf(view) ? view.teams[side][0] : side;
    list.append(el("li", "", { text: interpolate(gettext("%(name)s: %(points)s"), { name: sideName(view, side, ctx.seatName), points: signed(view.scores[seat]) }, true) }));
  }
  box.append(list);
  return box;
}

function tapBid(action, ctx) {
  if (!action) return;
  pitching = false;
  selected = null;
  if (ctx.isPending(action)) {
    clearPending(ctx);
    reset();
    ctx.rerender();
    return;
  }
  ctx.choose(action);
}

function tapPitch(ctx) {
  clearPending(ctx);
  selected = null;
  pitching = !pitching;
  ctx.rerender();
}

function tapCard(card, ctx) {
  if (selected === card) {
    clearPending(ctx);
    reset();
    ctx.rerender();
    return;
  }
  const action = ctx.legal.find((a) => (a.type === "play" || a.type === "pitch") && a.card === card);
  if (!action) return;
  selected = card;
  pitching = action.type === "pitch";
  ctx.choose(action);
}

// The replay's menu: a Pitch deal played out is a hand.
export const handWord = () => gettext("Hand");
export const handName = (n) => interpolate(gettext("Hand %(n)s"), { n }, true);

// A lesson's step marks what to tap (lesson.js): a bid, or the card to play or pitch.
export function lessonKeys(action) {
  if (action.type === "pass") return ["bid:0"];
  if (action.type === "bid") return [`bid:${action.amount}`];
  if (action.type === "pitch") return ["bid:4", `card:${action.card}`];
  return action.card ? [`card:${action.card}`] : [];
}
