"""The spectator edge's server: its sockets (the spectator protocol of docs/live-tables.md) and their
tables' subscriptions (subscriptions.py). The overview: infra/edge/__init__.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import signal
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs, urlparse

from redis.asyncio import Redis
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State

from games.live.pubsub import Subscriptions
from infra.edge.tables import STATE_TTL, Table, applied, encode, read_state

log = logging.getLogger("infra.edge")

MAX_MESSAGE = 8192
# A socket whose unsent bytes pass this is too slow to follow the table: closed (4503), it reconnects.
MAX_BUFFER = 4 * 2**20
TRY_AGAIN, NOT_FOUND, NOT_YOUR_SEAT, BAD_HANDSHAKE = 4503, 4404, 4403, 4400
MAX_ID = 2**63 - 1
SUBSCRIBE_TIMEOUT = 10.0
STOP_TIMEOUT = 5.0  # seconds a stop waits for the Redis subscriptions to close


class Edge:
    def __init__(self, redis_url: str, prefix: str, reader: Any = None) -> None:
        self.redis_url = redis_url
        self.prefix = prefix
        self.path = re.compile(rf"^{re.escape(prefix)}(\d{{1,19}})/$")
        self.tables: dict[int, Table] = {}
        self.read_state = reader or read_state
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="edge-db")
        self.subscriptions: Subscriptions | None = None
        self.stopping = False
        self.background: set[asyncio.Future[None]] = set()
        self.delivered = 0  # frames handed to sockets (bench: CPU per delivered message)

    # --- Redis -----------------------------------------------------------------------------------

    def _message(self, channel: bytes, data: bytes) -> None:
        table = self.tables.get(int(channel.rsplit(b":", 1)[1]))
        if table is None:  # left: its unsubscription is on its way
            return
        text = data.decode()
        try:
            fields = json.loads(text)
            if fields.get("type") == "seats_changed":
                # Its sockets ask for the table again (``resync``): read afresh, with the new names.
                table.forget_pictures()
                self.send_all(table, text)
                return
            seq, since = int(fields["seq"]), int(fields["since"])
        except (ValueError, KeyError, TypeError):  # only games.live.publish writes here: never expected
            log.error("spectator edge: a message on %s is no update: ignored", channel)
            return
        table.heard(seq, since, text, fields)
        for held in table.held.values():
            held.append((seq, text))
        self.send_all(table, text)

    def send_all(self, table: Table, text: str) -> None:
        """One frame, built once, written as it is to every socket of the table.

        ``websockets.broadcast`` encodes the text once but still frames it per socket; with no extension
        negotiated (``compression=None``) a server's text frame is the same bytes for every socket, so
        they are built once here and handed to each open socket's transport, which is all that
        broadcast does after framing. A socket with an extension would get ``broadcast``."""
        data = text.encode()
        frame = Frame(Opcode.TEXT, data).serialize(mask=False)
        others = []
        for ws in table.live:
            if ws.protocol.extensions:
                others.append(ws)
                continue
            if ws.protocol.state is not State.OPEN or ws.send_in_progress is not None:
                continue
            transport = ws.transport
            transport.write(frame)
            if transport.get_write_buffer_size() > MAX_BUFFER:
                self._soon(ws.close(TRY_AGAIN, "too slow"))
        if others:
            broadcast(others, data, text=True)
        self.delivered += len(table.live)

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self.background.add(task)  # kept until done: the loop holds tasks only weakly
        task.add_done_callback(self.background.discard)

    async def lost(self, subscriptions: Subscriptions, why: str) -> None:
        """The Redis connection failed: every subscription may be deaf now (a restarted Redis keeps
        none), so every socket is closed with 4503 and the next one starts afresh."""
        if subscriptions is not self.subscriptions:
            return
        self.subscriptions = None
        if not self.tables:
            log.info("spectator edge: its idle Redis connection ended (%s)", why)
            return
        log.warning("spectator edge lost Redis (%s): closing %d tables' sockets", why, len(self.tables))
        tables, self.tables = self.tables, {}
        await self._close([ws for t in tables.values() for ws in (*t.live, *t.held)], "Redis lost")

    async def _close(self, sockets: list[ServerConnection], reason: str) -> None:
        await asyncio.gather(*(ws.close(TRY_AGAIN, reason) for ws in sockets), return_exceptions=True)

    # --- a table's picture ---------------------------------------------------------------------------

    async def _join(self, game_id: int, ws: ServerConnection) -> Table:
        table = self.tables.get(game_id)
        if table is None:
            if self.subscriptions is None:
                self.subscriptions = Subscriptions(self.redis_url, self._message, self.lost)
            # Asked at once, in order: a table left and watched again is unsubscribed, then subscribed.
            table = self.tables[game_id] = Table(game_id, self.subscriptions.subscribe(_channel(game_id)))
        table.held[ws] = []
        try:
            await asyncio.wait_for(asyncio.shield(table.subscribed), SUBSCRIBE_TIMEOUT)
        except BaseException:
            self._leave(table, ws)
            raise
        return table

    def _leave(self, table: Table, ws: ServerConnection) -> None:
        table.live.discard(ws)
        table.held.pop(ws, None)
        if table.live or table.held or self.tables.get(table.game_id) is not table:
            return
        del self.tables[table.game_id]
        if self.subscriptions is not None:
            # Nobody waits for it: the owner writes it before any later subscription to the table.
            self.subscriptions.unsubscribe(_channel(table.game_id))

    async def picture(self, table: Table, language: str) -> tuple[int, str]:
        """The table as a spectator reading ``language`` sees it now, its seq and its ``state`` frame:
        read once by however many sockets ask at once, encoded once while it is kept."""
        state = table.states.get(language)
        if state is not None and time.monotonic() - table.read_at[language] < STATE_TTL:
            return int(state["seq"]), table.text(language)
        reading = table.reading.get(language)
        if reading is None:
            reading = table.reading[language] = asyncio.ensure_future(self._read(table, language))
        try:
            state = await asyncio.shield(reading)
        finally:
            if reading.done() and table.reading.get(language) is reading:
                del table.reading[language]
        if table.states.get(language) is state:
            return int(state["seq"]), table.text(language)
        return int(state["seq"]), encode(state)

    async def _read(self, table: Table, language: str) -> dict[str, Any]:
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        state: dict[str, Any] | None = {
            "type": "state",
            **await loop.run_in_executor(self.pool, self.read_state, table.game_id, language),
        }
        fresh = state
        # The updates heard while it was read, applied as a client would.
        for seq, since, text in list(table.recent):
            state = applied(state, seq, since, text) if state is not None else None
        if state is None:  # a gap among them (a publication failed): served, not kept
            assert fresh is not None
            return fresh
        table.keep(language, state, started)
        return state

    # --- a socket ------------------------------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        from django.utils import translation

        from games.access.ratelimit import RateLimited, socket_bucket
        from games.engines.base import _
        from games.errors import DatabaseUnavailable, Forbidden, ServiceError
        from games.words.i18n import scope_language

        request = ws.request
        assert request is not None
        headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in request.headers.raw_items()]
        language = scope_language({"headers": headers})

        async def error(exc: ServiceError, close: int | None = None, **extra: Any) -> None:
            with translation.override(language):
                await ws.send(json.dumps({"type": "error", **exc.localized(), **extra}))
            if close is not None:
                await ws.close(close)

        address = urlparse(request.path)
        match = self.path.match(address.path)
        if match is None or int(match.group(1)) > MAX_ID:
            await ws.close(NOT_FOUND)
            return
        game_id = int(match.group(1))
        query = parse_qs(address.query, keep_blank_values=True)
        if "token" in query:
            message = _("Send the seat's token in the X-Seat-Token header, never in the address.")
            await error(ServiceError("token_in_address", message), BAD_HANDSHAKE)
            return
        if "seat" in query or "X-Seat-Token" in request.headers:
            # Players connect to Daphne (the table page gives them its address): the edge has no seat.
            await error(Forbidden("not_your_seat", _("You do not play this seat.")), NOT_YOUR_SEAT)
            return
        if self.stopping:
            await ws.close(TRY_AGAIN)
            return
        try:
            table = await self._join(game_id, ws)
        except Exception:  # noqa: BLE001 - no Redis: nothing to hear the table with
            log.warning("spectator edge: could not subscribe to game %s", game_id, exc_info=True)
            await ws.close(TRY_AGAIN)
            return
        try:
            sent = await self._first(table, ws, language, since=_since(query))
            held = table.held.get(ws, [])
            while held:  # what arrived while the state was read (and arrives while these are sent)
                seq, text = held.pop(0)
                if seq > sent:
                    await ws.send(text)
                    sent = seq
            # No await from here on: no update can fall between the last one held and going live.
            table.held.pop(ws, None)
            if self.tables.get(game_id) is not table:  # Redis was lost meanwhile
                await ws.close(TRY_AGAIN)
                return
            table.live.add(ws)
            bucket = socket_bucket()
            async for raw in ws:
                if bucket is not None and not bucket.take():
                    await error(RateLimited())
                    continue
                await self._answer(table, ws, raw, error, _, language)
        except ServiceError as exc:
            if exc.code == "unknown_game":
                await ws.close(NOT_FOUND)
            elif isinstance(exc, DatabaseUnavailable):
                await error(exc, TRY_AGAIN)
            else:
                raise
        except ConnectionClosed:
            pass
        finally:
            self._leave(table, ws)

    async def _first(self, table: Table, ws: ServerConnection, language: str, since: int | None) -> int:
        """Send the state (or the updates since ``since``): the seq the socket has reached."""
        if since is not None:
            texts, head = table.resumed(since), table.seq
            if texts is not None and head is not None:
                for text in texts:
                    await ws.send(text)
                return head
        seq, text = await self.picture(table, language)
        await ws.send(text)
        return seq

    async def _answer(
        self, table: Table, ws: ServerConnection, raw: Any, error: Any, _: Any, language: str
    ) -> None:
        from games.errors import DatabaseUnavailable, Forbidden, ServiceError

        if not isinstance(raw, str) or len(raw) > MAX_MESSAGE:
            await error(ServiceError("bad_json", _("Send a JSON object of at most 8 KB.")))
            return
        try:
            content = json.loads(raw)
        except (ValueError, RecursionError):
            await error(ServiceError("bad_json", _("The message is not valid JSON.")))
            return
        if not isinstance(content, dict):
            await error(ServiceError("bad_json", _("Send a JSON object.")))
        elif content.get("type") == "resync":
            try:
                await ws.send((await self.picture(table, language))[1])
            except DatabaseUnavailable as exc:
                await error(exc)  # the client keeps its picture
        else:  # an action or a table command, as Daphne answers a spectator's
            command_id = content.get("command_id")
            safe = command_id if isinstance(command_id, str) and len(command_id) <= 64 else None
            await error(Forbidden("spectator", _("Spectators watch; they cannot play.")), command_id=safe)

    # --- the server ----------------------------------------------------------------------------------

    async def check_origin(self, ws: ServerConnection, request: Request) -> Response | None:
        """The pages of the site only, as infra/origin.py checks on Daphne. ``GET /healthz`` (no
        upgrade) answers whether Redis answers, for compose and load balancers."""
        from channels.security.websocket import OriginValidator

        from infra.origin import _well_formed, allowed_origins

        if request.path == "/healthz" and "Upgrade" not in request.headers:
            return await self.health(ws)
        origin = request.headers.get("Origin")
        if origin is not None and not _well_formed(origin.encode("latin-1")):
            return ws.respond(403, "Forbidden\n")
        validator = OriginValidator(None, allowed_origins())
        if not validator.valid_origin(urlparse(origin) if origin is not None else None):
            return ws.respond(403, "Forbidden\n")
        return None

    async def health(self, ws: ServerConnection) -> Response:
        client = Redis.from_url(self.redis_url, socket_connect_timeout=2, socket_timeout=2)
        try:
            await client.ping()
        except Exception as exc:  # noqa: BLE001 - the kind of error only, never the URL
            return ws.respond(503, f"redis: {type(exc).__name__}\n")
        finally:
            await client.aclose()
        return ws.respond(200, "ok\n")

    async def run(
        self, host: str, port: int, ready: asyncio.Future[int] | None = None, reuse_port: bool = False
    ) -> None:
        loop = asyncio.get_running_loop()
        stop = loop.create_future()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, _settle, stop)
        async with serve(
            self.handler,
            host,
            port,
            process_request=self.check_origin,
            compression=None,  # each frame is written as it is to every socket: nothing per socket
            max_size=4 * MAX_MESSAGE,
            server_header=None,
            reuse_port=reuse_port,
        ) as server:
            bound = next(iter(server.sockets)).getsockname()[1]
            log.info("spectator edge listening on %s:%s, sockets under %s", host, bound, self.prefix)
            print(f"spectator edge on {host}:{bound} ready.", flush=True)
            if ready is not None:
                ready.set_result(bound)
            await stop
            await self.shutdown(server)

    async def shutdown(self, server: Any) -> None:
        """Stop taking sockets, then close every one with 4503: each client connects again elsewhere
        (or here once the edge is back) and gets the whole picture."""
        self.stopping = True
        server.close(close_connections=False)
        sockets = [ws for t in self.tables.values() for ws in (*t.live, *t.held)]
        log.info("spectator edge stopping: closing %s sockets", len(sockets))
        # Each close waits for the client's answer at most close_timeout (a client that stopped reading
        # never answers).
        await self._close(sockets, "the spectator edge is restarting")
        if self.subscriptions is not None:
            subscriptions, self.subscriptions = self.subscriptions, None
            closing = asyncio.ensure_future(subscriptions.close())
            # Bounded: a stop must never wait on Redis (#36: an edge whose subscriptions' close never
            # ended stayed up after SIGTERM, holding its port and its database sessions).
            done, _ = await asyncio.wait({closing}, timeout=STOP_TIMEOUT)
            if not done:
                log.warning("spectator edge: Redis subscriptions not closed after %.0f s: left", STOP_TIMEOUT)
        self.pool.shutdown(wait=False)
        log.info("spectator edge stopped")


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _since(query: dict[str, list[str]]) -> int | None:
    from games import bounds

    values = query.get("since", [])
    # "²" is a digit to isdigit() but not to int(): read as every bound reads a number (games/bounds.py).
    return bounds.SINCE.parse_or(values[0], None) if len(values) == 1 else None


def _channel(game_id: int) -> str:
    from games.live.groups import edge_channel

    return edge_channel(game_id)
