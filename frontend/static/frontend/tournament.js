// Live tournament page: the server nudges the tournament's group on every change; the page then
// fetches itself again and swaps, part by part ([data-part]), only what changed: the head, the
// organiser's console, the bracket, the standings, the rounds. What the reader was doing is kept: the
// field that had focus, what they typed or ticked in a form, the <details> and the explanation they opened,
// how far they scrolled the bracket, the standings or the round tabs, and the round tab they chose.
const root = document.getElementById("tournament");
let seq = Number(root.dataset.seq);
let backoff = 1000;
let chosenRound = null; // the round tab the reader picked (null: follow the current round)
let running = null;
let again = false;

// --- Keeping the reader's state across a swap ---------------------------------------------------

function keyOf(element) {
  if (!element || element === document.body) return null;
  if (element.id) return `#${CSS.escape(element.id)}`;
  const form = element.closest("[data-form]");
  const match = element.closest("[data-match]");
  if (form && element.name) {
    const chosen = element.tagName === "BUTTON" || element.type === "checkbox" || element.type === "radio";
    const value = chosen ? `[value="${CSS.escape(element.value)}"]` : "";
    return `[data-form="${CSS.escape(form.dataset.form)}"] [name="${CSS.escape(element.name)}"]${value}`;
  }
  if (match) return `[data-match="${CSS.escape(match.dataset.match)}"]`;
  return null;
}

function changedFields(part) {
  const typed = [];
  for (const field of part.querySelectorAll("[data-form] input, [data-form] select, [data-form] textarea")) {
    if (field.type === "hidden" || !field.name) continue;
    if (field.type === "checkbox" || field.type === "radio") {
      // A box ticked or cleared is kept as its state (the screen's languages), not as its value.
      if (field.checked !== field.defaultChecked) typed.push([keyOf(field), field.checked]);
      continue;
    }
    const changed = field.tagName === "SELECT"
      ? [...field.options].some((o) => o.selected !== o.defaultSelected)
      : field.value !== field.defaultValue;
    if (changed) typed.push([keyOf(field), field.value]);
  }
  return typed;
}

function remember(part) {
  const active = document.activeElement;
  const focused = part.contains(active) ? keyOf(active) : null;
  return {
    focused,
    selection: focused && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null,
    typed: changedFields(part),
    open: [...part.querySelectorAll("details[open][id]")].map((d) => d.id),
    popover: [...part.querySelectorAll("[popover]")].filter((p) => p.matches(":popover-open")).map((p) => p.id),
    scrolled: [...part.querySelectorAll("[data-scroll][id]")].map((s) => [s.id, s.scrollLeft, s.scrollTop]),
    chosen: part.querySelector("svg.bracket .match.chosen")?.dataset.match,
  };
}

function restore(part, state) {
  for (const [key, value] of state.typed) {
    const field = key && part.querySelector(key);
    if (field && typeof value === "boolean") field.checked = value;
    else if (field) field.value = value;
  }
  for (const id of state.open) part.querySelector(`#${CSS.escape(id)}`)?.setAttribute("open", "");
  for (const [id, left, top] of state.scrolled) {
    const box = part.querySelector(`#${CSS.escape(id)}`);
    if (box) { box.scrollLeft = left; box.scrollTop = top; }
  }
  for (const id of state.popover) part.querySelector(`#${CSS.escape(id)}`)?.showPopover?.();
  if (state.chosen) showMatch(part.querySelector(`svg.bracket [data-match="${CSS.escape(state.chosen)}"]`), false);
  if (state.focused) {
    const field = part.querySelector(state.focused);
    if (field) {
      field.focus({ preventScroll: true });
      if (state.selection && "setSelectionRange" in field) {
        try { field.setSelectionRange(...state.selection); } catch { /* not a text field */ }
      }
    }
  }
}

// --- The swap ----------------------------------------------------------------------------------

function swap(fresh) {
  // Django masks the CSRF token anew on every page, so every part with a form would differ on every
  // fetch and be swapped under the reader's hands; the token this page holds stays valid, so the
  // fresh part is given it and is swapped only when what it shows changed.
  const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value;
  for (const part of fresh.querySelectorAll("[data-part]")) {
    const old = document.getElementById(part.id);
    if (!old) continue;
    if (token) {
      for (const input of part.querySelectorAll("input[name=csrfmiddlewaretoken]")) input.setAttribute("value", token);
    }
    if (chosenRound !== null && part.id === "rounds-part") selectRound(chosenRound, part, false);
    if (old.outerHTML === part.outerHTML) continue;
    const state = remember(old);
    const kept = document.importNode(part, true);
    // The field being typed in moves into the fresh part as it is, not as a copy: its caret, what it
    // has chosen and what is half typed stay (a number field has no selection a copy could be given,
    // so a key pressed after a swap landed beside the chosen number instead of over it).
    const active = document.activeElement;
    const typing = state.focused && old.contains(active) && active.matches("input, select, textarea");
    const twin = typing ? kept.querySelector(state.focused) : null;
    if (twin) {
      twin.replaceWith(active);
      state.typed = state.typed.filter(([key]) => key !== state.focused); // it holds what it holds
    }
    old.replaceWith(kept);
    restore(kept, state);
  }
  root.dataset.seq = fresh.dataset.seq;
  seq = Number(fresh.dataset.seq);
}

// A swap must never eat a click: a part replaced between the press and the release takes the button
// away before it is clicked. So a swap waits for the press to end (and for its click to pass), and
// none is made once a form was sent: the page is on its way to the answer.
let pressed = false;
let leaving = false;
const afterPress = [];
document.addEventListener("pointerdown", () => { pressed = true; }, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => {
    setTimeout(() => { pressed = false; for (const go of afterPress.splice(0)) go(); }, 0);
  }, true);
}
window.addEventListener("pageshow", () => { leaving = false; });

function pressOver() {
  return pressed ? new Promise((go) => afterPress.push(go)) : Promise.resolve();
}

async function fetchPage() {
  const response = await fetch(location.href, { headers: { "X-Requested-With": "fetch" } });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("tournament");
  await pressOver();
  if (fresh && !leaving) swap(fresh);
}

// One fetch at a time; nudges that arrive meanwhile make one more.
async function refresh() {
  if (running) { again = true; return running; }
  running = (async () => {
    do { again = false; await fetchPage(); } while (again);
  })();
  try { await running; } finally { running = null; }
}

// --- Round tabs ---------------------------------------------------------------------------------

function selectRound(number, scope = document, focus = false) {
  const tabs = [...scope.querySelectorAll("[data-round-tab]")];
  if (!tabs.some((t) => t.dataset.roundTab === String(number))) return;
  for (const tab of tabs) {
    const on = tab.dataset.roundTab === String(number);
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) { tab.focus(); tab.scrollIntoView({ block: "nearest", inline: "nearest" }); }
  }
  for (const panel of scope.querySelectorAll("[data-round-panel]")) {
    panel.hidden = panel.dataset.roundPanel !== String(number);
  }
}

document.addEventListener("click", (event) => {
  const tab = event.target.closest("[data-round-tab]");
  if (!tab) return;
  event.preventDefault();
  chosenRound = Number(tab.dataset.roundTab);
  selectRound(chosenRound, document, true);
  const url = new URL(location.href);
  url.searchParams.set("round", String(chosenRound));
  url.hash = "";
  history.replaceState(null, "", url);
});

document.addEventListener("keydown", (event) => {
  const tab = event.target.closest?.("[data-round-tab]");
  if (!tab || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const tabs = [...document.querySelectorAll("[data-round-tab]")];
  const at = tabs.indexOf(tab);
  const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 }[event.key];
  const target = tabs[Math.max(0, Math.min(tabs.length - 1, next))];
  event.preventDefault();
  target.click();
});

// --- The bracket: a tap, a click or focus on a match reads it out in full below -------------------

function showMatch(box, scroll = true) {
  if (!box) return;
  const part = box.closest("[data-part]") || document;
  for (const other of part.querySelectorAll("svg.bracket .match.chosen")) other.classList.remove("chosen");
  box.classList.add("chosen");
  const detail = part.querySelector("#bracket-detail");
  const source = part.querySelector(`#bracket-details [data-match="${CSS.escape(box.dataset.match)}"]`);
  if (detail && source) {
    detail.replaceChildren(...[...source.childNodes].map((n) => n.cloneNode(true)));
    if (scroll) detail.scrollIntoView({ block: "nearest" });
  }
}

document.addEventListener("click", (event) => showMatch(event.target.closest?.("svg.bracket .match")));
document.addEventListener("focusin", (event) => {
  const box = event.target.closest?.("svg.bracket .match");
  if (box) showMatch(box, false);
});
document.addEventListener("keydown", (event) => {
  const box = event.target.closest?.("svg.bracket .match");
  if (box && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); showMatch(box); }
});

// --- What cannot be undone asks first -----------------------------------------------------------

document.addEventListener("submit", (event) => {
  let question = event.submitter?.dataset.confirm || event.target.dataset.confirm;
  // A question about the player chosen in the form names them ("{name}": the forfeit's).
  const chosen = event.target.querySelector?.("select[name=entrant]");
  if (question && chosen) question = question.replaceAll("{name}", chosen.selectedOptions[0]?.textContent.trim() ?? "");
  if (question && !window.confirm(question)) event.preventDefault();
  if (!event.defaultPrevented) leaving = true;
});

// --- The socket ---------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${root.dataset.id}/`);
  socket.onopen = () => { backoff = 1000; refresh(); };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.seq > seq) refresh();
  };
  socket.onclose = () => { setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 15000); };
}

connect();
// heldForPress: fetched pages waiting for a press to end (what a test holding a button waits for).
window.tournamentPage = { refresh, get seq() { return seq; }, get heldForPress() { return afterPress.length; } };
