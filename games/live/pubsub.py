"""Redis pub/sub subscriptions of one process: one connection, owned by one task. The spectator edge
(infra/edge/) holds one; so does each web process for its tables' sockets (games/live/feeds.py).

Sockets' tasks never touch the connection. ``subscribe`` and ``unsubscribe`` queue a request; the owner
writes the requests in their order, reads everything Redis sends, and matches each confirmation to the
oldest request waiting on its channel (Redis answers a connection's commands in order, one confirmation
per channel asked). So:
- a late confirmation (a table left while its subscription was still unanswered, then watched again)
  is taken for the request it answers, never for the next one;
- no socket's task is ever half-way through a write on the shared connection when it is cancelled or
  times out (redis-py then drops the connection under whoever reads it);
- nothing reconnects behind its owner's back (redis-py's ``PubSub`` reconnects on its own and subscribes
  again, and what was published meanwhile is lost unnoticed).
Only a failure of the connection itself (or a reply that answers nothing asked) ends it: every waiting
request fails, ``lost`` is called once, and the owner starts afresh with a new ``Subscriptions``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio.connection import ConnectionPool

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5.0
# A write Redis does not take in this long: the connection is treated as lost (reads wait forever:
# a quiet table is not a dead Redis).
WRITE_TIMEOUT = 10.0

Heard = Callable[[bytes, bytes], None]
Lost = Callable[["Subscriptions", str], Awaitable[None]]


class Subscriptions:
    def __init__(self, url: str, heard: Heard, lost: Lost) -> None:
        self.url = url
        self.heard = heard  # (channel, data) of each message: called in the owner's task
        self.lost = lost
        self.requests: asyncio.Queue[tuple[bytes, bytes, asyncio.Future[None]]] = asyncio.Queue()
        self.waiting: dict[bytes, deque[tuple[bytes, asyncio.Future[None]]]] = {}
        self.ended = False
        self.task = asyncio.get_running_loop().create_task(self._own())

    def subscribe(self, channel: str) -> asyncio.Future[None]:
        """Done when Redis confirms the subscription; failed if the connection is lost first."""
        return self._ask(b"subscribe", channel)

    def unsubscribe(self, channel: str) -> asyncio.Future[None]:
        return self._ask(b"unsubscribe", channel)

    def _ask(self, kind: bytes, channel: str) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.ended:
            _fail(future, ConnectionError("the Redis pub/sub connection is closed"))
        else:
            self.requests.put_nowait((kind, channel.encode(), future))
        return future

    async def close(self) -> None:
        """Its owner stops: no loss to report."""
        self.ended = True
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    async def _own(self) -> None:
        conn: Any = None
        reading: asyncio.Future[Any] | None = None
        asking: asyncio.Future[tuple[bytes, bytes, asyncio.Future[None]]] | None = None
        why = ""
        try:
            pool = ConnectionPool.from_url(
                self.url,
                socket_connect_timeout=CONNECT_TIMEOUT,
                socket_timeout=WRITE_TIMEOUT,
                socket_keepalive=True,
                protocol=2,  # replies and messages as plain arrays, the same on every Redis version
            )
            conn = pool.make_connection()
            await conn.connect()
            reading = asyncio.ensure_future(conn.read_response(timeout=math.inf))
            asking = asyncio.ensure_future(self.requests.get())
            while True:
                await asyncio.wait((reading, asking), return_when=asyncio.FIRST_COMPLETED)
                if asking.done():
                    kind, channel, future = asking.result()
                    self.waiting.setdefault(channel, deque()).append((kind, future))
                    await conn.send_command(kind.upper(), channel)
                    asking = asyncio.ensure_future(self.requests.get())
                if reading.done():
                    self._reply(reading.result())
                    reading = asyncio.ensure_future(conn.read_response(timeout=math.inf))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the connection failed: every subscription may be deaf
            why = f"{type(exc).__name__}: {exc}"
        finally:
            self.ended = True
            for pending in (reading, asking):
                if pending is not None and not pending.done():
                    pending.cancel()
            if reading is not None and reading.done() and not reading.cancelled():
                reading.exception()  # retrieved: its error is the one reported
            self._fail_all(ConnectionError(why or "the Redis pub/sub connection is closed"))
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.disconnect(nowait=True)
        await self.lost(self, why)

    def _reply(self, reply: Any) -> None:
        if not isinstance(reply, list) or len(reply) != 3:
            raise ConnectionError(f"Redis sent what no subscription expects: {type(reply).__name__}")
        kind, channel, data = reply
        if kind == b"message":
            try:
                self.heard(channel, data)
            except Exception:  # a fault in one message's handling: never a reason to drop every socket
                log.exception("a message on %r could not be handled", channel)
            return
        queue = self.waiting.get(channel)
        if not queue or queue[0][0] != kind:
            raise ConnectionError(f"Redis confirmed {kind!r} on {channel!r}, which was not asked")
        _kind, future = queue.popleft()
        if not queue:
            del self.waiting[channel]
        if not future.done():
            future.set_result(None)

    def _fail_all(self, exc: Exception) -> None:
        for queue in self.waiting.values():
            for _kind, future in queue:
                _fail(future, exc)
        self.waiting.clear()
        while not self.requests.empty():
            _fail(self.requests.get_nowait()[2], exc)


def _fail(future: asyncio.Future[None], exc: Exception) -> None:
    if not future.done():
        future.set_exception(exc)
        future.exception()  # retrieved: whoever waited on it closes its socket by itself


# A channel layer's server given by these keys alone is a plain Redis URL this process can reach with
# its own connections (redis-py): then table updates travel on Redis pub/sub (games/live/feeds.py).
PLAIN_HOST_KEYS = frozenset({"address", "socket_timeout", "socket_connect_timeout", "max_connections"})


def redis_url(layer: Any) -> str | None:
    """The Redis URL that carries table updates beside ``layer`` (channels-redis on plain Redis URLs:
    its first server, as for the spectator edge), or None: the layer's own groups carry them (the
    in-memory layer of the embedded mode and the tests, or servers given as Sentinel or with TLS
    options this process would not reproduce)."""
    hosts = getattr(layer, "hosts", None)
    if not hosts or not all(hasattr(layer, name) for name in ("_group_key", "consistent_hash")):
        return None
    if not all(isinstance(host, dict) and set(host) <= PLAIN_HOST_KEYS for host in hosts):
        return None
    address = hosts[0].get("address")
    return address if isinstance(address, str) else None
