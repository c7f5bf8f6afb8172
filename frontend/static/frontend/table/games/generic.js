// A renderer for any game: the view as text and every legal action as a button.
const gettext = window.gettext || ((s) => s);

export function describe(action) {
  const parts = Object.entries(action).filter(([key]) => key !== "type").map(([key, value]) => `${key} ${JSON.stringify(value)}`);
  return [action.type.replaceAll("_", " "), ...parts].join(" · ");
}

export function render(board, snap, ctx) {
  board.replaceChildren();
  const pre = document.createElement("pre");
  pre.className = "generic-view";
  pre.textContent = JSON.stringify(snap.view, null, 1);
  board.append(pre);
  if (!ctx.legal.length) return;
  const list = document.createElement("div");
  list.className = "choices";
  list.setAttribute("aria-label", gettext("Your moves"));
  for (const action of ctx.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice" + (ctx.isPending(action) ? " selected" : "");
    button.textContent = describe(action);
    button.addEventListener("click", () => ctx.choose(action));
    list.append(button);
  }
  board.append(list);
}
