"""The spectators of a table in one process share one member of its public group (games/live/feeds.py)."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer

from games.live import feeds
from games.live.groups import public_group

pytestmark = pytest.mark.asyncio


def update(text: str) -> dict[str, str]:
    return {"type": "table.update", "text": text}


class Socket:
    def __init__(self) -> None:
        self.got: list[str] = []

    async def send(self, text: str) -> None:
        self.got.append(text)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_many_spectators_are_one_member_of_the_group_and_each_gets_every_update():
    layer = InMemoryChannelLayer()
    sockets = [Socket() for _ in range(50)]
    watches = [await feeds.join(layer, 7, s.send) for s in sockets]
    for watch in watches:
        await feeds.live(watch)
    assert len(layer.groups[public_group(7)]) == 1
    assert feeds.watched() == {7: 50}
    for n in range(3):
        await layer.group_send(public_group(7), update(f"u{n}"))
    await layer.group_send(public_group(7), {"type": "something.else"})
    await settle()
    assert all(s.got == ["u0", "u1", "u2"] for s in sockets)
    for watch in watches:
        await feeds.leave(watch)
    assert not layer.groups.get(public_group(7)), "the last spectator out ends the subscription"
    assert feeds.watched() == {}


async def test_updates_that_arrive_before_the_state_is_sent_follow_it_in_order():
    layer = InMemoryChannelLayer()
    early, late = Socket(), Socket()
    first = await feeds.join(layer, 8, early.send)
    await feeds.live(first)
    held = await feeds.join(layer, 8, late.send)  # subscribed, its state not sent yet
    await layer.group_send(public_group(8), update("a"))
    await layer.group_send(public_group(8), update("b"))
    await settle()
    assert early.got == ["a", "b"] and late.got == []
    await late.send("state")
    await feeds.live(held)
    await layer.group_send(public_group(8), update("c"))
    await settle()
    assert late.got == ["state", "a", "b", "c"]
    assert early.got == ["a", "b", "c"]
    await feeds.leave(first)
    await feeds.leave(held)


async def test_a_broken_socket_does_not_stop_the_others():
    layer = InMemoryChannelLayer()

    async def broken(text: str) -> None:
        raise ConnectionError("gone")

    good = Socket()
    watches = [await feeds.join(layer, 9, broken), await feeds.join(layer, 9, good.send)]
    for watch in watches:
        await feeds.live(watch)
    await layer.group_send(public_group(9), update("x"))
    await settle()
    assert good.got == ["x"]
    for watch in watches:
        await feeds.leave(watch)


async def test_tables_are_separate_and_a_table_watched_again_subscribes_again():
    layer = InMemoryChannelLayer()
    one, two = Socket(), Socket()
    a = await feeds.join(layer, 1, one.send)
    b = await feeds.join(layer, 2, two.send)
    await feeds.live(a)
    await feeds.live(b)
    await layer.group_send(public_group(1), update("for 1"))
    await settle()
    assert one.got == ["for 1"] and two.got == []
    await feeds.leave(a)
    again = Socket()
    c = await feeds.join(layer, 1, again.send)
    await feeds.live(c)
    await layer.group_send(public_group(1), update("again"))
    await settle()
    assert again.got == ["again"] and one.got == ["for 1"]
    await feeds.leave(b)
    await feeds.leave(c)


def redis_layer():  # type: ignore[no-untyped-def]
    import os

    from channels_redis.core import RedisChannelLayer

    return RedisChannelLayer(hosts=[{"address": os.environ["REDIS_URL"]}])


WAIT = 60.0  # seconds: only a bound for a failing test, never the pace of a passing one


async def wait_until(check, what: str) -> None:  # type: ignore[no-untyped-def]
    """Until ``check()`` holds: Redis answers in its own time. Each look yields to the loop (whose
    tasks are what makes ``check`` true) and waits for nothing else; the deadline is read from the
    loop's clock, so a slow machine gets as many looks as it needs."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0)


@pytest.mark.redis
async def test_on_redis_a_seats_sockets_share_one_subscription_and_hear_only_their_seat(monkeypatch):
    import os
    import random

    import redis.asyncio

    from games.live.groups import edge_channel, seat_channel

    layer = redis_layer()
    game = random.randrange(10**12, 10**13)  # channels are server-wide: no other test's table
    mine, also_mine, watcher = Socket(), Socket(), Socket()
    a = await feeds.join(layer, game, mine.send, seat=0)
    b = await feeds.join(layer, game, also_mine.send, seat=0)
    s = await feeds.join(layer, game, watcher.send)
    assert a.feed is b.feed and s.feed is not a.feed, "one subscription per audience and process"
    publisher = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
    try:
        counts = dict(await publisher.pubsub_numsub(seat_channel(game, 0), edge_channel(game)))
        assert counts == {seat_channel(game, 0).encode(): 1, edge_channel(game).encode(): 1}
        await publisher.publish(seat_channel(game, 0), "held")  # before live: held, then forwarded
        await publisher.publish(seat_channel(game, 1), "not mine")
        await publisher.publish(edge_channel(game), "public")
        await wait_until(lambda: a.feed.members[a] == ["held"], "the seat's update held")
        await mine.send("state")
        await feeds.live(a)
        await feeds.live(b)
        await feeds.live(s)
        await publisher.publish(seat_channel(game, 0), "next")
        await wait_until(lambda: also_mine.got == ["held", "next"], "both sockets of the seat heard")
        assert mine.got == ["state", "held", "next"]
        await wait_until(lambda: watcher.got == ["public"], "the spectator heard the public update")
        for watch in (a, b, s):
            await feeds.leave(watch)
        await wait_until(lambda: not feeds._registry().feeds, "the last socket out ends the subscription")
        counts = dict(await publisher.pubsub_numsub(seat_channel(game, 0)))
        assert counts == {seat_channel(game, 0).encode(): 0}
    finally:
        await publisher.aclose()


@pytest.mark.redis
async def test_on_redis_a_table_of_another_database_on_the_same_server_is_never_heard(settings):
    """Pub/sub ignores Redis's database numbers: two deployments on one server (CI's two test
    processes, each with its own Daphne and database) both have a table 89, and a seat's socket heard
    the other table's moves (a browser test's move was never seen played). Channels carry the number."""
    import random
    import re

    import redis.asyncio

    from games.live.groups import _database, edge_channel, seat_channel

    game = random.randrange(10**12, 10**13)
    ours = settings.REDIS_URL
    other = re.sub(r"(/\d*)?$", f"/{(_database(ours) + 1) % 16}", ours, count=1)
    mine, watcher = Socket(), Socket()
    a = await feeds.join(redis_layer(), game, mine.send, seat=0)
    s = await feeds.join(redis_layer(), game, watcher.send)
    await feeds.live(a)
    await feeds.live(s)
    publisher = redis.asyncio.Redis.from_url(ours)
    try:
        settings.REDIS_URL = other
        theirs = [seat_channel(game, 0), edge_channel(game)]
        settings.REDIS_URL = ours
        for channel in theirs:
            assert await publisher.publish(channel, "the other deployment's table") == 0, (
                "nobody here listens"
            )
        await publisher.publish(seat_channel(game, 0), "ours")
        await publisher.publish(edge_channel(game), "ours, public")
        # Redis delivers a connection's messages in order: once ours are heard, theirs would have been.
        await wait_until(
            lambda: mine.got == ["ours"] and watcher.got == ["ours, public"], "only our table heard"
        )
    finally:
        for watch in (a, s):
            await feeds.leave(watch)
        await publisher.aclose()


@pytest.mark.redis
async def test_on_redis_a_lost_connection_closes_every_socket_that_heard_through_it(monkeypatch):
    import random

    from games.live import pubsub

    made = []

    class Pool:  # the real pool, remembering the connection it makes
        def __init__(self, pool) -> None:  # type: ignore[no-untyped-def]
            self.pool = pool

        def make_connection(self):  # type: ignore[no-untyped-def]
            made.append(self.pool.make_connection())
            return made[-1]

    class Pools:  # only games.live.pubsub's pools: the lobby's spectator counts keep theirs
        @staticmethod
        def from_url(*args, **kwargs):  # type: ignore[no-untyped-def]
            return Pool(real(*args, **kwargs))

    real = pubsub.ConnectionPool.from_url
    monkeypatch.setattr(pubsub, "ConnectionPool", Pools)
    layer = redis_layer()
    game = random.randrange(10**12, 10**13)
    closed: list[str] = []

    def closer(name: str):  # type: ignore[no-untyped-def]
        async def lost() -> None:
            closed.append(name)

        return lost

    watches = [
        await feeds.join(layer, game, Socket().send, seat=0, lost=closer("seat")),
        await feeds.join(layer, game, Socket().send, lost=closer("spectator")),
    ]
    for watch in watches:
        await feeds.live(watch)
    await made[0].disconnect()
    await wait_until(lambda: sorted(closed) == ["seat", "spectator"], "both sockets told")
    assert not feeds._registry().feeds and feeds._registry().hub is None
    again = await feeds.join(layer, game, Socket().send, seat=0)
    assert len(made) == 2, "the next socket subscribes on a new connection"
    for watch in [*watches, again]:
        await feeds.leave(watch)
