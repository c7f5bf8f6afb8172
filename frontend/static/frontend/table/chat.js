// The table's chat (#33, docs/live-tables.md "Chat"): phrases each reader sees in their own language,
// free text, a mute per seat kept in this browser, and a report for the staff. The server sends a
// phrase's key only; its words are this page's catalogue's. A text is always written as text
// (textContent), never as markup. Players only: spectators have no chat (chat/service.py says why).
const gettext = window.gettext || ((s) => s);
const pgettext = window.pgettext || ((context, s) => s);
const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => o[k]));

// The keys are chat/phrases.py's; the words are the reader's.
export const PHRASES = {
  hello: () => pgettext("chat phrase", "Hello"),
  good_game: () => pgettext("chat phrase", "Good game"),
  well_played: () => pgettext("chat phrase", "Well played"),
  one_moment: () => pgettext("chat phrase", "One moment"),
  rematch: () => pgettext("chat phrase", "Rematch?"),
  thanks: () => pgettext("chat phrase", "Thanks"),
};
const SHOWN = 100; // messages kept on the page
const MUTED_KEY = "tablehall.chat.muted";

/** What a message says, in this reader's words. */
export function saying(message) {
  if (message.phrase) return PHRASES[message.phrase] ? PHRASES[message.phrase]() : "";
  return message.text || "";
}

function loadMuted(game) {
  try {
    const all = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    return new Set((all[game] || []).filter(Number.isInteger));
  } catch {
    return new Set();
  }
}

function saveMuted(game, muted) {
  try {
    const all = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    if (muted.size) all[game] = [...muted];
    else delete all[game];
    localStorage.setItem(MUTED_KEY, JSON.stringify(all));
  } catch {
    // No storage (a private window's quota): the mute lasts as long as the page.
  }
}

export class Chat {
  /** ``send(message)`` sends on the table's socket (false while it is down); ``seatName(n)`` names a
   * seat as the table does; ``table()`` is the latest picture (its seats and this page's seat). */
  constructor({ game, send, seatName, table }) {
    this.game = String(game);
    this.send = send;
    this.seatName = seatName;
    this.table = table;
    this.messages = [];
    this.reported = new Set();
    this.muted = loadMuted(this.game);
    this.sent = new Set(); // command ids of this page's messages, to show their refusal here
    const $ = (id) => document.getElementById(id);
    this.list = $("chat-list");
    this.live = $("chat-live");
    this.errorLine = $("chat-error");
    this.input = $("chat-text");
    this.mutes = $("chat-mute-list");
    const phrases = $("chat-phrases");
    for (const [key, words] of Object.entries(PHRASES)) {
      const button = Object.assign(document.createElement("button"), { type: "button", className: "button chat-phrase", textContent: words() });
      button.dataset.phrase = key;
      button.addEventListener("click", () => this.say({ phrase: key }));
      phrases.append(button);
    }
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text && this.say({ text })) this.input.value = "";
    });
  }

  say(what) {
    const id = `chat:${crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36)}`;
    if (!this.send({ type: "chat", command_id: id, ...what })) {
      this.showError(gettext("Not connected: the message was not sent."));
      return false;
    }
    this.sent.add(id);
    this.showError("");
    return true;
  }

  /** The socket is (again) open: the table's last messages replace what the page shows. */
  opened() {
    this.send({ type: "chat_history" });
  }

  /** A frame of the socket that is the chat's: true when handled here. */
  receive(frame) {
    if (frame.type === "chat_reported") {
      this.reported.add(frame.id);
      this.draw();
      this.tell(gettext("Reported. Thank you: the staff will read it."));
      return true;
    }
    if (frame.type !== "chat") return false;
    if (frame.history) {
      this.messages = frame.messages.slice(-SHOWN);
      this.list.dataset.loaded = "1"; // the table's last messages are shown (a state tests wait for)
    } else {
      const known = new Set(this.messages.map((m) => m.id));
      const fresh = frame.messages.filter((m) => !known.has(m.id));
      this.messages.push(...fresh);
      this.messages = this.messages.slice(-SHOWN);
      const mine = this.mySeat();
      for (const m of fresh) if (m.seat !== mine && !this.muted.has(m.seat)) this.tell(this.line(m));
    }
    this.draw();
    return true;
  }

  /** An error of the socket: true when it answers one of this page's chat messages. */
  error(error) {
    if (!error.command_id || !this.sent.has(error.command_id)) {
      if (!(error.code || "").startsWith("chat_") && error.code !== "no_message" && error.code !== "own_message") return false;
    }
    this.sent.delete(error.command_id);
    this.showError(error.message);
    return true;
  }

  mySeat() {
    const snap = this.table();
    return snap ? snap.seat : null;
  }

  line(message) {
    return interpolate(gettext("%(name)s: %(move)s"), { name: this.seatName(message.seat), move: saying(message) }, true);
  }

  tell(text) {
    this.live.textContent = "";
    this.live.textContent = text;
  }

  showError(text) {
    this.errorLine.textContent = text;
    this.errorLine.hidden = !text;
  }

  report(message) {
    const question = interpolate(gettext("Report this message of %(name)s to the staff?"), { name: this.seatName(message.seat) }, true);
    if (!window.confirm(question)) return;
    this.send({ type: "chat_report", id: message.id, command_id: `chat:r${message.id}` });
    this.sent.add(`chat:r${message.id}`);
  }

  toggleMute(seat, on) {
    if (on) this.muted.add(seat);
    else this.muted.delete(seat);
    saveMuted(this.game, this.muted);
    this.draw();
  }

  /** Draws the messages (muted seats' left out) and the mute switches (after each full picture too:
   * the seats' names come with it). */
  draw() {
    const mine = this.mySeat();
    const shown = this.messages.filter((m) => !this.muted.has(m.seat));
    const items = shown.map((m) => {
      const item = document.createElement("li");
      item.dataset.seat = String(m.seat);
      item.dataset.id = String(m.id);
      // "Name: what was said", in the reader's punctuation, as text only.
      const what = Object.assign(document.createElement("span"), { className: m.phrase ? "chat-said chat-phrase-said" : "chat-said", textContent: this.line(m) });
      if (m.phrase) what.dataset.phrase = m.phrase;
      item.append(what);
      if (m.seat !== mine) {
        const done = this.reported.has(m.id);
        const button = Object.assign(document.createElement("button"), {
          type: "button",
          className: "chat-report",
          textContent: done ? gettext("Reported") : gettext("Report"),
          disabled: done,
        });
        button.setAttribute("aria-label", done ? gettext("Reported") : interpolate(gettext("Report this message of %(name)s"), { name: this.seatName(m.seat) }, true));
        button.addEventListener("click", () => this.report(m));
        item.append(document.createTextNode(" "), button);
      }
      return item;
    });
    if (!items.length) {
      items.push(Object.assign(document.createElement("li"), { className: "meta chat-empty", textContent: gettext("No messages yet.") }));
    }
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    const hadFocus = this.list.contains(document.activeElement) && document.activeElement !== this.list;
    this.list.replaceChildren(...items);
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
    if (hadFocus) this.list.focus({ preventScroll: true }); // the button it was on was drawn again
    const hidden = this.messages.length - shown.length;
    const note = document.getElementById("chat-hidden");
    note.hidden = hidden === 0;
    note.textContent = hidden ? interpolate(gettext("Messages of muted players hidden: %(n)s"), { n: hidden }, true) : "";
    this.drawMutes(mine);
  }

  drawMutes(mine) {
    const snap = this.table();
    if (!snap || !snap.seats) return;
    const focused = document.activeElement && this.mutes.contains(document.activeElement) ? document.activeElement.dataset.seat : null;
    const people = snap.seats.filter((s) => !s.bot && s.number !== mine);
    this.mutes.replaceChildren(...people.map((s) => {
      const label = document.createElement("label");
      const box = Object.assign(document.createElement("input"), { type: "checkbox", checked: this.muted.has(s.number) });
      box.dataset.seat = String(s.number);
      box.addEventListener("change", () => this.toggleMute(s.number, box.checked));
      label.append(box, document.createTextNode(` ${interpolate(gettext("Mute %(name)s"), { name: this.seatName(s.number) }, true)}`));
      return label;
    }));
    if (focused !== null) {
      const again = this.mutes.querySelector(`input[data-seat="${focused}"]`);
      if (again) again.focus();
    }
  }
}
