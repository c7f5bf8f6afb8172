"""Command ids as an attack: replaying another command's id, or taking one the system will use."""

from __future__ import annotations

import json

import pytest

from games.commands import controls, moves
from games.commands.create import SeatSpec, create_game
from games.computers.autoplay import bot_command_id, play_bot_turn
from games.errors import ServiceError
from games.eventlog import store
from games.models import Seat

pytestmark = pytest.mark.django_db


def _table(bots: dict[int, str] | None = None) -> tuple[int, dict[int, str]]:
    bots = bots or {}
    seats = [SeatSpec(f"P{n}", bot_level=bots.get(n, "")) for n in range(2)]
    game = create_game("tiny", {"players": 2, "goal": 50}, seats)
    return game.pk, {s.number: s.token for s in Seat.objects.filter(game=game)}


def _post(client, game_id: int, token: str, **body):  # type: ignore[no-untyped-def]
    url = f"/api/games/{game_id}/actions"
    return client.post(url, json.dumps(body), content_type="application/json", HTTP_X_SEAT_TOKEN=token)


def test_the_same_command_again_gets_the_first_answer_and_another_one_is_refused(client):
    game, tokens = _table()
    seq = store.head(game)[0]
    move = {"seat": 0, "action": {"type": "add", "n": 1}, "command_id": "c1", "expected_seq": seq}
    first = _post(client, game, tokens[0], **move).json()
    again = _post(client, game, tokens[0], **move).json()
    assert again == {**first, "duplicate": True}
    head = store.head(game)
    other = _post(client, game, tokens[0], **{**move, "action": {"type": "add", "n": 2}})
    assert other.status_code == 409 and other.json()["error"]["code"] == "command_reused"
    theirs = _post(client, game, tokens[1], **{**move, "seat": 1, "expected_seq": head[0]})
    assert theirs.status_code == 409 and theirs.json()["error"]["code"] == "command_reused"
    assert store.head(game) == head


def test_a_table_command_under_a_used_id_is_refused():
    game, _tokens = _table()
    seq = store.head(game)[0]
    moves.submit(game, 0, {"type": "add", "n": 1}, "c1", seq)
    controls.undo(game, "u1", seq + 1, by="seat:1")
    assert controls.undo(game, "u1", seq + 1, by="seat:1").duplicate
    for command in (controls.redo, controls.pause):
        with pytest.raises(ServiceError) as refused:
            command(game, "u1", seq + 2, by="seat:1")
        assert refused.value.code == "command_reused"
    with pytest.raises(ServiceError) as refused:
        controls.undo(game, "u1", seq + 2, by="seat:0")  # another seat's undo under that id
    assert refused.value.code == "command_reused"


@pytest.mark.parametrize("command_id", ["opening", "bot-3-1", "demo-next-9", "no-show-4"])
def test_a_client_cannot_take_an_id_the_system_will_use(client, command_id):
    game, tokens = _table()
    seq = store.head(game)[0]
    move = {"seat": 0, "action": {"type": "add", "n": 1}, "command_id": command_id, "expected_seq": seq}
    response = _post(client, game, tokens[0], **move)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_command_id"
    assert store.head(game)[0] == seq


def test_a_computer_seat_still_moves_after_a_player_tried_to_take_its_id(client):
    """Before: a player who sent its move as ``bot-SEQ-1`` made the computer's turn a "retry" of it,
    and seat 1 never moved again."""
    game, tokens = _table(bots={1: "random"})
    seq = store.head(game)[0]
    taken = bot_command_id(seq + 1, 1)
    move = {"seat": 0, "action": {"type": "add", "n": 1}, "command_id": taken, "expected_seq": seq}
    assert _post(client, game, tokens[0], **move).status_code == 400
    move["command_id"] = "mine"
    assert _post(client, game, tokens[0], **move).status_code == 200
    assert play_bot_turn(game, seq + 1, 1) == "played"
    assert [e.command_id for e in store.load(game)][-1] == taken
