"""What every JSON socket of the site checks before a message reaches its consumer.

A message is refused, with an ``error`` (a stable code and a sentence in the page's language) and
nothing else done, when the connection sends faster than its bucket allows (``rate_limited``,
games/access/ratelimit.py), when it is a binary frame or larger than the consumer's ``max_message``
characters, or when it is not JSON — nested too deep for the parser included (``bad_json``).

When the channel layer loses Redis, every socket of the process is closed with ``TRY_AGAIN`` (4503)
instead of failing with a server error: see ``GuardedJsonConsumer.__call__``. A database lost while
the handshake reads the session (before any consumer) does the same: ``SessionReadGuard``.

A socket joins the groups of the credentials its handshake presents: signing out, or the end of the
seat credential it presented, closes it with ``credentials.CLOSED`` (4401) at once.

A path that no socket route matches (a typo, an id past 64 bits: games/ids.py) reaches
``NoSuchSocket``, the routes' last entry, and is closed with ``NOT_FOUND`` (4404) — without it
Channels raised, and Daphne answered the handshake with a 500 and logged a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import weakref
from typing import Any

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError
from django.utils import translation
from redis.exceptions import MaxConnectionsError, RedisError

from games.access import credentials, ratelimit
from games.engines.base import _
from games.errors import DatabaseUnavailable, ServiceError
from games.words.i18n import scope_language

log = logging.getLogger(__name__)
# Close code: the server cannot serve this socket right now (its database or its channel layer is
# down). Clients connect again, as after any close, and get the whole picture afresh.
TRY_AGAIN = 4503
# Close code: no such socket, game, tournament or room. Clients do not connect again.
NOT_FOUND = 4404
_sockets: weakref.WeakSet[GuardedJsonConsumer] = weakref.WeakSet()


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    max_message = 8192
    too_large = _("Send a JSON object of at most 8 KB.")
    language = "en"
    _bucket: ratelimit.TokenBucket | None
    _accepted = False
    _ended = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        _sockets.add(self)
        try:
            await super().__call__(scope, receive, self.quiet(send))
        except RedisError as exc:
            if self._ended:  # raised while leaving a socket already closed: nothing to close
                log.info("channel layer error after a socket closed: %r", exc)
                return
            if isinstance(exc, MaxConnectionsError):
                # This process has all the Redis connections it may use busy at once: Redis is there and
                # every other socket's group is intact. Only this one closes, and its client comes back.
                log.warning("channel layer busy (%r): closing one socket", exc)
                await self.end(TRY_AGAIN)
                return
            # The channel layer lost Redis. Groups live there, and a restarted Redis has none: a socket
            # of this process that kept waiting would never hear of its table again. So each one
            # closes (TRY_AGAIN), connects again, joins its group afresh and gets the whole table.
            # (A socket still connecting joins its group after this, or fails as this one did.)
            # The shared subscriptions on the layer's groups are in the same case.
            from games.live import feeds

            feeds.detach_all()
            others = [s for s in _sockets if s is not self and s._accepted and not s._ended]
            log.warning("channel layer lost (%r): closing %d sockets", exc, len(others) + 1)
            for consumer in [self, *others]:
                await consumer.end(TRY_AGAIN)
        finally:
            _sockets.discard(self)

    def quiet(self, send: Any) -> Any:
        """``send``, except that a client gone while the server was speaking to it (a state being sent
        on connect, an update) ends this socket instead of raising into Daphne: nothing is lost, the
        disconnect comes next, and the client gets the whole picture when it connects again."""

        async def quiet_send(message: dict[str, Any]) -> None:
            try:
                await send(message)
            except Disconnected:
                self._ended = True
                log.info("a socket closed while the server was sending to it")

        return quiet_send

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        # The credentials the handshake presents (its session, its X-Seat-Token): their end closes this
        # socket (games/access/credentials.py). Channels joins ``groups`` first and leaves them on disconnect.
        joined: list[str] = list(getattr(self, "groups", None) or [])
        self.groups = [*joined, *credentials.of_scope(self.scope)]
        await super().websocket_connect(message)

    async def credential_closed(self, message: dict[str, Any]) -> None:
        await self.end(credentials.CLOSED)

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        self._accepted = True

    async def end(self, code: int) -> None:
        """Close with ``code``, accepting first: a refused handshake would read as 403 (forbidden)."""
        if self._ended:
            return
        self._ended = True
        with contextlib.suppress(Exception):  # the socket may be gone already
            if not self._accepted:
                await self.accept()
            await self.close(code=code)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self._ended = True
        await super().websocket_disconnect(message)

    def error_message(self, exc: ServiceError) -> dict[str, Any]:
        """An error in the language of the page that opened the socket."""
        with translation.override(self.language):
            return {"type": "error", **exc.localized()}

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            content = self._parse(text_data)
        except ServiceError as exc:
            await self.send_json(self.error_message(exc))
            return
        await self.receive_json(content)

    def _parse(self, text_data: str | None) -> Any:
        if not hasattr(self, "_bucket"):
            self._bucket = ratelimit.socket_bucket()
        if self._bucket is not None and not self._bucket.take():
            raise ratelimit.RateLimited()
        if text_data is None or len(text_data) > self.max_message:
            raise ServiceError("bad_json", self.too_large)
        try:
            return json.loads(text_data)
        except (ValueError, RecursionError):  # deep nesting overflows the parser: as bad as a typo
            raise ServiceError("bad_json", _("The message is not valid JSON.")) from None


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any socket path no route matches: accepted, so that the client reads the code, and closed
    with NOT_FOUND at once. Nothing is logged: a typo is not the server's failure."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=NOT_FOUND)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A frame sent before the close arrived: ignored."""


class SessionReadGuard:
    """ASGI middleware around Channels' AuthMiddlewareStack, which reads the session and its user from
    the database before any consumer runs: a lost database there would fail the handshake with a 500.
    The socket is accepted, told ``database_unavailable`` and closed with TRY_AGAIN instead."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        answered = False

        async def watched(message: dict[str, Any]) -> None:
            nonlocal answered
            answered = answered or message["type"] in ("websocket.accept", "websocket.close")
            await send(message)

        try:
            return await self.application(scope, receive, watched)
        except (OperationalError, InterfaceError) as exc:
            if answered:  # a consumer's own failure, after its handshake: not this guard's
                raise
            log.warning("database unavailable during a socket's handshake: %s", type(exc).__name__)
            with translation.override(scope_language(scope)):
                error = {"type": "error", **DatabaseUnavailable().localized()}
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(error)})
            await send({"type": "websocket.close", "code": TRY_AGAIN})
