"""The public API's stream: a table's updates for one audience as NDJSON over HTTP (docs/api.md), for a
bot or a scoreboard that cannot keep a socket. Each line is what the table socket would send: first
the ``state`` (or, with ``?since=SEQ``, exactly the updates after SEQ: games/resume.py), then every
``update`` as it happens, each one once; a blank line now and then while nothing happens.

The stream joins the audience's group before it reads the table, as the socket does, so no move falls
between the first lines and the live ones; a live update the first lines already held is skipped.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Query, Router
from pydantic import Field

from frontend.api import schemas
from frontend.api.auth import TokenAuth
from frontend.api.tables import ERRORS, audience_of, game_of
from games import publish, resume, service
from games.errors import database_guard
from games.groups import public_group, seat_group

router = Router(tags=["tables"], auth=TokenAuth())
#: While nothing happens, a blank line this often (seconds): proxies and clients keep the stream open.
KEEPALIVE = 20.0
NDJSON = "application/x-ndjson"


class StreamQuery(schemas.Schema):
    seat: int | None = Field(
        None, description="Your seat (its credential or a read/play token); none: the spectators'."
    )
    since: int | None = Field(
        None, ge=0, description="The last seq you have: the stream starts with the updates after it."
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
    group = seat_group(game_id, number) if number is not None else public_group(game_id)
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        first, last = await sync_to_async(_first_lines)(game_id, number, query.since)
    except BaseException:
        await layer.group_discard(group, channel)
        raise
    response = StreamingHttpResponse(_lines(layer, group, channel, first, last), content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


def _who(request: HttpRequest, table: str, seat: int | None) -> tuple[int, int | None]:
    with database_guard():
        game = game_of(table)
        return game.pk, audience_of(request, game, seat)


def _first_lines(game_id: int, seat: int | None, since: int | None) -> tuple[list[str], int]:
    """The lines before the live ones, and the last seq they hold."""
    with database_guard():
        table = service.load_table(game_id)
        if since is not None:
            missed = resume.updates_after(table, seat, since)
            if missed is not None:
                return missed, max([since, *(_seq(text) for text in missed)])
        state = {"type": "state", **publish.snapshot(table, seat)}
        return [json.dumps(state, separators=(",", ":"))], int(state["seq"])


def _seq(text: str) -> int:
    seq = json.loads(text).get("seq")
    return seq if isinstance(seq, int) else -1


async def _lines(layer: Any, group: str, channel: str, first: list[str], last: int) -> AsyncIterator[str]:
    try:
        for text in first:
            yield text + "\n"
        # The receive is never cancelled for a keep-alive (a cancelled receive may drop a message):
        # the same one is waited for again.
        receiving = asyncio.ensure_future(layer.receive(channel))
        try:
            while True:
                done, _pending = await asyncio.wait({receiving}, timeout=KEEPALIVE)
                if not done:
                    yield "\n"
                    continue
                message = receiving.result()
                receiving = asyncio.ensure_future(layer.receive(channel))
                if message.get("type") != "table.update":
                    continue
                seq = _seq(message["text"])
                if seq <= last:
                    continue  # the first lines already held it
                last = seq
                yield message["text"] + "\n"
        finally:
            receiving.cancel()
    finally:
        await layer.group_discard(group, channel)
