"""Replay rooms: the driver moves, every member follows; own control, rejoining, handing over the wheel."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from replay import access, frames
from replay.frames import ALL, PUBLIC
from replay.models import Room, RoomMember

from .play import new_game, play
from .sockets import connect, drain, session_of, until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_db_connections"),
]


@database_sync_to_async
def users(*names: str, staff: tuple[str, ...] = ()) -> list[Any]:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    return [model.objects.create_user(name, is_staff=name in staff) for name in names]


@database_sync_to_async
def finished_game(created_by: Any = None) -> tuple[int, frames.Replay]:
    game = new_game("pitch", 3, options={"max_hands": 2}, created_by=created_by)
    play(game)
    return game.pk, frames.load(game.pk)


@database_sync_to_async
def open_room(user: Any, game_id: int, at: int | None = None, as_: str = "") -> str:
    """Through the page's form, as a browser does."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    response = client.post(f"/games/{game_id}/replay/rooms/", {"at": at or "", "as": as_})
    assert response.status_code == 302 and response["Location"].startswith("/replays/rooms/")
    return response["Location"].split("/")[-2]


@database_sync_to_async
def room_row(key: str) -> Room:
    return Room.objects.get(key=key)


async def join(key: str, user: Any = None) -> Any:
    ws = await connect(f"/ws/replays/rooms/{key}/", await session_of(user) if user else None)
    await until(ws, "ready")
    await until(ws, "position")
    return ws


async def test_two_members_follow_the_driver_and_one_takes_own_control_and_rejoins() -> None:
    coach, ann, ben = await users("coach", "ann", "ben")
    game_id, replay = await finished_game()
    key = await open_room(coach, game_id)
    driver = await join(key, coach)
    viewers = [await join(key, ann), await join(key, ben)]
    for ws in (driver, *viewers):
        await drain(ws)

    target = replay.moments[20]
    await driver.send_json_to({"type": "move", "seq": target.seq, "perspective": 1})
    for ws in (driver, *viewers):
        position = await until(ws, "position")
        assert position["seq"] == target.seq and position["index"] == 20
        assert position["perspective"] == 1 and position["notice"] is None
        assert position["hand"] == access.hand_at(replay, 20)
    stored = await room_row(key)
    assert (stored.seq, stored.perspective) == (target.seq, "1")

    # Ann looks around on her own: the driver's next moves do not reach her; Ben still follows.
    await viewers[0].send_json_to({"type": "follow", "on": False})
    assert (await until(viewers[0], "following"))["on"] is False
    later = replay.moments[30]
    await driver.send_json_to({"type": "move", "seq": later.seq, "perspective": ALL})
    assert (await until(viewers[1], "position"))["seq"] == later.seq
    assert not [m for m in await drain(viewers[0]) if m["type"] == "position"]

    # Rejoining lands her where the driver is now.
    await viewers[0].send_json_to({"type": "follow", "on": True})
    assert (await until(viewers[0], "following"))["on"] is True
    position = await until(viewers[0], "position")
    assert (position["seq"], position["perspective"]) == (later.seq, ALL)
    for ws in (driver, *viewers):
        await ws.disconnect()


async def test_only_the_driver_moves_and_the_wheel_changes_hands_as_allowed() -> None:
    coach, ann, ben, staff = await users("coach", "ann", "ben", "staff", staff=("staff",))
    game_id, replay = await finished_game(created_by=ben)
    key = await open_room(coach, game_id)
    driver = await join(key, coach)
    ann_ws = await join(key, ann)
    await drain(driver)
    await drain(ann_ws)

    await ann_ws.send_json_to({"type": "move", "seq": replay.moments[3].seq, "perspective": PUBLIC})
    assert (await until(ann_ws, "error"))["code"] == "not_driver"
    await ann_ws.send_json_to({"type": "take"})
    assert (await until(ann_ws, "error"))["code"] == "cannot_take"
    await driver.send_json_to({"type": "give", "to": 999999})
    assert (await until(driver, "error"))["code"] == "bad_member"
    await driver.send_json_to({"type": "give", "to": "ann"})
    assert (await until(driver, "error"))["code"] == "bad_member"
    await driver.send_json_to({"type": "move", "seq": "5", "perspective": PUBLIC})
    assert (await until(driver, "error"))["code"] == "bad_seq"
    await driver.send_json_to({"type": "move", "seq": 5, "perspective": "nobody"})
    assert (await until(driver, "error"))["code"] == "bad_perspective"

    # The driver hands the wheel to Ann; now she moves and the coach follows.
    await driver.send_json_to({"type": "give", "to": ann.pk})
    assert (await until(ann_ws, "driver"))["you_drive"] is True
    assert (await until(driver, "driver"))["you_drive"] is False
    await ann_ws.send_json_to({"type": "move", "seq": replay.moments[7].seq, "perspective": 2})
    assert (await until(driver, "position"))["seq"] == replay.moments[7].seq
    assert (await room_row(key)).driver_id == ann.pk

    # Whoever made the table, and staff, may take the wheel without being handed it.
    for taker in (ben, staff):
        ws = await join(key, taker)
        await drain(ws)
        await ws.send_json_to({"type": "take"})
        assert (await until(ws, "driver"))["you_drive"] is True
        assert (await room_row(key)).driver_id == taker.pk
        await ws.disconnect()
    members = await database_sync_to_async(
        lambda: set(RoomMember.objects.filter(room__key=key).values_list("user__username", flat=True))
    )()
    assert members == {"coach", "ann", "ben", "staff"}
    for ws in (driver, ann_ws):
        await ws.disconnect()


async def test_a_viewer_who_may_not_see_the_drivers_perspective_gets_the_spectators_picture() -> None:
    alice, guest_user = await users("alice", "watcher")

    @database_sync_to_async
    def live() -> tuple[int, frames.Replay]:
        game = new_game("dominoes", 2, options={"target": 1000}, humans={0: alice})
        play(game, moves=10)
        return game.pk, frames.load(game.pk)

    game_id, replay = await live()
    key = await open_room(alice, game_id, as_="0")
    driver = await join(key, alice)
    watcher = await join(key, guest_user)
    anonymous = await join(key)
    for ws in (driver, watcher, anonymous):
        await drain(ws)

    target = replay.moments[6]
    await driver.send_json_to({"type": "move", "seq": target.seq, "perspective": 0})
    mine = await until(driver, "position")
    assert (mine["perspective"], mine["notice"]) == (0, None)
    for ws in (watcher, anonymous):
        theirs = await until(ws, "position")
        assert theirs["perspective"] == PUBLIC and theirs["seq"] == target.seq
        assert theirs["notice"]["code"] == "not_your_seat" and theirs["notice"]["message"]
        assert theirs["asked"] == 0
        # Their own loads are checked too: the driver's seat stays closed to them.
        await ws.send_json_to({"type": "load", "perspective": 0, "hand": theirs["hand"]})
        assert (await until(ws, "error"))["code"] == "not_your_seat"

    # The driver cannot show what they may not see themselves (the other seat of a live game).
    await driver.send_json_to({"type": "move", "seq": target.seq, "perspective": 1})
    assert (await until(driver, "error"))["code"] == "not_your_seat"
    await driver.send_json_to({"type": "move", "seq": target.seq, "perspective": ALL})
    assert (await until(driver, "error"))["code"] == "hand_not_over"
    assert (await room_row(key)).perspective == "0"
    for ws in (driver, watcher, anonymous):
        await ws.disconnect()


ODD_NUMBERS = [10**30, -(10**30), 2**63, 2**64, -1, 1e308, float("nan"), float("inf"), True]


async def test_odd_numbers_in_every_field_of_a_room_get_an_error_and_the_socket_stays_open() -> None:
    """A user id of 10**30 in ``give`` failed in the database (SQLite cannot bind it) and closed the
    socket with 1011; every number field of a room's messages gets an error with its code instead."""

    @database_sync_to_async
    def tiny_finished() -> int:
        game = new_game("tiny", 2, options={"goal": 3})
        play(game)
        return game.pk

    (coach,) = await users("coach")
    key = await open_room(coach, await tiny_finished())
    driver = await join(key, coach)
    await drain(driver)
    before = await room_row(key)
    for number in ODD_NUMBERS:
        cases = [
            ({"type": "give", "to": number}, {"bad_member"}),
            ({"type": "move", "seq": number, "perspective": PUBLIC}, {"bad_seq"}),
            ({"type": "move", "seq": before.seq, "perspective": number}, {"bad_perspective", "no_such_seat"}),
            ({"type": "load", "perspective": PUBLIC, "hand": number}, {"bad_hand", "no_such_moment"}),
            ({"type": "load", "perspective": number, "hand": 1}, {"bad_perspective", "no_such_seat"}),
        ]
        if not isinstance(number, bool):
            cases.append(({"type": "follow", "on": number}, {"bad_follow"}))
        for message, codes in cases:
            await driver.send_json_to(message)
            answer = await until(driver, "error")
            assert answer["code"] in codes and answer["message"], (message, answer)
    after = await room_row(key)
    assert (after.seq, after.perspective, after.driver_id) == (before.seq, before.perspective, coach.pk)
    # Still open and answering.
    await driver.send_json_to({"type": "give", "to": coach.pk})
    assert (await until(driver, "driver"))["you_drive"] is True
    await driver.disconnect()
