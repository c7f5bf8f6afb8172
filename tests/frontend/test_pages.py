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


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "This page does not exist"), ("ht", "Paj sa a pa egziste"), ("tl", "Walang ganitong pahina")],
)
def test_a_page_that_does_not_exist_says_so_in_the_readers_language_with_a_way_back(
    client, settings, language, heading
):
    # #33: Django's bare English "Not Found", with no way back, in every language.
    settings.DEBUG = False
    client.cookies["django_language"] = language
    response = client.get("/tables/99999/")
    assert response.status_code == 404
    page = response.content.decode()
    assert heading in page and f'lang="{language}"' in page
    assert 'href="/"' in page and "Not Found" not in page


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


def test_players_passing_a_device_may_be_named_and_a_name_is_bounded(client):
    """#33: the second seat of a passed device was always "Player 2" and could not be named."""
    form = {"players": "2", "seat0": "me", "seat1": "local", "name0": " Marie ", "name1": "Jean-Rony"}
    response = client.post("/new/kazino/", form)
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s.display_name for s in game.seats.order_by("number")] == ["Marie", "Jean-Rony"]
    from games.eventlog import queries

    names = [s["display_name"] for s in queries.seating(game.pk)["seats"]]
    assert names == ["Marie", "Jean-Rony"]  # what the table's pages and the API call them
    refused = client.post("/new/kazino/", {**form, "name1": "x" * 151})
    assert refused.status_code == 200 and b'class="error"' in refused.content
    assert Game.objects.count() == 1


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
    assert friend_seat.name_role == "guest"
    assert friend.get(f"/tables/{game.pk}/").context["client"]["seats"] == [1]
    assert not client.get(f"/tables/{game.pk}/").context["invites"]  # the seat is no longer open


# --- Rated or casual (issue #18) -------------------------------------------------------------------


def _sign_in(client, name: str = "ana"):
    user = get_user_model().objects.create_user(name)
    client.force_login(user)
    return user


def _checked(page: str, value: str) -> bool:
    tag = page.split(f'name="kind" value="{value}"', 1)[1].split(">", 1)[0]
    return "checked" in tag


def test_the_form_offers_rated_or_casual_and_kazino_starts_on_rated(client):
    guest = client.get("/new/kazino/").content.decode()
    assert _checked(guest, "casual") and "disabled" in guest.split('value="rated"', 1)[1].split(">", 1)[0]
    assert "Sign in to play rated games." in guest
    _sign_in(client)
    kazino = client.get("/new/kazino/").content.decode()
    assert _checked(kazino, "rated") and not _checked(kazino, "casual")
    assert "Kazino's ranking counts the games played online, so rated is chosen for you." in kazino
    dominoes = client.get("/new/dominoes/").content.decode()
    assert _checked(dominoes, "casual") and not _checked(dominoes, "rated")


@pytest.mark.parametrize("kind", ["rated", "casual"])
def test_the_table_page_says_rated_or_casual_and_shows_help_only_at_a_casual_table(client, kind):
    _sign_in(client)
    response = client.post(
        "/new/kazino/", {"players": "2", "kind": kind, "seat0": "me", "seat1": "bot:greedy"}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.kind == kind
    page = client.get(response["Location"]).content.decode()
    assert f'class="pill {kind}" data-kind="{kind}"' in page
    assert (">Rated</span>" in page) == (kind == "rated") and (">Casual</span>" in page) == (kind == "casual")
    for tool in ("hint", "undo", "redo", "restart", "new-game"):
        assert (f'id="{tool}"' in page) == (kind == "casual"), tool
    assert '"casual": ' + ("true" if kind == "casual" else "false") in page


@pytest.mark.parametrize(
    ("signed_in", "form", "message"),
    [
        (False, {"kind": "rated"}, "Sign in to play rated games."),
        (True, {"kind": "rated", "seat1": "local"}, "choose casual to pass the device"),
        (True, {"kind": "ranked"}, "Choose a rated or a casual table."),
        (True, {"kind": ""}, "Choose a rated or a casual table."),
    ],
)
def test_a_rated_table_that_cannot_count_is_refused_with_a_reason(client, signed_in, form, message):
    if signed_in:
        _sign_in(client)
    data = {"players": "2", "seat0": "me", "seat1": "bot:greedy", **form}
    response = client.post("/new/kazino/", data)
    assert response.status_code == 200 and b'class="error"' in response.content
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_a_form_without_a_kind_makes_a_casual_table(client):
    _sign_in(client)
    client.post("/new/kazino/", {"players": "2", "seat0": "me", "seat1": "bot:greedy"})
    assert Game.objects.get().kind == "casual"


@pytest.mark.parametrize("kind", ["rated", "tournament"])
def test_no_hint_in_a_game_that_counts_over_http(client, kind):
    from games.commands.create import SeatSpec, create_game
    from games.eventlog.tables import load_table

    user = _sign_in(client)
    seats = [SeatSpec("ana", user=user), SeatSpec("ana again", user=user)]
    counted = create_game("dominoes", {"players": 2}, seats, kind=kind, seed=3)
    casual = create_game("dominoes", {"players": 2}, seats, seed=3)
    seat = load_table(casual.pk).to_act()[0]
    refused = client.get(f"/tables/{counted.pk}/hint?seat={seat}")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "no_hint"
    assert refused.json()["error"]["message"] == f"There are no hints in {kind} games."
    assert b'id="hint"' not in client.get(f"/tables/{counted.pk}/").content
    given = client.get(f"/tables/{casual.pk}/hint?seat={seat}")
    assert given.status_code == 200 and given.json()["action"]
    assert b'id="hint"' in client.get(f"/tables/{casual.pk}/").content
