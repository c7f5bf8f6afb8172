// The tournament form: only the chosen game's options are shown (the others are disabled, so they
// are not sent either), number fields show the rules' default for the options chosen, and the
// round's estimated length follows every change (GET the form's fields to data-estimate), and so does
// the seating advice (the short tables for the players expected; a fixed schedule when a Swiss would
// repeat meetings).
// Without this script every game's options are shown and the server reads the chosen game's only.
import { followDefaults } from "./options.js";

const form = document.getElementById("new-tournament");
const game = document.getElementById("tournament-game");
const boxes = form.querySelectorAll("fieldset.game-options");
const text = document.getElementById("estimate-text");
const basis = document.getElementById("estimate-basis");
const seating = document.getElementById("seating-advice");
let asked = 0;

function players() {
  return form.elements.partnerships.checked ? 4 : Number(form.elements.table_size.value || 2);
}

function showGame() {
  boxes.forEach((box) => {
    const mine = box.dataset.game === game.value;
    box.hidden = !mine;
    box.disabled = !mine;
    if (mine) followDefaults(box, box.dataset.game, players());
  });
}

async function estimate() {
  const mine = ++asked;
  const query = new URLSearchParams(new FormData(form));
  query.delete("csrfmiddlewaretoken");
  try {
    const response = await fetch(`${form.dataset.estimate}?${query}`, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (mine !== asked) return; // a later change has asked again
    text.textContent = body.error ? body.error.message : body.text;
    basis.textContent = body.error ? "" : body.basis;
    if (seating) seating.textContent = body.error ? "" : body.seating || "";
  } catch {
    // Offline or refused: the last estimate stays.
  }
  if (mine === asked) settled();
}

// While a new estimate is on its way the estimate (and the Create button below it, which its new
// text will move) is busy: assistive technology waits to read it, and a test waits to press.
const output = document.getElementById("estimate");
function busy() { output.setAttribute("aria-busy", "true"); }
function settled() { output.removeAttribute("aria-busy"); }

// An option of some formats only (data-formats: a Swiss has no grand final reset, #30 defect 11) is
// hidden and not sent for the others; the server ignores it there anyway.
function showFormatOptions() {
  const format = form.elements.format.value;
  for (const label of form.querySelectorAll("[data-formats]")) {
    const applies = label.dataset.formats.split(" ").includes(format);
    label.hidden = !applies;
    const next = label.nextElementSibling;
    if (next && next.tagName === "BR") next.hidden = !applies;
    for (const input of label.querySelectorAll("input")) input.disabled = !applies;
  }
}

let timer = null;
function changed() {
  showGame();
  showFormatOptions();
  clearTimeout(timer);
  busy();
  timer = setTimeout(estimate, 250);
}

form.addEventListener("change", changed);
form.addEventListener("input", changed);
showGame();
showFormatOptions();
