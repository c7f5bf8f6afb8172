// Dominoes at the table (Block, Draw, All Fives): the layout drawn in SVG — every tile with its
// orientation (doubles crosswise), the spinner and its branches, each open end with the number it
// shows and, in All Fives, what it counts — the hands, and the select → preview → confirm flow.
//
// A tap on a tile only selects it; a tap on an end (or on the tile again, when it fits one end
// only) previews the move through ctx.choose; nothing is played until the page's Confirm.
// Scores are kept in half-points (score_scale 2): "7½", grouped per language (numbers.js).
import { points } from "../numbers.js";
import { named, tileWords } from "../words.js";

const gettext = window.gettext || ((s) => s);
const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
const pgettext = window.pgettext || ((context, s) => s);
const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => o[k]));
const fmt = (text, values) => interpolate(text, values, true);

if (!document.querySelector("link[data-dominoes-css]")) {
  const link = Object.assign(document.createElement("link"), {
    rel: "stylesheet",
    href: new URL("./dominoes.css", import.meta.url),
  });
  link.dataset.dominoesCss = "";
  document.head.append(link);
}

// ------------------------------------------------------------------ selection state

let selected = null; // the tile picked in the hand, waiting for an end
let seen = { seq: null, seat: undefined };
let lastCtx = null;
let lastBound = null;

export function reset() {
  selected = null;
}

let resizeTimer = null;
window.addEventListener("resize", () => {
  // A rotation re-flows the layout; the selection and the preview are kept.
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    const board = document.getElementById("board");
    if (lastCtx && board && board.firstChild && layoutMetrics(board).bound !== lastBound) lastCtx.rerender();
  }, 150);
});

// ------------------------------------------------------------------ tiles and words

const halvesOf = (tile) => tile.split("-").map(Number);
const isDouble = (tile) => {
  const [a, b] = halvesOf(tile);
  return a === b;
};
const pipsOf = (tile) => halvesOf(tile).reduce((a, b) => a + b, 0);


function variantName(variant) {
  return { block: gettext("Block"), draw: gettext("Draw"), all_fives: gettext("All Fives") }[variant] || variant;
}

function endPhrase(end) {
  return (
    {
      left: gettext("the left end"),
      right: gettext("the right end"),
      up: gettext("the upper branch"),
      down: gettext("the lower branch"),
      center: gettext("the centre"),
    }[end] || end
  );
}

function endShort(end) {
  return { left: gettext("Left"), right: gettext("Right"), up: gettext("Up"), down: gettext("Down") }[end] || end;
}

function tilesWord(n) {
  return fmt(ngettext("%(n)s tile", "%(n)s tiles", n), { n });
}

// ------------------------------------------------------------------ All Fives arithmetic (preview)

// The layout's mechanics, rebuilt from the view, to say what a play would score before it is made
// (the engine's Layout.place and Layout.counts, read from docs/games/dominoes.md).
function layoutModel(layout) {
  const lead = layout.tiles.find((t) => t.arm === "center");
  if (!lead) return null;
  const arms = ["left", "right", "up", "down"];
  const lengths = Object.fromEntries(arms.map((a) => [a, 0]));
  const tips = Object.fromEntries(arms.map((a) => [a, null]));
  const tipIndex = Object.fromEntries(arms.map((a) => [a, -1]));
  for (const t of layout.tiles) {
    if (t.arm === "center") continue;
    lengths[t.arm] += 1;
    if (t.index > tipIndex[t.arm]) {
      tipIndex[t.arm] = t.index;
      tips[t.arm] = t.tile;
    }
  }
  const ends = Object.fromEntries(arms.map((a) => [a, -1]));
  for (const e of layout.ends) ends[e.end] = e.shows;
  const s = layout.spinner;
  return { lead: lead.tile, lengths, tips, ends, spinner: s ? { arm: s.arm, index: s.index, number: s.number } : null };
}

function modelCounts(m) {
  const leadDouble = isDouble(m.lead);
  const out = { left: 0, right: 0, up: 0, down: 0 };
  for (const [arm, other] of [["left", "right"], ["right", "left"]]) {
    const shown = m.ends[arm];
    const tip = m.tips[arm];
    if (tip === null) out[arm] = leadDouble ? (m.tips[other] !== null ? 2 * shown : shown) : shown;
    else out[arm] = isDouble(tip) ? 2 * shown : shown;
  }
  for (const arm of ["up", "down"]) {
    const shown = m.ends[arm];
    const tip = m.tips[arm];
    if (shown >= 0 && tip !== null) out[arm] = isDouble(tip) ? 2 * shown : shown;
  }
  return out;
}

function modelPlace(m, tile, arm, fives) {
  const [hi, lo] = halvesOf(tile);
  if (arm === "center") {
    return {
      lead: tile,
      lengths: { left: 0, right: 0, up: 0, down: 0 },
      tips: { left: null, right: null, up: null, down: null },
      ends: { left: hi, right: lo, up: -1, down: -1 },
      spinner: fives && hi === lo ? { arm: "center", index: 0, number: hi } : null,
    };
  }
  const shown = m.ends[arm];
  const outer = hi === shown ? lo : hi;
  const next = {
    lead: m.lead,
    lengths: { ...m.lengths },
    tips: { ...m.tips },
    ends: { ...m.ends },
    spinner: m.spinner,
  };
  const index = next.lengths[arm];
  next.ends[arm] = outer;
  next.tips[arm] = tile;
  next.lengths[arm] = index + 1;
  if (!next.spinner && fives && hi === lo) next.spinner = { arm, index, number: hi };
  if (next.spinner && next.ends.up < 0) {
    const s = next.spinner;
    const both = s.arm === "center" ? next.lengths.left > 0 && next.lengths.right > 0 : next.lengths[s.arm] > s.index + 1;
    if (both) next.ends.up = next.ends.down = s.number;
  }
  return next;
}

function totalAfter(view, action) {
  const fives = view.variant === "all_fives";
  const before = layoutModel(view.layout);
  if (!before && action.end !== "center") return null;
  const after = modelPlace(before, action.tile, action.end, fives);
  return Object.values(modelCounts(after)).reduce((a, b) => a + b, 0);
}

// ------------------------------------------------------------------ describe

export function describe(action, snap) {
  const view = snap && snap.view;
  if (action.type === "draw") return gettext("Draw a tile from the boneyard.");
  if (action.type === "pass") return gettext("Pass: no tile of yours fits.");
  if (action.type === "next_round") return gettext("Ready for the next round.");
  if (action.type !== "play") return action.type;
  let sentence;
  if (action.end === "center") {
    sentence = fmt(gettext("Lead %(tile)s in the centre."), { tile: action.tile });
  } else {
    const end = view && view.layout.ends.find((e) => e.end === action.end);
    sentence = end
      ? fmt(gettext("Play %(tile)s on the %(n)s at %(end)s."), { tile: action.tile, n: end.shows, end: endPhrase(action.end) })
      : fmt(gettext("Play %(tile)s on %(end)s."), { tile: action.tile, end: endPhrase(action.end) });
  }
  if (view && view.variant === "all_fives") {
    const total = totalAfter(view, action);
    if (total !== null) {
      const scores = total > 0 && total % 5 === 0;
      sentence += " " + (scores
        ? fmt(gettext("The ends will count %(total)s: you score %(total)s."), { total })
        : fmt(gettext("The ends will count %(total)s: no score."), { total }));
    }
  }
  return sentence;
}

// The move log. Event data arrives only for the engine's PUBLIC_EVENTS; without it the round's
// public log in the view (view.moves, view.last_round) tells what the last move was.
export function describeMove(lastMove, snap, seatName) {
  const view = snap.view;
  const name = seatName || ((n) => String(n + 1));
  const seat = lastMove.actor && lastMove.actor.includes(":") ? Number(lastMove.actor.split(":")[1]) : null;
  const parts = [];
  const moves = (view && view.moves) || [];
  const lastLogged = moves.length ? moves[moves.length - 1] : null;
  for (const event of lastMove.events || []) {
    const data = event.seat !== undefined || event.tile !== undefined ? event : null;
    if (event.type === "play") {
      const info = data && data.tile ? data : lastLogged && lastLogged.type === "play" && lastLogged.seat === seat ? lastLogged : null;
      if (!info) parts.push(gettext("played a tile"));
      else {
        let text = info.end === "center"
          ? fmt(gettext("led %(tile)s"), { tile: info.tile })
          : fmt(gettext("played %(tile)s on %(end)s"), { tile: info.tile, end: endPhrase(info.end) });
        if (info.scored) text += " " + fmt(gettext("(scores %(points)s)"), { points: points(info.scored, view.score_scale) });
        parts.push(text);
      }
    } else if (event.type === "draw") {
      parts.push(gettext("drew a tile"));
    } else if (event.type === "pass") {
      parts.push(gettext("passed"));
    } else if (event.type === "next_round") {
      parts.push(gettext("ready for the next round"));
    } else if (event.type === "deal") {
      parts.push(fmt(gettext("round %(n)s is dealt"), { n: view.hand }));
    } else if (event.type === "round_end") {
      const r = view.last_round;
      if (r && r.reason === "out" && r.went_out !== null) parts.push(fmt(gettext("%(name)s went out"), { name: name(r.went_out) }));
      else if (r && r.reason === "blocked") parts.push(gettext("the round is blocked"));
      else parts.push(gettext("the round is over"));
    } else if (event.type === "game_over") {
      const winners = (view.winners || []).map(name).join(", ");
      parts.push(winners ? fmt(gettext("the game is over: %(names)s won"), { names: winners }) : gettext("the game is over"));
    } else if (event.type !== "setup") {
      parts.push(event.type.replaceAll("_", " "));
    }
  }
  return parts.join("; ");
}

// ------------------------------------------------------------------ score sheet

function sides(view) {
  if (view.teams) return view.teams.map((members, index) => ({ index, members }));
  return Array.from({ length: view.players }, (_, seat) => ({ index: seat, members: [seat] }));
}

export function scoreSheet(snap, seatName) {
  // One row per round played (from the view: a reload or a late spectator sees every round, #33),
  // then the round being played; a column per side: what the round gave and the total after it.
  const view = snap.view;
  const scale = view.score_scale || 1;
  const all = sides(view);
  const head = [pgettext("dominoes", "Round"), ...all.map((side) => side.members.map(seatName).join(" & "))];
  const rows = [];
  let before = all.map(() => 0);
  for (const round of view.past_rounds || []) {
    const after = all.map((side) => round.scores[side.members[0]]);
    rows.push([
      fmt(gettext("Round %(n)s"), { n: round.hand }),
      ...all.map((side, i) => fmt(gettext("%(change)s → %(total)s"), { change: `+${points(after[i] - before[i], scale)}`, total: points(after[i], scale) })),
    ]);
    before = after;
  }
  // The scores now (or at the end: All Fives may end in the middle of a round, on a play that reaches the target).
  const now = view.phase === "over" ? gettext("Final") : fmt(gettext("Now (round %(n)s)"), { n: view.hand });
  rows.push([now, ...all.map((side) => points(view.scores[side.members[0]], scale))]);
  rows.push([fmt(gettext("Target: %(n)s points"), { n: view.target }), ...all.map(() => "")]);
  return { head, rows };
}

// ------------------------------------------------------------------ the layout's geometry

// Grid units: one half of a tile is a 2 × 2 square; a tile lying along the line is 4 × 2 and a
// double crosswise 2 × 4. Each arm grows from a point P in direction d; when a tile would leave the
// table's width (or hit another tile) the line turns a corner (the classic snake).
const add = (p, d, k = 1) => [p[0] + d[0] * k, p[1] + d[1] * k];
const neg = (d) => [-d[0], -d[1]];
const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const EPS = 1e-6;

function rectOf(centers) {
  const xs = centers.map((c) => c[0]);
  const ys = centers.map((c) => c[1]);
  return { x0: Math.min(...xs) - 1, x1: Math.max(...xs) + 1, y0: Math.min(...ys) - 1, y1: Math.max(...ys) + 1 };
}

function overlaps(a, b) {
  return a.x0 < b.x1 - EPS && b.x0 < a.x1 - EPS && a.y0 < b.y1 - EPS && b.y0 < a.y1 - EPS;
}

function geometry(arm, turn, double) {
  const { P, d } = arm;
  if (turn) {
    const inner = add(P, d);
    return { centers: [inner, add(inner, turn, 2)], P: add(inner, turn, 3), d: turn };
  }
  if (double) {
    const c = add(P, d);
    const across = [d[1], d[0]];
    return { centers: [add(c, across), add(c, across, -1)], P: add(P, d, 2), d, center: c };
  }
  return { centers: [add(P, d), add(P, d, 3)], P: add(P, d, 4), d };
}

function candidates(arm, double, spinner) {
  let list;
  if (arm.main) {
    // A branch runs away from the line; past its reach it snakes sideways, never back.
    const m = arm.main;
    const side = arm.lastSide ? neg(arm.lastSide) : [m[1], m[0]];
    list = same(arm.d, m) ? [null, side, neg(side)] : [null, m, neg(m)];
  } else if (arm.d[1] === 0) {
    list = [null, arm.v, neg(arm.v)];
  } else {
    list = [neg(arm.lastH), null, arm.lastH];
  }
  if (spinner) return [null]; // the spinner always lies crosswise on the line, its branches beside it
  if (double) return [null, ...list.filter((t) => t !== null)];
  return list;
}

function choosePlace(arm, double, spinner, placed, bound, name = null) {
  // The first free option inside the table; else the free one that sticks out least.
  const reach = Math.max(14, Math.round(bound * 0.7)); // how far a spinner's branch runs before turning
  const options = candidates(arm, double, spinner).map((turn, rank) => {
    const g = geometry(arm, turn, double && !turn);
    const rect = rectOf(g.centers);
    let over = Math.max(0, -bound - rect.x0) + Math.max(0, rect.x1 - bound);
    if (arm.main && !turn && same(arm.d, arm.main)) over += Math.max(0, -reach - rect.y0) + Math.max(0, rect.y1 - reach);
    const free = !placed.some((q) => overlaps(q.rect, rect)) && !(arm.keepOut || []).some((k) => k.arm !== name && overlaps(k.rect, rect));
    return { ...g, rect, over, free, turn, rank };
  });
  options.sort((a, b) => (b.free - a.free) || (a.over - b.over) || (a.rank - b.rank));
  if (options[0].free) return options[0];
  // Boxed in (a long arm on a narrow table): jump ahead to the nearest free room, with a link.
  for (let k = 2; k <= 24; k += 2) {
    const moved = { ...arm, P: add(arm.P, arm.d, k) };
    for (const turn of candidates(arm, double, spinner)) {
      const g = geometry(moved, turn, double && !turn);
      const rect = rectOf(g.centers);
      const blocked = placed.some((q) => overlaps(q.rect, rect)) || (arm.keepOut || []).some((q) => q.arm !== name && overlaps(q.rect, rect));
      if (!blocked) return { ...g, rect, turn, free: true, link: [arm.P, moved.P] };
    }
  }
  return options[0];
}

function advance(arm, g) {
  arm.P = g.P;
  arm.d = g.d;
  if (g.d[1] === 0) arm.lastH = g.d;
  if (arm.main && !same(g.d, arm.main)) arm.lastSide = g.d;
}

// The spinner's branches: their first two tiles' room is kept free of the other arms.
function openBranches(arms, center, lineDir, keepOut) {
  const up = lineDir[1] === 0 ? [0, -1] : [-1, 0];
  const down = neg(up);
  for (const [name, dir] of [["up", up], ["down", down]]) {
    const start = add(center, dir, 2);
    arms[name] = { P: start, d: dir, main: dir, keepOut };
    keepOut.push({ arm: name, rect: rectOf([add(start, dir), add(start, dir, 7)]) });
  }
}

// Every placed tile with its two half-squares, in the order of play (so a new tile never moves
// an old one), and where each arm would continue.
function computeLayout(tiles, bound) {
  const placed = [];
  const arms = {};
  const keepOut = [];
  for (const t of [...tiles].sort((a, b) => a.order - b.order)) {
    let g;
    let nums;
    if (t.arm === "center") {
      if (t.double) {
        g = { centers: [[0, -1], [0, 1]], center: [0, 0] };
        arms.left = { P: [-1, 0], d: [-1, 0], v: [0, -1], lastH: [-1, 0] };
        arms.right = { P: [1, 0], d: [1, 0], v: [0, 1], lastH: [1, 0] };
      } else {
        g = { centers: [[-1, 0], [1, 0]] };
        arms.left = { P: [-2, 0], d: [-1, 0], v: [0, -1], lastH: [-1, 0] };
        arms.right = { P: [2, 0], d: [1, 0], v: [0, 1], lastH: [1, 0] };
      }
      nums = [t.left, t.right];
      if (t.spinner) openBranches(arms, [0, 0], [1, 0], keepOut);
      for (const arm of [arms.left, arms.right]) arm.keepOut = keepOut;
      g.rect = rectOf(g.centers);
    } else {
      const arm = arms[t.arm];
      if (!arm) continue;
      g = choosePlace(arm, t.double, t.spinner, placed, bound, t.arm);
      nums = [t.inner, t.outer];
      if (t.spinner) openBranches(arms, g.center || g.centers[0], arm.d, keepOut);
      advance(arm, g);
    }
    placed.push({ ...t, centers: g.centers, rect: g.rect, nums, link: g.link });
  }
  return { placed, arms };
}

// ------------------------------------------------------------------ drawing

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  // Enter on one of our buttons presses that button; it must not also confirm the page's preview.
  if (tag === "button") node.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") event.stopPropagation(); });
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// Pips on a half: a 3 × 3 grid; columns of three for the 6 on an upright half.
const SPOTS = {
  0: [],
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]],
};

function pipsOn(group, n, cx, cy, size, lying) {
  for (const [a, b] of SPOTS[n] || []) {
    const [dx, dy] = lying ? [b, a] : [a, b];
    group.append(svg("circle", { cx: cx + dx * size * 0.27, cy: cy + dy * size * 0.27, r: size * 0.095, class: "dom-pip" }));
  }
}

// A tile from its two half-squares (centers in grid units, each half 2 × 2).
function tileShape(centers, nums, attrs = {}) {
  const group = svg("g", attrs);
  const r = rectOf(centers);
  group.append(svg("rect", { x: r.x0 + 0.06, y: r.y0 + 0.06, width: r.x1 - r.x0 - 0.12, height: r.y1 - r.y0 - 0.12, rx: 0.3, class: "dom-face" }));
  const lying = centers[0][1] === centers[1][1];
  const mid = [(centers[0][0] + centers[1][0]) / 2, (centers[0][1] + centers[1][1]) / 2];
  if (lying) group.append(svg("line", { x1: mid[0], y1: r.y0 + 0.3, x2: mid[0], y2: r.y1 - 0.3, class: "dom-bar" }));
  else group.append(svg("line", { x1: r.x0 + 0.3, y1: mid[1], x2: r.x1 - 0.3, y2: mid[1], class: "dom-bar" }));
  centers.forEach((c, i) => pipsOn(group, nums[i], c[0], c[1], 2, lying));
  return group;
}

// A small upright (or lying) tile for the hands, as its own SVG.
function tileIcon(tile, { lying = false, className = "dom-icon" } = {}) {
  const [a, b] = halvesOf(tile);
  const centers = lying ? [[1, 1], [3, 1]] : [[1, 1], [1, 3]];
  const box = lying ? "0 0 4 2" : "0 0 2 4";
  return svg("svg", { viewBox: box, class: className, "aria-hidden": "true", focusable: "false" }, tileShape(centers, [a, b]));
}

function layoutMetrics(board) {
  const width = Math.max(280, (board.clientWidth || 600) - 16);
  const unit = width < 560 ? 9.5 : 15;
  const bound = Math.max(12, Math.min(30, Math.floor(width / unit / 2) - 1));
  return { unit, bound };
}

function drawLayout(board, view, ctx, plays) {
  const { unit, bound } = layoutMetrics(board);
  lastBound = bound;
  const fives = view.variant === "all_fives";
  const { placed, arms } = computeLayout(view.layout.tiles, bound);
  const pending = ctx.pending && ctx.pending.type === "play" ? ctx.pending : null;
  const fits = new Map(); // end → the legal action for the selected tile
  if (selected) for (const a of plays.filter((p) => p.tile === selected)) fits.set(a.end, a);

  const group = svg("g");
  const extents = placed.map((p) => p.rect);
  const lastOrder = placed.length ? Math.max(...placed.map((p) => p.order)) : -1;

  // Where the spinner's branches will open (faint), before they are played.
  const spinner = view.layout.spinner;
  if (spinner && !spinner.branches_open && arms.up) {
    for (const name of ["up", "down"]) {
      const slot = add(arms[name].P, arms[name].d);
      group.append(svg("rect", { x: slot[0] - 0.9, y: slot[1] - 0.9, width: 1.8, height: 1.8, rx: 0.3, class: "dom-slot" }));
      extents.push({ x0: slot[0] - 1, x1: slot[0] + 1, y0: slot[1] - 1, y1: slot[1] + 1 });
    }
  }

  for (const p of placed) {
    if (p.link) group.append(svg("line", { x1: p.link[0][0], y1: p.link[0][1], x2: p.link[1][0], y2: p.link[1][1], class: "dom-link" }));
  }
  // The line of play read one tile at a time, from the left end to the right end, then the
  // spinner's branches: each tile is an image named in words ("six-four, played by Ana").
  const armRank = { left: 0, center: 1, right: 2, up: 3, down: 4 };
  const lineOrder = [...placed].sort((a, b) => armRank[a.arm] - armRank[b.arm] || (a.arm === "left" ? b.index - a.index : a.index - b.index));
  for (const p of lineOrder) {
    const classes = ["dom-placed"];
    if (p.spinner) classes.push("dom-spinner");
    if (p.order === lastOrder) classes.push("dom-last");
    const shape = tileShape(p.centers, p.nums, {
      class: classes.join(" "),
      "data-placed": p.tile,
      "data-arm": p.arm,
      "data-index": p.index,
      "data-orientation": p.double ? "crosswise" : "inline",
      "data-spinner": p.spinner ? "true" : null,
    });
    const who = p.by !== undefined && p.by !== null ? ctx.seatName(p.by) : "";
    const words = p.spinner
      ? fmt(gettext("%(tile)s, the spinner, played by %(name)s"), { tile: tileWords(p.tile), name: who })
      : fmt(gettext("%(tile)s, played by %(name)s"), { tile: tileWords(p.tile), name: who });
    shape.setAttribute("role", "img");
    shape.setAttribute("aria-label", words);
    if (p.spinner) {
      const c = [(p.centers[0][0] + p.centers[1][0]) / 2, (p.centers[0][1] + p.centers[1][1]) / 2];
      shape.append(svg("circle", { cx: c[0], cy: c[1], r: 0.28, class: "dom-spinner-dot" }));
    }
    group.append(shape);
  }

  // The preview: where the chosen tile would go.
  if (pending) {
    const g = ghostGeometry(pending, view, arms, placed, bound);
    if (g) {
      group.append(tileShape(g.centers, g.nums, { class: "dom-ghost", "data-ghost": pending.tile, "data-ghost-end": pending.end, "aria-hidden": "true" }));
      extents.push(rectOf(g.centers));
    }
  }

  // The open ends: the number each shows and, in All Fives, what it counts.
  const marks = [];
  if (!placed.length) {
    const action = fits.get("center");
    marks.push({ end: "center", at: [0, 0], shows: null, counts: null, action });
  } else {
    for (const end of view.layout.ends) {
      const arm = arms[end.end];
      if (!arm) continue;
      const g = choosePlace(arm, false, false, placed, bound, end.end);
      marks.push({ end: end.end, at: g.centers[0], dir: g.turn || arm.d, shows: end.shows, counts: end.counts, action: fits.get(end.end) });
    }
  }
  for (const mark of marks) {
    if (pending && pending.end === mark.end) continue; // the ghost tile stands there
    const [x, y] = mark.at;
    // The ends on the drawing are for the eye and the finger; the keyboard and screen readers use the
    // same choices as buttons under the layout (endButtons), and the layout's name says every end.
    const attrs = { class: "dom-end" + (mark.action ? " dom-end-fits" : ""), "data-end-spot": mark.end, "aria-hidden": "true" };
    const node = svg("g", attrs);
    node.append(svg("circle", { cx: x, cy: y, r: 2.1, class: "dom-hit" }));
    node.append(svg("rect", { x: x - 0.95, y: y - 0.95, width: 1.9, height: 1.9, rx: 0.35, class: "dom-end-box" }));
    if (mark.shows !== null) node.append(svg("text", { x, y: y + 0.02, class: "dom-end-num" }, String(mark.shows)));
    else node.append(svg("text", { x, y: y + 0.02, class: "dom-end-lead" }, gettext("Lead")));
    if (fives && mark.counts !== null && mark.counts !== undefined) {
      const out = mark.dir ? add([x, y], mark.dir, 1.7) : [x + 1.7, y];
      const badge = [out[0], out[1]];
      node.append(svg("rect", { x: badge[0] - 0.75, y: badge[1] - 0.5, width: 1.5, height: 1, rx: 0.45, class: "dom-count-box" }));
      node.append(svg("text", { x: badge[0], y: badge[1] + 0.02, class: "dom-count" }, String(mark.counts)));
      extents.push({ x0: badge[0] - 0.8, x1: badge[0] + 0.8, y0: badge[1] - 0.6, y1: badge[1] + 0.6 });
    }
    if (mark.action) {
      const act = mark.action;
      node.addEventListener("click", () => ctx.choose(act));
    }
    extents.push({ x0: x - 1.2, x1: x + 1.2, y0: y - 1.2, y1: y + 1.2 });
    group.append(node);
  }

  const box = {
    x0: Math.min(...extents.map((r) => r.x0)) - 0.6,
    x1: Math.max(...extents.map((r) => r.x1)) + 0.6,
    y0: Math.min(...extents.map((r) => r.y0)) - 0.6,
    y1: Math.max(...extents.map((r) => r.y1)) + 0.6,
  };
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  // A small layout is drawn larger; a large one fills the width (and shrinks with max-width).
  const avail = Math.max(280, (board.clientWidth || 600) - 16);
  const zoom = Math.min(1.5, Math.max(1, avail / (w * unit)));
  const summary = placed.length
    ? fmt(gettext("The layout: %(count)s. Open ends: %(ends)s."), {
        count: tilesWord(placed.length),
        ends: view.layout.ends.map((e) => `${endShort(e.end)} ${e.shows}`).join(", "),
      })
    : gettext("The layout is empty: the lead goes in the centre.");
  const drawing = svg(
    "svg",
    {
      viewBox: `${box.x0} ${box.y0} ${w} ${h}`,
      width: Math.round(w * unit * zoom),
      height: Math.round(h * unit * zoom),
      role: "group",
      "aria-label": summary,
      class: "dom-svg",
      "data-tiles": placed.length,
    },
    group,
  );
  return html("div", { class: "dom-layout" }, drawing);
}

function ghostGeometry(action, view, arms, placed, bound) {
  const [hi, lo] = halvesOf(action.tile);
  const double = hi === lo;
  if (action.end === "center") {
    return double ? { centers: [[0, -1], [0, 1]], nums: [hi, lo] } : { centers: [[-1, 0], [1, 0]], nums: [hi, lo] };
  }
  const arm = arms[action.end];
  const end = view.layout.ends.find((e) => e.end === action.end);
  if (!arm || !end) return null;
  const becomesSpinner = view.variant === "all_fives" && double && !view.layout.spinner;
  const g = choosePlace(arm, double, becomesSpinner, placed, bound, action.end);
  const inner = end.shows;
  const outer = hi === inner ? lo : hi;
  return { centers: g.centers, nums: [inner, outer] };
}

// ------------------------------------------------------------------ the page

function seatPanel(view, snap, ctx, seat) {
  const scale = view.score_scale || 1;
  const count = (view.hand_sizes || [])[seat] ?? 0; // before the deal (a replay's first moment) nobody holds a tile
  const shown = view.hands[seat];
  const acting = (snap.to_act || []).includes(seat) && !snap.finished;
  const partner = view.teams && snap.seat !== null && snap.seat !== seat && view.teams.some((t) => t.includes(seat) && t.includes(snap.seat));
  // The seat to play says so in words too (not by its border alone) and is the current one.
  const panel = html("section", {
    class: "dom-seat" + (acting ? " acting" : ""),
    "data-seat": seat,
    "data-count": count,
    "aria-label": fmt(gettext("%(name)s: %(tiles)s"), { name: ctx.seatName(seat), tiles: tilesWord(count) }),
    "aria-current": acting ? "true" : null,
  });
  const head = html("div", { class: "dom-seat-head" },
    html("strong", {}, ctx.seatName(seat)),
    acting ? html("span", { class: "dom-tag dom-to-play" }, gettext("to play")) : null,
    partner ? html("span", { class: "dom-tag" }, gettext("partner")) : null,
    html("span", { class: "dom-seat-score" }, fmt(gettext("%(points)s pts"), { points: points(view.scores[seat], scale) })),
    html("span", { class: "dom-seat-count" }, tilesWord(count)),
  );
  panel.append(head);
  const row = html("div", { class: "dom-seat-tiles" });
  if (shown && seat !== snap.seat) {
    for (const tile of shown) row.append(html("span", { class: "dom-shown", "data-shown": tile, title: tile, role: "img", "aria-label": tileWords(tile) }, tileIcon(tile, { lying: true })));
    const total = shown.reduce((a, t) => a + pipsOf(t), 0);
    row.append(html("span", { class: "dom-pips" }, fmt(ngettext("%(n)s pip", "%(n)s pips", total), { n: total })));
  } else if (seat !== snap.seat) {
    for (let i = 0; i < count; i += 1) row.append(html("span", { class: "dom-back", "aria-hidden": "true" }));
  }
  if (row.childNodes.length) panel.append(row);
  return panel;
}

function infoBar(view) {
  const bar = html("div", { class: "dom-info" });
  bar.append(html("span", { class: "dom-chip" }, variantName(view.variant)));
  // Before the first deal (a replay's opening moment) there is no round yet.
  if (view.hand > 0) bar.append(html("span", { class: "dom-chip" }, fmt(gettext("Round %(n)s"), { n: view.hand })));
  bar.append(html("span", { class: "dom-chip" }, fmt(gettext("Playing to %(n)s"), { n: view.target })));
  const boneLabel = view.variant === "block"
    ? fmt(gettext("Boneyard: %(n)s (not drawn in Block)"), { n: view.boneyard })
    : fmt(gettext("Boneyard: %(n)s"), { n: view.boneyard });
  bar.append(html("span", { class: "dom-chip dom-boneyard", "data-boneyard": view.boneyard }, boneLabel));
  if (view.variant === "all_fives" && view.layout.tiles.length) {
    const ends = view.layout.ends;
    const total = view.layout.total || 0;
    const sum = ends.map((e) => String(e.counts)).join(" + ");
    const scoring = total > 0 && total % 5 === 0;
    bar.append(html("span", { class: "dom-chip dom-total" + (scoring ? " scoring" : ""), "data-total": total },
      fmt(gettext("Ends count %(sum)s = %(total)s"), { sum, total })));
  }
  const spinner = view.layout.spinner;
  if (spinner) {
    const text = spinner.branches_open
      ? fmt(gettext("Spinner %(tile)s: both sides played, its branches are open"), { tile: spinner.tile })
      : fmt(gettext("Spinner %(tile)s: branches open when both sides are played"), { tile: spinner.tile });
    bar.append(html("span", { class: "dom-chip dom-spinner-chip", "data-spinner-tile": spinner.tile }, text));
  }
  return bar;
}

function resultPanel(view, snap, ctx) {
  const last = view.last_round;
  const over = view.phase === "over" || snap.finished;
  if (!over && view.phase !== "count") return null;
  const panel = html("section", { class: "dom-result", "data-phase": view.phase });
  if (last && last.hand === view.hand) {
    panel.append(html("h3", {}, fmt(gettext("Round %(n)s is over"), { n: last.hand })));
    const why = last.reason === "out" && last.went_out !== null
      ? fmt(gettext("%(name)s went out."), { name: ctx.seatName(last.went_out) })
      : gettext("The round is blocked: nobody can play.");
    panel.append(html("p", {}, why));
    const scale = view.score_scale || 1;
    const lines = sides(view).map((side) => {
      const names = side.members.map(ctx.seatName).join(" & ");
      const pips = side.members.reduce((a, s) => a + (last.pips[s] || 0), 0);
      const bonus = last.bonus[side.index] || 0;
      const left = fmt(ngettext("%(n)s pip left", "%(n)s pips left", pips), { n: pips });
      return html("li", {}, bonus
        ? fmt(gettext("%(names)s: %(left)s, bonus %(bonus)s"), { names, left, bonus: points(bonus, scale) })
        : fmt(gettext("%(names)s: %(left)s"), { names, left }));
    });
    panel.append(html("ul", {}, ...lines));
    if (!last.winners.length) panel.append(html("p", {}, gettext("A tie for the lowest hand: nobody scores a bonus.")));
  }
  if (over) {
    const winners = (view.winners || []).map(ctx.seatName).join(" & ");
    panel.append(html("p", { class: "dom-winner" }, winners ? fmt(gettext("The game is over: %(names)s won."), { names: winners }) : gettext("The game is over.")));
    const scale = view.score_scale || 1;
    const finals = sides(view).map((side) => fmt(gettext("%(names)s: %(points)s"), { names: side.members.map(ctx.seatName).join(" & "), points: points(view.scores[side.members[0]], scale) }));
    panel.append(html("p", { class: "dom-finals" }, fmt(gettext("Final score: %(scores)s."), { scores: finals.join(", ") })));
  } else if (view.phase === "count") {
    const waiting = (snap.to_act || []).map(ctx.seatName).join(", ");
    if (waiting) panel.append(html("p", { class: "meta" }, fmt(gettext("All hands are shown. Waiting for %(names)s to start the next round."), { names: waiting })));
  }
  return panel;
}

function actionButton(action, ctx, label, name) {
  const button = html("button", {
    type: "button",
    class: "dom-button" + (ctx.isPending(action) ? " selected" : ""),
    "data-action": name,
    "data-key": `action:${name}`,
    "aria-label": named(label, describe(action, null)),
    "aria-pressed": ctx.isPending(action) ? "true" : "false",
  }, label);
  button.addEventListener("click", () => {
    selected = null;
    ctx.choose(action);
  });
  return button;
}

function cancelPreview() {
  // Picking another tile drops the move being previewed (the page's own Cancel).
  const cancel = document.getElementById("cancel");
  if (cancel) cancel.click();
}

function handSection(view, snap, ctx, plays) {
  const seat = snap.seat;
  const hand = view.hands[seat] || [];
  const playable = new Set(plays.map((a) => a.tile));
  const section = html("section", { class: "dom-hand" + (plays.length ? " turn" : ""), "data-hand": seat, "data-count": hand.length });
  const scale = view.score_scale || 1;
  section.append(html("div", { class: "dom-hand-head" },
    html("strong", {}, fmt(gettext("Your tiles (%(n)s)"), { n: hand.length })),
    html("span", { class: "dom-seat-score" }, fmt(gettext("%(points)s pts"), { points: points(view.scores[seat], scale) })),
  ));
  const row = html("div", { class: "dom-hand-tiles", role: "group", "aria-label": gettext("Your tiles"), "data-hand-area": "" });
  for (const tile of hand) {
    const can = playable.has(tile);
    const isSel = selected === tile;
    const pendingHere = ctx.pending && ctx.pending.type === "play" && ctx.pending.tile === tile;
    // A tile that does not fit keeps its place in the tab order (aria-disabled, not disabled), so that
    // focus stays on the hand while the others play.
    const button = html("button", {
      type: "button",
      class: "dom-tile" + (can ? " playable" : "") + (isSel ? " selected" : "") + (pendingHere ? " pending" : ""),
      "data-tile": tile,
      "data-key": `tile:${tile}`,
      "aria-label": can ? fmt(gettext("Tile %(tile)s"), { tile: tileWords(tile) }) : fmt(gettext("Tile %(tile)s (does not fit)"), { tile: tileWords(tile) }),
      "aria-pressed": isSel ? "true" : "false",
      "aria-disabled": can ? null : "true",
    }, tileIcon(tile));
    button.addEventListener("click", () => pickTile(tile, ctx, plays));
    row.append(button);
  }
  section.append(row);
  return section;
}

function pickTile(tile, ctx, plays) {
  const options = plays.filter((a) => a.tile === tile);
  if (!options.length) return;
  if (selected === tile) {
    if (options.length === 1) ctx.choose(options[0]); // the tile fits one end only: preview it
    else if (!ctx.pending) {
      selected = null;
      ctx.rerender();
    }
    return;
  }
  if (ctx.pending) cancelPreview();
  selected = tile;
  ctx.rerender();
}

function endButtons(view, ctx, plays) {
  const box = html("div", { class: "dom-ends", role: "group", "aria-label": gettext("Where to play it"), "data-options": "" });
  const options = plays.filter((a) => a.tile === selected);
  box.append(html("span", { class: "dom-prompt" },
    options.length === 1 ? fmt(gettext("%(tile)s fits one place: tap it again or tap the end."), { tile: selected }) : fmt(gettext("Where does %(tile)s go?"), { tile: selected })));
  for (const action of options) {
    const end = view.layout.ends.find((e) => e.end === action.end);
    let label;
    if (action.end === "center") label = gettext("Lead it");
    else if (view.variant === "all_fives" && end) label = fmt(gettext("%(end)s · %(n)s (counts %(c)s)"), { end: endShort(action.end), n: end.shows, c: end.counts });
    else label = end ? fmt(gettext("%(end)s · %(n)s"), { end: endShort(action.end), n: end.shows }) : endShort(action.end);
    const button = html("button", {
      type: "button",
      class: "dom-button" + (ctx.isPending(action) ? " selected" : ""),
      "data-end": action.end,
      "data-key": `end:${action.end}`,
      "aria-label": named(label, describe(action, { view })),
      "aria-pressed": ctx.isPending(action) ? "true" : "false",
    }, label);
    button.addEventListener("click", () => ctx.choose(action));
    box.append(button);
  }
  return box;
}

export function render(board, snap, ctx) {
  lastCtx = ctx;
  const view = snap.view;
  if (seen.seq !== snap.seq || seen.seat !== snap.seat) {
    selected = null;
    seen = { seq: snap.seq, seat: snap.seat };
  }
  const legal = ctx.legal || [];
  const plays = legal.filter((a) => a.type === "play");
  if (ctx.pending && ctx.pending.type === "play") selected = ctx.pending.tile;
  if (selected && !plays.some((a) => a.tile === selected)) selected = null;

  const root = html("div", { class: "dom-table", "data-seq": snap.seq, "data-phase": view.phase, "data-variant": view.variant });
  root.append(infoBar(view));

  const others = [];
  for (let k = 1; k <= view.players; k += 1) {
    const seat = snap.seat === null ? k - 1 : (snap.seat + k) % view.players;
    if (seat !== snap.seat) others.push(seat);
  }
  root.append(html("div", { class: "dom-seats" }, ...others.map((s) => seatPanel(view, snap, ctx, s))));

  root.append(drawLayout(board, view, ctx, plays));
  const result = resultPanel(view, snap, ctx);
  if (result) root.append(result);

  const actions = html("div", { class: "dom-actions" });
  if (selected) actions.append(endButtons(view, ctx, plays));
  else if (plays.length) actions.append(html("span", { class: "dom-prompt" }, gettext("Choose a tile from your hand.")));
  for (const action of legal) {
    if (action.type === "draw") actions.append(actionButton(action, ctx, fmt(gettext("Draw (%(n)s left)"), { n: view.boneyard }), "draw"));
    if (action.type === "pass") actions.append(actionButton(action, ctx, gettext("Pass"), "pass"));
    if (action.type === "next_round") actions.append(actionButton(action, ctx, gettext("Next round"), "next_round"));
  }
  if (actions.childNodes.length) root.append(actions);

  if (snap.seat !== null && view.hands[snap.seat]) root.append(handSection(view, snap, ctx, plays));
  board.replaceChildren(root);
}

// The replay's menu: a dominoes deal played out is a round (ht "men", not Skyjo's "manch").
export const handWord = () => pgettext("dominoes", "Round");
export const handName = (n) => fmt(gettext("Round %(n)s"), { n });

// A lesson's step marks what to tap (lesson.js): the tile, then the end it goes on.
export function lessonKeys(action) {
  if (action.type === "play") return [`tile:${action.tile}`, `end:${action.end}`];
  return [`action:${action.type}`];
}
