"""The public API's stream: a table's updates for one audience as NDJSON over HTTP (docs/api.md), for a
bot or a scoreboard that cannot keep a socket. Each line is what the table socket would send: first
the ``state`` (or, with ``?since=SEQ``, exactly the updates after SEQ: games/live/resume.py), then every
``update`` as it happens, each one once; a blank line now and then while nothing happens. It ends
after the line that says the game is over (``finished`` or ``stopped``); the next game at the same
table (a rematch) is read with a new stream.

The stream subscribes to its audience's updates before it reads the table, as the socket does
(games/live/feeds.py), so no move falls between the first lines and the live ones; a live update the first
lines already held is skipped.
It joins its credentials' groups too: a token revoked ends the stream at once (games/access/credentials.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Query, Router
from redis.exceptions import RedisError

from frontend.api import schemas
from frontend.api.auth import TokenAuth, caller
from frontend.api.tables import ERRORS, audience_of, game_of
from games import bounds
from games.access import credentials
from games.errors import LiveUnavailable, database_guard
from games.eventlog.tables import load_table
from games.live import feeds, presence, publish, resume
from games.live.groups import seat_group

log = logging.getLogger(__name__)

router = Router(tags=["tables"], auth=TokenAuth())
#: While nothing happens, a blank line this often (seconds): proxies and clients keep the stream open.
KEEPALIVE = 20.0
NDJSON = "application/x-ndjson"


class StreamQuery(schemas.Schema):
    seat: int | None = bounds.SEAT.schema(
        strict=False,
        default=None,
        description="Your seat (its credential or a read/play token); none: the spectators'.",
    )
    since: int | None = bounds.SINCE.schema(
        strict=False,
        default=None,
        description="The last seq you have: the stream starts with the updates after it.",
    )


@router.get(
    "/tables/{table}/stream",
    response={200: None, **ERRORS},
    url_name="stream",
    openapi_extra={
        "responses": {
            200: {
                "description": "NDJSON: one `state` or `update` message per line (docs/live-tables.md), "
                "blank lines to keep the connection open.",
                "content": {NDJSON: {"schema": {"type": "object", "additionalProperties": True}}},
            }
        }
    },
)
async def stream(request: HttpRequest, table: str, query: Query[StreamQuery]) -> StreamingHttpResponse:
    """A table's updates for your seat (`?seat=N`) or for the spectators, as they happen, one JSON
    message per line. With `?since=SEQ`: first exactly the updates after SEQ (or the whole state when
    SEQ is too old), so a client that lost its connection resumes without losing or doubling a move."""
    game_id, number = await sync_to_async(_who)(request, table, query.seat)
    layer = get_channel_layer()
    if layer is None:  # settings always name one (infra/settings.py)
        raise RuntimeError("no channel layer")
    # The credentials it was opened with: their end (a revoked token) ends the stream
    # (games/access/credentials.py).
    groups = _credential_groups(request)
    # Everything the stream hears, in one queue: the feed's texts, the channel's messages; None: lost.
    heard: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    watch: feeds.Watch | None = None
    if feeds.on_redis(layer) or number is None:  # the process's shared subscription (games/live/feeds.py)

        async def update(text: str) -> None:
            heard.put_nowait({"type": "table.update", "text": text})

        async def lost() -> None:
            heard.put_nowait(None)

        try:
            watch = await feeds.join(layer, game_id, update, seat=number, lost=lost, counted=False)
        except (ConnectionError, RedisError, OSError) as exc:  # not the client's fault, nor a bug: 503
            log.warning("game %s: could not subscribe a stream (%s)", game_id, exc)
            raise LiveUnavailable from None
    else:  # the embedded mode: a seat's updates come to its group
        groups.append(seat_group(game_id, number))
    channel = await layer.new_channel()
    try:
        for group in groups:
            await layer.group_add(group, channel)
        first, last = await sync_to_async(_first_lines)(game_id, number, query.since)
    except BaseException:
        await _leave(layer, Listening(groups, channel, heard, watch))
        raise
    seat = (game_id, number) if number is not None else None
    lines = _lines(layer, Listening(groups, channel, heard, watch), first, last, seat)
    response = StreamingHttpResponse(lines, content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


@dataclass
class Listening:
    """What a stream listens on: its channel in ``groups`` (the credentials', and in the embedded mode a
    seat's updates) and the table's feed (``watch``), both heard in ``heard``."""

    groups: list[str]
    channel: str
    heard: asyncio.Queue[dict[str, Any] | None]
    watch: feeds.Watch | None


def _credential_groups(request: HttpRequest) -> list[str]:
    found = caller(request)
    groups = [credentials.token_group(found.token.pk)] if found.token is not None else []
    if found.seat_token is not None:
        groups.append(credentials.seat_group(found.seat_token))
    return groups


async def _leave(layer: Any, on: Listening) -> None:
    for group in on.groups:
        await layer.group_discard(group, on.channel)
    if on.watch is not None:
        await feeds.leave(on.watch)


async def _pump(layer: Any, on: Listening) -> None:
    """The channel's messages into the stream's queue (a receive is never cancelled while a message
    may be on its way: only when the stream ends)."""
    while True:
        on.heard.put_nowait(await layer.receive(on.channel))


def _who(request: HttpRequest, table: str, seat: int | None) -> tuple[int, int | None]:
    with database_guard():
        game = game_of(table, request)
        return game.pk, audience_of(request, game, seat)


def _first_lines(game_id: int, seat: int | None, since: int | None) -> tuple[list[str], int]:
    """The lines before the live ones, and the last seq they hold."""
    with database_guard():
        table = load_table(game_id)
        if since is not None:
            missed = resume.updates_after(table, seat, since)
            if missed is not None:
                return missed, max([since, *(_seq(text) for text in missed)])
        state = {"type": "state", **publish.snapshot(table, seat)}
        return [json.dumps(state, separators=(",", ":"))], int(state["seq"])


def _seq(text: str) -> int:
    return _read(text)[0]


def _read(text: str) -> tuple[int, bool]:
    """A line's seq, and whether it says the game is over (finished, or stopped before its end)."""
    data = json.loads(text)
    seq = data.get("seq")
    return (seq if isinstance(seq, int) else -1), bool(data.get("finished") or data.get("stopped"))


async def _lines(
    layer: Any,
    on: Listening,
    first: list[str],
    last: int,
    seat: tuple[int, int] | None = None,
) -> AsyncIterator[str]:
    # A seat's open stream is a connection to its table, as its socket is (games/live/presence.py).
    if seat is not None:
        await sync_to_async(presence.joined)(*seat)
    pump: asyncio.Task[None] | None = None
    getting: asyncio.Future[dict[str, Any] | None] | None = None
    try:
        for text in first:
            yield text + "\n"
        if first and _read(first[-1])[1]:
            return  # the game is over: nothing more will come (#37: the stream never closed)
        if on.watch is not None:
            await feeds.live(on.watch)
        pump = asyncio.create_task(_pump(layer, on))
        # A get is never cancelled for a keep-alive: the same one is waited for again.
        getting = asyncio.ensure_future(on.heard.get())
        while True:
            done, _pending = await asyncio.wait({getting}, timeout=KEEPALIVE)
            if not done:
                yield "\n"
                continue
            message = getting.result()
            getting = asyncio.ensure_future(on.heard.get())
            if message is None or message.get("type") == credentials.MESSAGE:
                return  # the feed was lost (the client resumes with ?since=SEQ), or revoked
            if message.get("type") != "table.update":
                continue
            seq, over = _read(message["text"])
            if seq <= last:
                continue  # the first lines already held it
            last = seq
            yield message["text"] + "\n"
            if over:
                return  # the game's last line: the stream ends (a new game is a new stream)
    finally:
        for task in (pump, getting):
            if task is not None:
                task.cancel()
        await _leave(layer, on)
        if seat is not None:
            await sync_to_async(presence.left)(*seat)
