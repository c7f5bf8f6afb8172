"""Pages outside the table: accounts, the new-table form, the rules, the lobby's lists."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("game", ["skyjo", "dominoes", "kazino", "pitch"])
def test_each_game_has_a_rules_page_and_a_new_table_form(client, game):
    rules = client.get(f"/rules/{game}/")
    assert rules.status_code == 200 and len(rules.content) > 3000
    form = client.get(f"/new/{game}/")
    assert form.status_code == 200 and b'name="seat0"' in form.content


def test_an_unknown_game_is_a_404(client):
    assert client.get("/rules/chess/").status_code == 404
    assert client.get("/new/chess/").status_code == 404


def test_signing_up_signs_you_in_and_your_table_seats_you(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "ana", "password1": "kazino-27-cards", "password2": "kazino-27-cards"},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="ana")
    response = client.post(
        "/new/kazino/", {"players": "2", "match": "single", "seat0": "me", "seat1": "bot:greedy"}
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert Seat.objects.get(game=game, number=0).user == user
    assert game.created_by == user


def test_a_guest_creates_a_casual_table_and_holds_its_seat(client):
    response = client.post(
        "/new/pitch/", {"players": "3", "target": "7", "seat0": "me", "seat1": "bot:greedy", "seat2": "local"}
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.config["players"] == 3 and game.config["target"] == 7
    page = client.get(response["Location"])
    assert page.context["client"]["seats"] == [0, 2]  # held by the session, named by number only
    assert all(s.token not in page.content.decode() for s in game.seats.all())


def test_a_table_without_a_human_seat_is_refused_with_a_reason(client):
    response = client.post("/new/kazino/", {"players": "2", "seat0": "bot:greedy", "seat1": "bot:greedy"})
    assert response.status_code == 200 and b'class="error"' in response.content
    assert not Game.objects.exists()


def test_an_invite_link_seats_a_friend_once(client):
    client.post("/new/kazino/", {"players": "2", "match": "single", "seat0": "me", "seat1": "friend"})
    game = Game.objects.get()
    friend_seat = Seat.objects.get(game=game, number=1)
    assert friend_seat.awaiting_player
    assert f"/tables/{game.pk}/" in client.get("/").content.decode()  # listed as looking for players
    from django.test import Client

    [link] = client.get(f"/tables/{game.pk}/").context["invites"]
    assert link["seat"] == 2
    friend = Client()
    assert b"take-seat" in friend.get(link["url"]).content  # opening the link (or a preview of it) asks first
    friend_seat.refresh_from_db()
    assert friend_seat.awaiting_player
    assert friend.post(link["url"]).status_code == 302
    friend_seat.refresh_from_db()
    assert not friend_seat.awaiting_player and friend_seat.display_name == "Guest 2"
    assert friend.get(f"/tables/{game.pk}/").context["client"]["seats"] == [1]
    assert not client.get(f"/tables/{game.pk}/").context["invites"]  # the seat is no longer open
