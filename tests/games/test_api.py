"""The HTTP action endpoint: who may act, malformed requests, and clear JSON errors."""

from __future__ import annotations

import json

import pytest

from games.eventlog import store
from games.eventlog.tables import load_table
from games.models import Seat

from .factories import tiny_game

pytestmark = pytest.mark.django_db


def post(client, game, body, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(f"/api/games/{game.pk}/actions", data, content_type="application/json", **headers)


def move(game, seat=0, n=1, command_id="c1"):
    return {
        "seat": seat,
        "action": {"type": "add", "n": n},
        "command_id": command_id,
        "expected_seq": store.head(game.pk)[0],
    }


def token(game, seat):
    return Seat.objects.get(game=game, number=seat).token


def test_a_seat_token_plays_its_seat(client):
    game = tiny_game()
    response = post(client, game, move(game), token(game, 0))
    assert response.status_code == 200
    assert response.json()["seq"] == store.head(game.pk)[0]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ("", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        (json.dumps({"x": "y" * 10000}), "bad_json"),
    ],
)
def test_malformed_requests_get_a_clear_error(client, body, code):
    game = tiny_game()
    seq = store.head(game.pk)[0]
    response = post(client, game, body, token(game, 0))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code and response.json()["error"]["message"]
    assert store.head(game.pk)[0] == seq


def test_another_seats_token_is_refused(client):
    game = tiny_game()
    seq = store.head(game.pk)[0]
    response = post(client, game, move(game, seat=0), token(game, 1))
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_your_seat"
    assert store.head(game.pk)[0] == seq


def test_no_credentials_are_refused(client):
    game = tiny_game()
    response = post(client, game, move(game))
    assert response.status_code == 403


def test_an_unknown_game_is_a_404_with_a_code(client):
    response = client.post("/api/games/999999/actions", "{}", content_type="application/json")
    assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_game"


def test_a_stale_seq_is_a_409(client):
    game = tiny_game()
    body = move(game)
    post(client, game, body, token(game, 0))
    response = post(client, game, {**body, "command_id": "c2"}, token(game, 0))
    assert response.status_code == 409 and response.json()["error"]["code"] == "stale_seq"


def test_the_public_state_hides_every_secret(client):
    game = tiny_game()
    secrets = list(load_table(game.pk).state.secrets)
    response = client.get(f"/api/games/{game.pk}/state")
    assert response.status_code == 200
    assert all(secret not in response.content.decode() for secret in secrets)
    mine = client.get(f"/api/games/{game.pk}/state?seat=0", HTTP_X_SEAT_TOKEN=token(game, 0)).json()
    assert mine["view"]["secret"] == secrets[0]
    theirs = client.get(f"/api/games/{game.pk}/state?seat=1", HTTP_X_SEAT_TOKEN=token(game, 0))
    assert theirs.status_code == 403
