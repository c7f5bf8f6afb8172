"""The spectators of a table in one process share one member of its public group (games/spectators.py)."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer

from games import spectators
from games.groups import public_group

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
    watches = [await spectators.join(layer, 7, s.send) for s in sockets]
    for watch in watches:
        await spectators.live(watch)
    assert len(layer.groups[public_group(7)]) == 1
    assert spectators.watched() == {7: 50}
    for n in range(3):
        await layer.group_send(public_group(7), update(f"u{n}"))
    await layer.group_send(public_group(7), {"type": "something.else"})
    await settle()
    assert all(s.got == ["u0", "u1", "u2"] for s in sockets)
    for watch in watches:
        await spectators.leave(watch)
    assert not layer.groups.get(public_group(7)), "the last spectator out ends the subscription"
    assert spectators.watched() == {}


async def test_updates_that_arrive_before_the_state_is_sent_follow_it_in_order():
    layer = InMemoryChannelLayer()
    early, late = Socket(), Socket()
    first = await spectators.join(layer, 8, early.send)
    await spectators.live(first)
    held = await spectators.join(layer, 8, late.send)  # subscribed, its state not sent yet
    await layer.group_send(public_group(8), update("a"))
    await layer.group_send(public_group(8), update("b"))
    await settle()
    assert early.got == ["a", "b"] and late.got == []
    await late.send("state")
    await spectators.live(held)
    await layer.group_send(public_group(8), update("c"))
    await settle()
    assert late.got == ["state", "a", "b", "c"]
    assert early.got == ["a", "b", "c"]
    await spectators.leave(first)
    await spectators.leave(held)


async def test_a_broken_socket_does_not_stop_the_others():
    layer = InMemoryChannelLayer()

    async def broken(text: str) -> None:
        raise ConnectionError("gone")

    good = Socket()
    watches = [await spectators.join(layer, 9, broken), await spectators.join(layer, 9, good.send)]
    for watch in watches:
        await spectators.live(watch)
    await layer.group_send(public_group(9), update("x"))
    await settle()
    assert good.got == ["x"]
    for watch in watches:
        await spectators.leave(watch)


async def test_tables_are_separate_and_a_table_watched_again_subscribes_again():
    layer = InMemoryChannelLayer()
    one, two = Socket(), Socket()
    a = await spectators.join(layer, 1, one.send)
    b = await spectators.join(layer, 2, two.send)
    await spectators.live(a)
    await spectators.live(b)
    await layer.group_send(public_group(1), update("for 1"))
    await settle()
    assert one.got == ["for 1"] and two.got == []
    await spectators.leave(a)
    again = Socket()
    c = await spectators.join(layer, 1, again.send)
    await spectators.live(c)
    await layer.group_send(public_group(1), update("again"))
    await settle()
    assert again.got == ["again"] and one.got == ["for 1"]
    await spectators.leave(b)
    await spectators.leave(c)
