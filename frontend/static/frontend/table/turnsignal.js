// Knowing it is your turn when the table is not in front of you (#33): the tab's title says so, and a
// player who asks for it gets a browser notification and a short tone when their turn comes while the
// tab is hidden. Nothing is said of the cards: the notification names the table only.
const gettext = window.gettext || ((s) => s);

const KEY = "tablehall.turnAlerts";
const baseTitle = document.title;
let wasMine = false;

function alertsOn() {
  return localStorage.getItem(KEY) === "on" && "Notification" in window && Notification.permission === "granted";
}

function tone() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    const audio = new Context();
    const beep = audio.createOscillator();
    const gain = audio.createGain();
    beep.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    beep.connect(gain).connect(audio.destination);
    beep.start();
    beep.stop(audio.currentTime + 0.4);
  } catch {
    // No sound is no harm: the title and the notification still say it.
  }
}

/** Called after every redraw with whether this page's player is to act now. */
export function signal(mine) {
  document.title = mine ? `▶ ${gettext("Your turn")} · ${baseTitle}` : baseTitle;
  if (mine && !wasMine && document.visibilityState === "hidden" && alertsOn()) {
    new Notification(gettext("Your turn"), { body: baseTitle, tag: `tablehall-turn-${location.pathname}` });
    tone();
  }
  wasMine = mine;
}

/** The opt-in button: asks the browser's permission once, then toggles the alerts. */
export function setupButton(button) {
  if (!button) return;
  if (!("Notification" in window)) return;
  const show = () => {
    const on = alertsOn();
    button.textContent = on ? gettext("Turn alerts: on") : gettext("Alert me when it is my turn");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  };
  button.hidden = false;
  button.addEventListener("click", async () => {
    if (alertsOn()) {
      localStorage.setItem(KEY, "off");
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      localStorage.setItem(KEY, answer === "granted" ? "on" : "off");
    }
    show();
  });
  show();
}
