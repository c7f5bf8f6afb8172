"""A TCP proxy between the app and PostgreSQL that cuts a connection at a chosen query.

``arm(pattern, when)`` makes the next client message matching ``pattern`` (a regex on the bytes the
app sends; Django's psycopg binds parameters client-side, so a command id is in the query text) end
that connection, either
- ``"before"``: the query is never forwarded (nothing reaches the server), or
- ``"after"``: the query is forwarded and the server's answer withheld (in autocommit the server has
  committed; inside a transaction it rolls back when the connection drops).
The app sees its connection lost in the middle of that query. Plain TCP only: the app must connect
with ``sslmode=disable`` for the proxy to read the queries.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from dataclasses import dataclass, field

CHUNK = 65536
WINDOW = 8192  # bytes of the client's stream kept to match a query split over reads


@dataclass
class Trap:
    pattern: re.Pattern[bytes]
    when: str  # "before" | "after"
    sprung: threading.Event = field(default_factory=threading.Event)


class PostgresProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.trap: Trap | None = None
        self.lock = threading.Lock()
        self.sockets: set[socket.socket] = set()
        self.connections = 0
        self.closed = False
        threading.Thread(target=self._accept, name="pg-proxy", daemon=True).start()

    def arm(self, pattern: bytes, when: str) -> Trap:
        assert when in ("before", "after")
        trap = Trap(re.compile(pattern, re.DOTALL), when)
        with self.lock:
            self.trap = trap
        return trap

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.listener.close()
        with self.lock:
            for sock in list(self.sockets):
                _shut(sock)

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:
                _shut(client)
                continue
            with self.lock:
                self.sockets |= {client, server}
                self.connections += 1
            pair = _Pair(self, client, server)
            threading.Thread(target=pair.upstream, daemon=True).start()
            threading.Thread(target=pair.downstream, daemon=True).start()

    def _take_trap(self, seen: bytes) -> Trap | None:
        with self.lock:
            trap = self.trap
            if trap is not None and trap.pattern.search(seen):
                self.trap = None
                return trap
        return None


class _Pair:
    """One app connection and its server connection, pumped by two threads."""

    def __init__(self, proxy: PostgresProxy, client: socket.socket, server: socket.socket) -> None:
        self.proxy, self.client, self.server = proxy, client, server
        self.withhold: Trap | None = None  # the next answer from the server ends the connection

    def cut(self, trap: Trap) -> None:
        # Marked first: the app answers as soon as its connection drops, and the test may look then.
        trap.sprung.set()
        _shut(self.client)
        _shut(self.server)

    def upstream(self) -> None:
        seen = b""
        while data := _recv(self.client):
            seen = (seen + data)[-WINDOW:]
            trap = self.proxy._take_trap(seen)
            if trap is not None and trap.when == "before":
                self.cut(trap)
                return
            if trap is not None:
                seen = b""
                self.withhold = trap
            if not _send(self.server, data):
                break
        _shut(self.server)

    def downstream(self) -> None:
        while data := _recv(self.server):
            if self.withhold is not None:
                self.cut(self.withhold)
                return
            if not _send(self.client, data):
                break
        _shut(self.client)


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(CHUNK)
    except OSError:
        return b""


def _send(sock: socket.socket, data: bytes) -> bool:
    try:
        sock.sendall(data)
        return True
    except OSError:
        return False


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
