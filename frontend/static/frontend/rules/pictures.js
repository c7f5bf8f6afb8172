// The rules pages' pictures: each worked example's position (frontend/rules_pictures.py, played through
// the engine on the server) drawn by the table's own renderer, with nothing to play: no socket, nothing
// chosen, and the drawing inert (a seat's moves are drawn as at the table, but cannot be pressed).
// Each picture imports its own copy of the renderer (the address differs by a query), because a
// renderer remembers the last position it drew to tell what a move changed.
const gettext = window.gettext || ((s) => s);
const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => o[k]));

const seatName = (seat) => interpolate(gettext("Seat %(n)s"), { n: seat + 1 }, true);
const drawn = [];

async function draw(figure) {
  const snap = JSON.parse(figure.querySelector("script[type='application/json']").textContent);
  const board = figure.querySelector(".rules-board");
  let renderer;
  try {
    renderer = await import(`../table/games/${figure.dataset.engine}.js?picture=${figure.dataset.picture}`);
  } catch {
    return; // the caption still says what the picture shows
  }
  const names = Object.fromEntries(snap.view.scores.map((_, seat) => [seat, seatName(seat)]));
  const ctx = {
    seat: snap.seat,
    legal: snap.legal_actions || [],
    pending: null,
    names,
    seatName,
    choose: () => {},
    clear: () => {},
    isPending: () => false,
    rerender: () => renderer.render(board, snap, ctx),
  };
  ctx.rerender();
  figure.dataset.drawn = "1";
  drawn.push(ctx);
}

// A phone turned sideways re-flows the dominoes' line: draw again at the new width.
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => drawn.forEach((ctx) => ctx.rerender()), 150);
});

document.querySelectorAll("figure.rules-picture").forEach(draw);
