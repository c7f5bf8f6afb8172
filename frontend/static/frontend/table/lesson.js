// A lesson's steps beside its table (docs/lessons.md). The server knows how many moves the learner
// has made (and refuses any move but the one a step teaches); this panel shows the step that goes
// with it. Steps with nothing to play wait for "Next".
const gettext = window.gettext || ((s) => s);
const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));

const lesson = JSON.parse(document.getElementById("lesson-config").textContent);
const $ = (id) => document.getElementById(id);
const steps = lesson.steps;
const moves = steps.filter((s) => s.move !== null).length;
const readKey = `lesson-read:${location.pathname}`;

let made = 0;
// Steps whose text may be read now (the server sends each once the moves before it are played).
let shown = lesson.shown;
let showing = 0; // the step on screen
// Steps read so far: kept for this tab, so a reload does not go back to the first one.
let read = Number(sessionStorage.getItem(readKey) || 0);
let asked = 0;

// The step to show: the first one not yet done. A move step is done once its move is made; a step
// to read, once "Next" was pressed past it.
function current() {
  // Steps before a move already made are behind the learner, read or not.
  let from = 0;
  steps.forEach((step, i) => { if (step.move !== null && step.move < made) from = i + 1; });
  for (let i = from; i < steps.length; i++) {
    const step = steps[i];
    if (step.move !== null ? step.move >= made : i >= read) return i;
  }
  return steps.length;
}

function show() {
  // A step not yet shown waits for the computer's move: the step just done stays meanwhile.
  const at = Math.min(current(), shown - 1 + (shown >= steps.length ? 1 : 0));
  showing = at;
  const done = at >= steps.length;
  $("lesson-step").hidden = done;
  $("lesson-end").hidden = !done;
  if (done) return;
  const step = steps[at];
  $("lesson-count").textContent = interpolate(gettext("Step %(n)s of %(total)s"), { n: at + 1, total: steps.length }, true);
  $("lesson-title").textContent = step.title;
  $("lesson-text").textContent = step.text;
  $("lesson-next").hidden = step.move !== null;
  $("lesson-panel").dataset.step = String(at);
  $("lesson-panel").dataset.kind = step.move !== null ? "move" : "read";
  const wrong = $("lesson-wrong");
  if (wrong.dataset.step !== String(at)) wrong.hidden = true;
  mark();
}

// The card, tile, pile or bid the step asks for is marked on the board (#33: the learner counted cells
// from the text); each game's renderer names what to mark (its lessonKeys). The board is drawn again
// after every tap, so the marks follow it.
function mark() {
  const board = $("board");
  const step = steps[showing];
  const renderer = window.tableClient && window.tableClient.renderer;
  const keys = step && step.action && renderer && renderer.lessonKeys ? renderer.lessonKeys(step.action) : [];
  for (const node of board.querySelectorAll("[data-key]")) node.classList.toggle("lesson-mark", keys.includes(node.dataset.key));
}
new MutationObserver(mark).observe($("board"), { childList: true, subtree: true });

async function refresh() {
  const ask = ++asked;
  try {
    const response = await fetch(lesson.progress, { headers: { Accept: "application/json" } });
    if (!response.ok || ask !== asked) return;
    const body = await response.json();
    const before = made;
    made = Math.min(body.made, moves);
    body.texts.forEach((text, i) => { steps[i].text = text; });
    (body.actions || []).forEach((action, i) => { steps[i].action = action; });
    shown = body.shown;
    if (made !== before) $("lesson-wrong").hidden = true;
    show();
  } catch {
    // The next change of the table asks again.
  }
}

$("lesson-next").addEventListener("click", () => {
  read = showing + 1;
  sessionStorage.setItem(readKey, String(read));
  show();
  $("lesson-title").focus();
});

document.addEventListener("table:state", refresh);
document.addEventListener("table:error", (event) => {
  if (event.detail.code !== "lesson_move") return;
  event.preventDefault();
  const wrong = $("lesson-wrong");
  wrong.textContent = event.detail.message;
  wrong.dataset.step = String(current());
  wrong.hidden = false;
});

show();
refresh();
