// The table socket: keeps the latest picture of the table in seq order, resyncs on a gap or a reconnect.
// It names the seat it plays by number only: the page's session proves the seat is this browser's, so no
// credential is ever in the address (docs/live-tables.md).

// Closes after which connecting again the same way would be refused again: the seat is not this
// browser's (any more), or the handshake was malformed. The server says why in an "error" first.
const FINAL_CLOSES = new Set([4400, 4401, 4403]);

export class TableConnection {
  constructor(path, seat, { onState, onAck, onError, onStatus, onOther }) {
    this.path = path;
    this.seat = seat;
    this.handlers = { onState, onAck, onError, onStatus, onOther };
    this.snap = null;
    this.retry = 0;
    this.closed = false;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.seat === null ? "" : `?seat=${encodeURIComponent(this.seat)}`;
    return `${scheme}://${location.host}${this.path}${query}`;
  }

  open() {
    this.socket = new WebSocket(this.url());
    this.socket.addEventListener("open", () => { this.retry = 0; this.handlers.onStatus("open"); });
    this.socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    this.socket.addEventListener("close", (event) => {
      if (FINAL_CLOSES.has(event.code)) {
        this.closed = true;
        this.handlers.onStatus("refused");
        return;
      }
      this.handlers.onStatus("closed");
      if (this.closed) return;
      // Reconnecting gets a fresh "state" message: that is the resync.
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.open(), wait);
    });
  }

  close() {
    this.closed = true;
    this.socket.close();
  }

  receive(message) {
    if (message.type === "state") {
      this.snap = message;
      this.handlers.onState(this.snap, null);
    } else if (message.type === "update") {
      if (!this.snap || message.seq <= this.snap.seq) return; // old news
      if (message.since !== this.snap.seq) { this.resync(); return; } // a gap: start again from the server
      const previous = this.snap;
      this.snap = { ...previous, ...message, type: "state" };
      this.handlers.onState(this.snap, previous);
    } else if (message.type === "seats_changed") {
      this.resync(); // a seat was taken: the whole table again, its names in this reader's language
    } else if (message.type === "ack") {
      this.handlers.onAck(message);
    } else if (message.type === "error") {
      if (message.code === "stale_seq") this.resync();
      this.handlers.onError(message);
    } else if (this.handlers.onOther) {
      this.handlers.onOther(message); // the table's chat (chat.js)
    }
  }

  resync() {
    this.send({ type: "resync" });
  }

  send(message) {
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  command(type, extra = {}) {
    const message = { type, command_id: newCommandId(), expected_seq: this.snap ? this.snap.seq : 0, ...extra };
    return this.send(message) ? message.command_id : null;
  }
}

export function newCommandId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
