"""The spectators' address (/ws/watch/ID/) on Daphne: what nginx falls back to while the spectator edge
is down. It serves spectators exactly as the table socket does, and refuses a seat as the edge does."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.eventlog import store
from games.models import Seat
from infra.routing import websocket_urlpatterns

from .factories import play, tiny_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_db_connections"),
]

app = URLRouter(websocket_urlpatterns)


async def test_a_spectator_on_the_watch_address_gets_what_the_table_socket_gives():
    game = await database_sync_to_async(tiny_game)()
    watch = WebsocketCommunicator(app, f"/ws/watch/{game.pk}/")
    table = WebsocketCommunicator(app, f"/ws/tables/{game.pk}/")
    assert (await watch.connect())[0] and (await table.connect())[0]
    assert await watch.receive_json_from() == await table.receive_json_from()
    await database_sync_to_async(lambda: play(game, 0, 1, "m1", store.head(game.pk)[0]))()
    assert await watch.receive_from() == await table.receive_from()
    await watch.send_json_to({"type": "action", "action": {"type": "add", "n": 1}, "command_id": "c"})
    assert (await watch.receive_json_from())["code"] == "spectator"
    await watch.disconnect()
    await table.disconnect()


@pytest.mark.parametrize("how", ["query", "header"])
async def test_a_seat_is_refused_on_the_watch_address(how):
    game = await database_sync_to_async(tiny_game)()
    token = await database_sync_to_async(lambda: Seat.objects.get(game=game, number=0).token)()
    path = f"/ws/watch/{game.pk}/" + ("?seat=0" if how == "query" else "")
    headers = [(b"x-seat-token", token.encode())] if how == "header" else []
    ws = WebsocketCommunicator(app, path, headers=headers)
    await ws.connect()
    reply = await ws.receive_json_from()
    assert reply["code"] == "not_your_seat" and token not in json.dumps(reply)
    assert (await ws.receive_output())["code"] == 4403
