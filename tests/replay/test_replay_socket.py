"""The replay socket: one hand at a time, every index allowed for this viewer, nothing hidden in it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.models import Event, Seat
from replay import access, frames, pictures
from replay.frames import ALL, PUBLIC

from .play import new_game, play
from .sockets import connect, load, session_of, until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_db_connections"),
]

TILES = sorted(f"{high}-{low}" for high in range(7) for low in range(high + 1))


@database_sync_to_async
def live_dominoes(user: Any, moves: int = 8) -> tuple[int, int]:
    game = new_game("dominoes", 2, options={"target": 1000}, humans={0: user})
    play(game, moves=moves)
    return game.pk, int(Event.objects.get(game=game, seq=1).data["seed"])


@database_sync_to_async
def replay_of(game_id: int) -> frames.Replay:
    return frames.load(game_id)


@database_sync_to_async
def make_user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name)


def quoted(names: list[str]) -> list[str]:
    return [json.dumps(name) for name in names]


def assert_nothing_hidden(
    replay: frames.Replay, parts: list[dict[str, Any]], seat: int | None, seed: int
) -> None:
    """No seed, no stacked deck, no non-public event data, and (but for all cards open) no card hidden
    from ``seat`` (None: spectators)."""
    engine = replay.engine
    public = pictures.public_events(replay)
    for part in parts:
        text = json.dumps(part)
        assert str(seed) not in text and "secret_key" not in text
        for moment, picture in zip(part["moments"], part["pictures"], strict=True):
            state = replay.states[moment["index"]]
            shown = json.dumps(picture)
            hidden = [] if part["perspective"] == ALL else quoted(engine.hidden_from(state, seat))
            leaked = [name for name in hidden if name in shown]
            assert not leaked, f"moment {moment['seq']} shows {leaked}"
            assert ("data" in moment) == (moment["type"] in public)
            assert "deck" not in (picture.get("config") or {})


async def test_a_spectator_of_a_live_game_gets_the_public_picture_and_nothing_else() -> None:
    alice = await make_user("alice")
    game_id, seed = await live_dominoes(alice)
    replay = await replay_of(game_id)
    ws = await connect(f"/ws/replays/{game_id}/")
    ready = await until(ws, "ready")
    assert ready["perspectives"] == [PUBLIC] and ready["finished"] is False
    for forbidden, code in ((0, "not_your_seat"), (1, "not_your_seat"), (ALL, "hand_not_over")):
        [error] = await load(ws, forbidden, 1)
        assert error["type"] == "error" and error["code"] == code and error["message"]
    parts = await load(ws, PUBLIC, 1)
    assert parts[0]["type"] == "hand" and parts[0]["perspective"] == PUBLIC
    moments = [m for p in parts for m in p["moments"]]
    _, first, last = access.hand_spans(replay)[0]
    assert first == 0 and [m["index"] for m in moments] == list(range(first, last + 1))
    shown = [picture for p in parts for picture in p["pictures"]]
    assert shown == [json.loads(json.dumps(replay.picture(m["index"], PUBLIC))) for m in moments]
    assert_nothing_hidden(replay, parts, None, seed)
    await ws.disconnect()


async def test_a_player_replays_their_own_seat_of_a_live_game_and_no_other() -> None:
    alice = await make_user("alice")
    game_id, seed = await live_dominoes(alice)
    replay = await replay_of(game_id)
    ws = await connect(f"/ws/replays/{game_id}/", await session_of(alice))
    ready = await until(ws, "ready")
    assert ready["perspectives"] == [0, PUBLIC]
    parts = await load(ws, 0, 1)
    assert parts[0]["type"] == "hand"
    for moment, picture in zip(parts[0]["moments"], parts[0]["pictures"], strict=True):
        hands = picture["hands"]  # none yet at the setup, before the deal
        # While the round is played only my tiles show; at its count every hand is shown (rules).
        assert not hands or (hands[0] is not None and (hands[1] is None or picture["phase"] != "play"))
        assert picture == json.loads(json.dumps(replay.picture(moment["index"], 0)))
    assert_nothing_hidden(replay, parts, 0, seed)
    [error] = await load(ws, 1, 1)
    assert error["code"] == "not_your_seat"
    [error] = await load(ws, "1", 1)
    assert error["code"] == "not_your_seat"
    await ws.disconnect()


async def test_a_guest_player_is_known_by_the_seat_token_their_browser_holds() -> None:
    game_id, _seed = await live_dominoes(None)
    token = await database_sync_to_async(lambda: Seat.objects.get(game_id=game_id, number=0).token)()
    ws = await connect(f"/ws/replays/{game_id}/", await session_of(seat_tokens={game_id: {0: token}}))
    assert (await until(ws, "ready"))["perspectives"] == [0, PUBLIC]
    assert (await load(ws, 0, 1))[0]["type"] == "hand"
    await ws.disconnect()


@database_sync_to_async
def finished_stacked_game() -> tuple[int, int]:
    deck = list(reversed(TILES))
    game = new_game("dominoes", 2, options={"target": 10, "deck": deck})
    play(game)
    return game.pk, int(Event.objects.get(game=game, seq=1).data["seed"])


async def test_all_cards_open_of_a_finished_game_holds_no_deck_and_no_seed() -> None:
    game_id, seed = await finished_stacked_game()
    replay = await replay_of(game_id)
    assert replay.finished and "deck" in replay.config
    ws = await connect(f"/ws/replays/{game_id}/")
    ready = await until(ws, "ready")
    assert ready["perspectives"] == [0, 1, PUBLIC, ALL]
    parts = await load(ws, ALL, 1)
    first = parts[0]["pictures"][-1]
    assert first["hands"][0] is not None and first["hands"][1] is not None, "every hand is open"
    assert "boneyard_tiles" in first
    assert_nothing_hidden(replay, parts, None, seed)
    for seat in (0, 1):
        assert (await load(ws, seat, 1))[0]["type"] == "hand"
    await ws.disconnect()


async def test_a_long_hand_comes_in_bounded_parts() -> None:
    @database_sync_to_async
    def skyjo() -> int:
        game = new_game("skyjo", 4, options={"target": 10})
        play(game)
        return game.pk

    game_id = await skyjo()
    replay = await replay_of(game_id)
    hand, first, last = max(access.hand_spans(replay), key=lambda h: h[2] - h[1])
    assert last - first + 1 > pictures.CHUNK
    ws = await connect(f"/ws/replays/{game_id}/")
    await until(ws, "ready")
    parts = await load(ws, PUBLIC, hand)
    assert len(parts) > 1
    assert [p["offset"] for p in parts] == list(range(0, last - first + 1, pictures.CHUNK))
    assert all(len(p["moments"]) <= pictures.CHUNK for p in parts)
    assert [m["index"] for p in parts for m in p["moments"]] == list(range(first, last + 1))
    await ws.disconnect()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ("x" * 3000, "bad_json"),
        (json.dumps({"type": "dance"}), "unknown_message"),
        (json.dumps({"kind": "load"}), "unknown_message"),
        (json.dumps({"type": "load", "perspective": "everyone", "hand": 1}), "bad_perspective"),
        (json.dumps({"type": "load", "perspective": [0], "hand": 1}), "bad_perspective"),
        (json.dumps({"type": "load", "perspective": "public", "hand": "1"}), "bad_hand"),
        (json.dumps({"type": "load", "perspective": "public", "hand": True}), "bad_hand"),
        (json.dumps({"type": "load", "perspective": "public", "hand": 99}), "no_such_moment"),
        (json.dumps({"type": "load", "perspective": 9, "hand": 1}), "no_such_seat"),
        (json.dumps({"type": "move", "seq": 3, "perspective": "public"}), "not_in_room"),
        (json.dumps({"type": "follow", "on": False}), "not_in_room"),
    ],
)
async def test_bad_messages_get_a_code_and_a_sentence_and_the_socket_stays_open(
    message: str, code: str
) -> None:
    game_id, _seed = await finished_stacked_game()
    ws = await connect(f"/ws/replays/{game_id}/")
    await until(ws, "ready")
    await ws.send_to(text_data=message)
    error = await until(ws, "error")
    assert error["code"] == code and error["message"]
    assert (await load(ws, PUBLIC, 1))[0]["type"] == "hand", "still answering"
    await ws.disconnect()


async def test_an_unknown_game_or_room_is_closed_at_once() -> None:
    from channels.testing import WebsocketCommunicator

    from .sockets import app

    for path in ("/ws/replays/999999/", "/ws/replays/rooms/nope/"):
        communicator = WebsocketCommunicator(app, path)
        connected, code = await communicator.connect()
        assert not connected and code == 4404


@database_sync_to_async
def play_on(game_id: int, moves: int) -> None:
    from games.models import Game

    play(Game.objects.get(pk=game_id), moves=moves)


@database_sync_to_async
def live_with_delay(user: Any, delay: int) -> int:
    game = new_game("dominoes", 2, options={"target": 1000}, humans={0: user}, spectator_delay=delay)
    play(game, moves=6)
    return game.pk


async def test_a_replay_of_a_game_in_progress_is_told_of_each_move_as_its_viewer_may_see_it() -> None:
    """#23.6: the replay page of a game in progress received no new moves. Each move now reaches every
    replay socket of the game as a "moved": the hands, perspectives and last moment this viewer may
    see now, cut for spectators by the table's delay, nothing more."""
    alice = await make_user("alice")
    game_id = await live_with_delay(alice, 2)
    ws = await connect(f"/ws/replays/{game_id}/")
    ready = await until(ws, "ready")
    await play_on(game_id, 2)
    moved = await until(ws, "moved")
    replay = await replay_of(game_id)
    assert set(moved) == set(ready) and moved["perspectives"] == [PUBLIC] and moved["finished"] is False
    spectator = access.Viewer(user_id=None, seats=frozenset())
    assert moved["last"] == access.last_visible(replay, spectator) < replay.moments[-1].index
    assert moved["last"] > ready["last"]
    parts = await load(ws, PUBLIC, moved["hands"][-1][0])
    assert max(m["index"] for p in parts for m in p["moments"]) <= moved["last"] or parts[0]["cut"]
    await ws.disconnect()
