"""The Expert level is offered where levels are (the new-table form, the API, tournaments), and kept
off the demo tables and Play now's stand-in, where its search time would only slow the game."""

from __future__ import annotations

import pytest

from frontend.management.commands import demo
from games.access import playnow
from games.models import Game, Seat
from games.words import computers
from tests.api.helpers import Api, token_for, user

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_new_table_form_seats_an_expert(client):
    response = client.post(
        "/new/kazino/", {"players": "2", "seat0": "me", "seat1": "bot:expert", "match": "single"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.order_by("-pk").first()
    assert Seat.objects.get(game=game, number=1).bot_level == "expert"


def test_the_api_seats_an_expert():
    ada = Api(token_for(user("ada")))
    seats = [{"kind": "me"}, {"kind": "computer", "level": "expert"}]
    made = ada.post("/tables", {"game": "pitch", "seats": seats})
    assert made.status_code == 201, made.json()
    assert Seat.objects.get(game_id=made.json()["table"], number=1).bot_level == "expert"


def test_a_tournament_may_enter_an_expert_and_names_it():
    assert "expert" in computers.LEVELS
    assert computers.stored_name(4, "expert") == "Computer 4 (Expert)"
    assert computers.from_rating_key("bot:expert:4") == ("expert", 4)
    assert computers.legacy_level("Òdinatè 4 (ekspè)") == "expert"


def test_the_demo_and_play_now_do_not_use_the_expert():
    assert "expert" not in demo.LEVELS
    assert playnow.COMPUTER != "expert"
