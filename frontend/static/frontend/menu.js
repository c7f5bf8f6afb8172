// The phone's menu: on a narrow screen the header's links fold behind one button (site.css). Without
// this script the button stays hidden and the links stay in view.
(() => {
  const bar = document.getElementById("site-bar");
  const button = document.getElementById("menu-button");
  const nav = document.getElementById("site-nav");
  if (!bar || !button || !nav) return;
  bar.classList.add("js-menu");
  button.hidden = false;
  const set = (open) => {
    bar.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => set(button.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && bar.classList.contains("open")) {
      set(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (bar.classList.contains("open") && !bar.contains(event.target)) set(false);
  });
})();
