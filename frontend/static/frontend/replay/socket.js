// The replay socket: one connection, reopened after a drop; every message goes to one handler.

export class ReplaySocket {
  constructor(path, { onOpen, onMessage, onStatus }) {
    this.path = path;
    this.handlers = { onOpen, onMessage, onStatus };
    this.retry = 0;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.socket = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket.addEventListener("open", () => {
      this.retry = 0;
      this.handlers.onStatus("open");
      this.handlers.onOpen();
    });
    this.socket.addEventListener("message", (event) => this.handlers.onMessage(JSON.parse(event.data)));
    this.socket.addEventListener("close", () => {
      this.handlers.onStatus("closed");
      if (this.closed) return;
      setTimeout(() => this.open(), Math.min(10000, 500 * 2 ** this.retry++));
    });
  }

  send(message) {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
