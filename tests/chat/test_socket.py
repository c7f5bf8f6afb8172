"""The chat on the table's socket: every seat hears a message at once, spectators never do; history on
asking; a refusal is an ``error`` with the message's command id."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from chat.models import Message
from tests.games.test_consumers import connect, new_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_db_connections"),
]


async def test_every_seat_hears_a_phrase_and_a_spectator_nothing():
    game, tokens, _secrets = await new_game()
    players = [await connect(game.pk, tokens[n]) for n in (0, 1)]
    watcher = await connect(game.pk)
    for ws in (*players, watcher):
        assert (await ws.receive_json_from())["type"] == "state"
    await players[1].send_json_to({"type": "chat", "phrase": "good_game", "command_id": "chat:1"})
    for ws in players:
        frame = await ws.receive_json_from()
        assert frame["type"] == "chat" and frame["history"] is False
        [message] = frame["messages"]
        assert (message["seat"], message["phrase"]) == (1, "good_game") and "text" not in message
    assert await watcher.receive_nothing(0.3)
    await players[0].send_json_to({"type": "chat_history"})
    history = await players[0].receive_json_from()
    assert history["history"] is True and [m["phrase"] for m in history["messages"]] == ["good_game"]
    await watcher.send_json_to({"type": "chat", "text": "hi", "command_id": "chat:2"})
    refused = await watcher.receive_json_from()
    assert (refused["type"], refused["code"], refused["command_id"]) == (
        "error",
        "chat_players_only",
        "chat:2",
    )
    await players[0].send_json_to({"type": "chat", "text": "x" * 201, "command_id": "chat:3"})
    refused = await players[0].receive_json_from()
    assert (refused["code"], refused["command_id"]) == ("too_long", "chat:3") and refused["message"]
    assert await database_sync_to_async(Message.objects.count)() == 1
    await players[0].send_json_to({"type": "chat_report", "id": history["messages"][0]["id"]})
    assert await players[0].receive_json_from() == {
        "type": "chat_reported",
        "id": history["messages"][0]["id"],
    }
    for ws in (*players, watcher):
        await ws.disconnect()
