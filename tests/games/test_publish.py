"""After a commit each audience gets one message with its own view, and never another seat's secret."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.eventlog import store
from games.eventlog.tables import load_table
from games.live.groups import public_group, seat_group

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
    secrets = list(load_table(game.pk).state.secrets)
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


@pytest.mark.redis
def test_on_redis_a_move_is_published_to_the_audiences_that_listen_and_their_views_alone_are_made(
    settings, monkeypatch
):
    """On channels-redis over a plain URL, every audience's text goes on its Redis pub/sub channel, from
    the publishing thread: who listens is asked in one trip, only the listened views are made, no event
    loop is reached, and a seat's channel carries that seat's view alone (never to the edge's channel)."""
    import os
    import uuid

    import redis
    from channels.layers import channel_layers

    from games.live import publish
    from games.live.groups import edge_channel, seat_channel

    prefix = f"test-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": os.environ["REDIS_URL"]}], "prefix": prefix},
        }
    }
    channel_layers.backends.clear()
    made: list[int | None] = []
    real = publish.table_message
    monkeypatch.setattr(
        publish, "table_message", lambda table, seat, since: made.append(seat) or real(table, seat, since)
    )
    hops: list[object] = []
    monkeypatch.setattr(publish, "_run", lambda send, layer: hops.append(send))
    subscriber = redis.Redis.from_url(os.environ["REDIS_URL"]).pubsub()
    try:
        game = tiny_game()
        secrets = list(load_table(game.pk).state.secrets)
        subscriber.subscribe(edge_channel(game.pk))
        assert subscriber.get_message(timeout=5)["type"] == "subscribe"
        seq = store.head(game.pk)[0]
        made.clear()
        play(game, 0, 1, "m1", seq)  # only the spectators listen: only their view is made
        assert made == [None] and hops == []
        frame = subscriber.get_message(timeout=5)
        assert frame["channel"] == edge_channel(game.pk).encode()
        assert json.loads(frame["data"])["seq"] == seq + 1
        assert all(secret not in frame["data"].decode() for secret in secrets)
        subscriber.subscribe(seat_channel(game.pk, 1))
        assert subscriber.get_message(timeout=5)["type"] == "subscribe"
        made.clear()
        play(game, 1, 1, "m2", seq + 1)
        assert sorted(made, key=str) == [1, None] and hops == []
        got = {}
        for _ in range(2):
            frame = subscriber.get_message(timeout=5)
            got[frame["channel"].decode()] = json.loads(frame["data"])
        mine = got[seat_channel(game.pk, 1)]
        assert mine["seat"] == 1 and mine["seq"] == seq + 2 and mine["view"]["secret"] == secrets[1]
        assert secrets[0] not in json.dumps(mine)
        assert got[edge_channel(game.pk)]["seq"] == seq + 2
        assert all(secret not in json.dumps(got[edge_channel(game.pk)]) for secret in secrets)
    finally:
        subscriber.close()
        channel_layers.backends.clear()
        keys = redis.Redis.from_url(os.environ["REDIS_URL"])
        for key in keys.scan_iter(f"{prefix}*"):
            keys.delete(key)


@pytest.mark.redis
def test_on_redis_a_seat_taken_is_told_to_the_spectators_on_their_channel(settings):
    """Spectators on Redis hear ``seats_changed`` on their feed (the spectators' channel: Daphne's and
    the edge's), the seats on their groups."""
    import os
    import uuid

    import redis
    from channels.layers import channel_layers

    from games.live import publish
    from games.live.groups import edge_channel

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": os.environ["REDIS_URL"]}],
                "prefix": f"t-{uuid.uuid4().hex[:8]}",
            },
        }
    }
    channel_layers.backends.clear()
    subscriber = redis.Redis.from_url(os.environ["REDIS_URL"]).pubsub()
    try:
        game = tiny_game()
        subscriber.subscribe(edge_channel(game.pk))
        assert subscriber.get_message(timeout=5)["type"] == "subscribe"
        layer, channels = listen([seat_group(game.pk, 0)])
        publish.seats_changed(game.pk, 2)
        frame = subscriber.get_message(timeout=5)
        assert json.loads(frame["data"]) == {"type": "seats_changed"}
        told = received(layer, channels[seat_group(game.pk, 0)])
        assert [json.loads(m["text"]) for m in told] == [{"type": "seats_changed"}]
    finally:
        subscriber.close()
        channel_layers.backends.clear()
