// Building the table's elements: the card games draw their boards with these.

/** An element with a class and attributes: `text` sets its text; null, undefined and false leave an
 * attribute out, true sets it empty. */
export function el(tag, className, attrs = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  return node;
}

/** A button named by its label (for screen readers too) that runs `onClick`. */
export function button(className, label, onClick, attrs = {}) {
  const node = el("button", className, { type: "button", "aria-label": label, ...attrs });
  node.addEventListener("click", (event) => {
    event.preventDefault();
    onClick();
  });
  return node;
}
