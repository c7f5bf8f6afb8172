"""The table socket: audiences, no hidden card to spectators, spectator delay, resync, one fan-out each."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.eventlog import store
from games.eventlog.tables import load_table
from games.models import Seat
from infra.routing import websocket_urlpatterns

from .factories import tiny_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_db_connections"),
]

app = URLRouter(websocket_urlpatterns)


def add(command_id: str, expected_seq: int, n: int = 1) -> dict:
    """A seat's move at the tiny game, as a socket sends it: add ``n`` to the total."""
    return {
        "type": "action",
        "action": {"type": "add", "n": n},
        "command_id": command_id,
        "expected_seq": expected_seq,
    }


async def connect(game_id: int, token: str = "") -> WebsocketCommunicator:
    """A script's socket: a seat's credential in the handshake's header (never in the address)."""
    headers = [(b"x-seat-token", token.encode())] if token else []
    communicator = WebsocketCommunicator(app, f"/ws/tables/{game_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def new_game(**kwargs):
    game = tiny_game(**kwargs)
    tokens = {s.number: s.token for s in Seat.objects.filter(game=game)}
    secrets = list(load_table(game.pk).state.secrets)
    return game, tokens, secrets


@database_sync_to_async
def head(game_id: int) -> int:
    return store.head(game_id)[0]


async def test_a_seat_gets_its_own_view_and_a_spectator_the_public_one():
    game, tokens, secrets = await new_game()
    mine = await connect(game.pk, tokens[0])
    watcher = await connect(game.pk)
    state = await mine.receive_json_from()
    public = await watcher.receive_json_from()
    assert state["type"] == "state" and state["seat"] == 0 and state["view"]["secret"] == secrets[0]
    assert secrets[1] not in json.dumps(state)
    assert public["seat"] is None and all(s not in json.dumps(public) for s in secrets)
    assert [s["name"] for s in public["seats"]] == ["P0", "P1"]
    await mine.disconnect()
    await watcher.disconnect()


async def test_a_move_over_the_socket_is_acked_and_every_audience_gets_one_update():
    game, tokens, secrets = await new_game()
    players = [await connect(game.pk, tokens[n]) for n in (0, 1)]
    watcher = await connect(game.pk)
    for ws in (*players, watcher):
        await ws.receive_json_from()
    seq = await head(game.pk)
    await players[0].send_json_to(add("m1", seq, n=2))
    replies = [await players[0].receive_json_from() for _ in range(2)]
    assert {r["type"] for r in replies} == {"ack", "update"}
    for ws in (players[1], watcher):
        update = await ws.receive_json_from()
        assert update["type"] == "update" and update["since"] == seq and update["view"]["total"] == 2
        assert await ws.receive_nothing(0.2)
    assert secrets[0] not in json.dumps(update)
    for ws in (*players, watcher):
        await ws.disconnect()


async def test_a_refused_move_gets_a_code_and_a_sentence_and_changes_nothing():
    game, tokens, _ = await new_game()
    ws = await connect(game.pk, tokens[1])
    await ws.receive_json_from()
    seq = await head(game.pk)
    for message, code in [
        (add("x", seq), "not_your_turn"),
        ({"type": "action", "action": "add", "command_id": "y", "expected_seq": seq}, "bad_action"),
        ({"type": "fly", "command_id": "z", "expected_seq": seq}, "unknown_message"),
        (add("w", seq - 1), "stale_seq"),
    ]:
        await ws.send_json_to(message)
        reply = await ws.receive_json_from()
        assert reply["type"] == "error" and reply["code"] == code and reply["message"]
    for garbage in ("not json at all", "x" * 10_000, "[1, 2]"):
        await ws.send_to(text_data=garbage)
        reply = await ws.receive_json_from()
        assert reply["code"] == "bad_json" and reply["message"]
    assert await head(game.pk) == seq
    await ws.disconnect()


@pytest.mark.parametrize(
    ("kind", "refusals"),
    [
        (
            "rated",
            {c: "not_in_rated" for c in ("undo", "redo", "restart", "pause", "resume")}
            | {"new_game": "game_not_over"},
        ),
        (
            "tournament",
            {c: "not_in_tournament" for c in ("undo", "redo", "restart", "new_game")}
            | {"pause": "organiser_only", "resume": "organiser_only"},
        ),
    ],
)
async def test_a_game_that_counts_takes_no_undo_restart_or_pause_from_a_seat(kind, refusals):
    game, tokens, secrets = await new_game(kind=kind)
    ws = await connect(game.pk, tokens[0])
    state = await ws.receive_json_from()
    assert state["can_undo"] is False and state["can_redo"] is False
    seq = await head(game.pk)
    for command, code in refusals.items():
        await ws.send_json_to({"type": command, "command_id": f"c-{command}", "expected_seq": seq})
        reply = await ws.receive_json_from()
        assert (reply["type"], reply["code"], reply["command_id"]) == ("error", code, f"c-{command}")
        assert reply["message"] and not any(s in reply["message"] for s in secrets)
    assert await head(game.pk) == seq
    await ws.disconnect()


async def test_a_spectator_cannot_play():
    game, _, _ = await new_game()
    ws = await connect(game.pk)
    await ws.receive_json_from()
    await ws.send_json_to(add("s", 2))
    reply = await ws.receive_json_from()
    assert reply["code"] == "spectator"
    await ws.disconnect()


async def test_resync_sends_the_whole_table_again():
    game, tokens, _ = await new_game()
    ws = await connect(game.pk, tokens[0])
    first = await ws.receive_json_from()
    await ws.send_json_to({"type": "resync"})
    again = await ws.receive_json_from()
    assert again["type"] == "state" and again["seq"] == first["seq"] and again["view"] == first["view"]
    await ws.disconnect()


async def both_seats_and_a_spectator(game_id: int, tokens: dict[int, str]) -> tuple[Any, Any, Any, dict]:
    """The two seats' sockets and a spectator's, each past its first state; and the spectator's."""
    sockets = [await connect(game_id, tokens[0]), await connect(game_id, tokens[1]), await connect(game_id)]
    first = [await ws.receive_json_from() for ws in sockets]
    return sockets[0], sockets[1], sockets[2], first[2]


async def test_the_spectator_delay_holds_back_the_public_view():
    game, tokens, _ = await new_game(spectator_delay=2, goal=100)
    player, other, watcher, watched = await both_seats_and_a_spectator(game.pk, tokens)
    assert watched["view"]["total"] == 0
    totals = []
    for turn, ws in enumerate([player, other, player]):
        seq = await head(game.pk)
        await ws.send_json_to(add(f"m{turn}", seq))
        totals.append((await watcher.receive_json_from())["view"]["total"])
    assert totals == [0, 0, 1], "spectators see the table two moves late"
    for ws in (player, other, watcher):
        await ws.disconnect()


async def test_a_delayed_table_shows_spectators_its_end_once_it_is_over():
    """#37: the delay once cut the last moves forever, so spectators never saw a delayed game end."""
    game, tokens, _ = await new_game(spectator_delay=2, goal=3)
    player, other, watcher, _ = await both_seats_and_a_spectator(game.pk, tokens)
    seen = []
    for turn, ws in enumerate([player, other, player]):
        seq = await head(game.pk)
        await ws.send_json_to(add(f"m{turn}", seq))
        update = await watcher.receive_json_from()
        seen.append((update["view"]["total"], update["finished"]))
    assert seen == [(0, False), (0, False), (3, True)], "held two moves back, then the whole end at once"
    assert update["outcome"] is not None and update["seq"] == await head(game.pk)
    for ws in (player, other, watcher):
        await ws.disconnect()


async def test_an_unknown_game_closes_the_socket_with_4404():
    communicator = WebsocketCommunicator(app, "/ws/tables/999999/")
    connected, code = await communicator.connect()
    assert connected, "accepted first: a refused handshake reads as a bare HTTP 403"
    error = await communicator.receive_json_from()
    assert error["type"] == "error" and error["code"] == "unknown_game"
    assert await communicator.receive_output() == {"type": "websocket.close", "code": 4404}


@pytest.fixture
def redis_layer(settings):
    import os

    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [os.environ["REDIS_URL"]]},
        }
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.mark.redis
async def test_updates_fan_out_through_redis_to_seats_and_spectators(redis_layer):
    game, tokens, secrets = await new_game()
    player, other, watcher = (
        await connect(game.pk, tokens[0]),
        await connect(game.pk, tokens[1]),
        await connect(game.pk),
    )
    for ws in (player, other, watcher):
        await ws.receive_json_from()
    seq = await head(game.pk)
    await player.send_json_to(add("r1", seq))
    for ws, secret in ((other, secrets[1]), (watcher, None)):
        update = await ws.receive_json_from(timeout=5)
        assert update["type"] == "update" and update["seq"] == seq + 1
        assert update["view"]["secret"] == secret
    for ws in (player, other, watcher):
        await ws.disconnect()


async def test_a_busy_channel_layer_closes_the_socket_it_failed_and_no_other(monkeypatch):
    """All of a process's Redis connections busy at once (redis-py's MaxConnectionsError) is not Redis
    lost: the socket that could not join its group is told to try again (4503), and every other socket
    of the process stays open (they were all closed before, as after a restarted Redis)."""
    from channels.layers import get_channel_layer
    from redis.exceptions import MaxConnectionsError

    game, tokens, _secrets = await new_game()
    player, watcher = await connect(game.pk, tokens[0]), await connect(game.pk)
    for ws in (player, watcher):
        await ws.receive_json_from()
    layer = get_channel_layer()

    async def busy(group: str, channel: str) -> None:
        raise MaxConnectionsError("Too many connections")

    monkeypatch.setattr(layer, "group_add", busy)
    other = WebsocketCommunicator(
        app, f"/ws/tables/{game.pk}/", headers=[(b"x-seat-token", tokens[1].encode())]
    )
    connected, code = await other.connect()
    if connected:
        assert await other.receive_output() == {"type": "websocket.close", "code": 4503}
    else:
        assert code == 4503
    monkeypatch.undo()

    seq = await head(game.pk)
    await player.send_json_to(add("busy-1", seq))
    acked = await player.receive_json_from(timeout=5)
    while acked["type"] != "ack":
        acked = await player.receive_json_from(timeout=5)
    assert acked["seq"] == seq + 1
    update = await watcher.receive_json_from(timeout=5)
    assert update["type"] == "update" and update["seq"] == seq + 1
    for ws in (player, watcher):
        await ws.disconnect()


async def test_a_seat_taken_while_the_table_is_open_renames_it_on_every_page():
    """The owner waits at the table; a friend takes the open seat through the invite: the owner's page
    is told the seats changed, asks again, and names the seat as its new player (not "Open seat")."""
    from games.access import invites
    from games.commands.create import SeatSpec, create_game
    from games.models import Invite

    @database_sync_to_async
    def open_table():
        specs = [SeatSpec("owner"), SeatSpec("Open seat", awaiting_player=True)]
        game = create_game("tiny", {"players": 2, "goal": 50}, specs)
        code = Invite.objects.get(seat__game=game, seat__number=1).code
        return game, Seat.objects.get(game=game, number=0).token, code

    game, token, code = await open_table()
    owner, watcher = await connect(game.pk, token), await connect(game.pk)
    before = (await owner.receive_json_from())["seats"][1]["name"]
    await watcher.receive_json_from()
    await database_sync_to_async(invites.claim)(game.pk, code, user=None)
    for ws in (owner, watcher):
        assert await ws.receive_json_from(timeout=5) == {"type": "seats_changed"}
    await owner.send_json_to({"type": "resync"})
    state = await owner.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["seats"][1]["name"] not in ("", before)
    for ws in (owner, watcher):
        await ws.disconnect()
