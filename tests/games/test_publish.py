"""After a commit each audience gets one message with its own view, and never another seat's secret."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import service, store
from games.groups import public_group, seat_group

from .factories import play, tiny_game

pytestmark = pytest.mark.django_db(transaction=True)


def listen(groups: list[str]) -> tuple[object, dict[str, str]]:
    layer = get_channel_layer()
    channels = {}
    for group in groups:
        channel = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(group, channel)
        channels[group] = channel
    return layer, channels


async def _receive_all(layer, channel):
    import asyncio

    out = []
    while True:
        try:
            out.append(await asyncio.wait_for(layer.receive(channel), 0.05))
        except TimeoutError:
            return out


def received(layer, channel) -> list[dict]:
    return async_to_sync(_receive_all)(layer, channel)


def test_each_audience_gets_one_message_per_move_with_its_own_view():
    game = tiny_game()
    secrets = list(service.load_table(game.pk).state.secrets)
    groups = [public_group(game.pk), seat_group(game.pk, 0), seat_group(game.pk, 1)]
    layer, channels = listen(groups)
    play(game, 0, 1, "m1", store.head(game.pk)[0])
    messages = {group: received(layer, channel) for group, channel in channels.items()}
    assert all(len(m) == 1 for m in messages.values()), "one message per audience per move"
    public = json.loads(messages[public_group(game.pk)][0]["text"])
    assert public["seat"] is None and public["view"]["secret"] is None
    assert public["legal_actions"] == []
    for seat in (0, 1):
        message = json.loads(messages[seat_group(game.pk, seat)][0]["text"])
        assert message["view"]["secret"] == secrets[seat]
        assert secrets[1 - seat] not in str(message)
    assert all(secret not in str(public) for secret in secrets)
    assert {json.loads(m[0]["text"])["seq"] for m in messages.values()} == {store.head(game.pk)[0]}


def test_the_seat_to_act_is_sent_its_legal_actions():
    game = tiny_game()
    layer, channels = listen([seat_group(game.pk, 1)])
    play(game, 0, 1, "m1", store.head(game.pk)[0])
    message = json.loads(received(layer, channels[seat_group(game.pk, 1)])[0]["text"])
    assert message["to_act"] == [1]
    assert {"type": "add", "n": 2} in message["legal_actions"]
