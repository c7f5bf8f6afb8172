"""Play now in the browser's pages (frontend/playnow.py, #33): the new-table form's button, the waiting
page and the small JSON answer it asks, Cancel; refusals say why and change nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game, Seat, Seek

pytestmark = pytest.mark.django_db

FORM = {"players": "2", "kind": "casual", "match": "single", "seat0": "me", "seat1": "bot:greedy"}


def _client(name: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(name)
    client = Client()
    client.force_login(user)
    return client, user


def test_two_players_find_each_other_and_both_pages_go_to_the_table():
    ana, _ = _client("ana")
    ben, _ = _client("ben")
    assert "Play now" in ana.get("/new/kazino/").content.decode()
    waiting = ana.post("/play/kazino/", FORM)
    seek = Seek.objects.get()
    assert waiting.status_code == 302 and waiting["Location"] == f"/play/waits/{seek.pk}/"
    page = ana.get(waiting["Location"]).content.decode()
    assert "Waiting for an opponent…" in page and f'action="/play/waits/{seek.pk}/cancel"' in page
    assert ana.get(f"/play/waits/{seek.pk}/state").json() == {"state": "waiting", "table": None}
    seated = ben.post("/play/kazino/", FORM)
    game = Game.objects.get()
    assert seated.status_code == 302 and seated["Location"] == f"/tables/{game.pk}/"
    assert ana.get(f"/play/waits/{seek.pk}/state").json() == {
        "state": "matched",
        "table": f"/tables/{game.pk}/",
    }
    assert ana.get(f"/play/waits/{seek.pk}/")["Location"] == f"/tables/{game.pk}/"
    assert {s.user.username for s in Seat.objects.filter(game=game)} == {"ana", "ben"}
    # Each plays their own seat at the table (by their account).
    for client in (ana, ben):
        assert len(client.get(f"/tables/{game.pk}/").context["client"]["seats"]) == 1


def test_the_options_shown_are_the_ones_matched():
    ana, _ = _client("ana")
    ben, _ = _client("ben")
    ana.post("/play/kazino/", FORM)
    ben.post("/play/kazino/", {**FORM, "match": "target"})
    assert not Game.objects.exists() and Seek.objects.filter(status="waiting").count() == 2


def test_cancel_stops_the_wait():
    ana, _ = _client("ana")
    ana.post("/play/kazino/", FORM)
    seek = Seek.objects.get()
    back = ana.post(f"/play/waits/{seek.pk}/cancel")
    assert back.status_code == 302 and back["Location"] == "/new/kazino/"
    assert ana.get(f"/play/waits/{seek.pk}/state").json()["state"] == "cancelled"
    assert "You stopped waiting." in ana.get(f"/play/waits/{seek.pk}/").content.decode()


def test_the_fallback_checkbox_asks_for_a_computer_after_its_minutes():
    ana, _ = _client("ana")
    ana.post("/play/kazino/", {**FORM, "fallback": "on", "fallback_minutes": "3"})
    seek = Seek.objects.get()
    assert (seek.fallback_at - seek.created_at).total_seconds() == 180
    assert (
        "If nobody comes within 3 minutes, you play a computer."
        in ana.get(f"/play/waits/{seek.pk}/").content.decode()
    )
    ana.post(f"/play/waits/{seek.pk}/cancel")
    ana.post("/play/kazino/", FORM)  # not asked: no computer
    assert Seek.objects.filter(status="waiting").get().fallback_at is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**FORM, "players": "9"}, "Choose how many players sit at the table."),
        ({**FORM, "players": "²"}, "Choose how many players sit at the table."),
        ({**FORM, "kind": "tournament"}, "Choose a rated or a casual table."),
        ({**FORM, "fallback": "on", "fallback_minutes": "60"}, "must be a whole number from 1 to 5"),
        ({**FORM, "fallback": "on", "fallback_minutes": "1e3"}, "must be a whole number from 1 to 5"),
    ],
)
def test_bad_input_is_refused_with_a_sentence_and_changes_nothing(data, message):
    ana, _ = _client("ana")
    refused = ana.post("/play/kazino/", data)
    assert refused.status_code == 400 and message in refused.content.decode()
    assert not Seek.objects.exists() and not Game.objects.exists()


def test_signed_out_players_are_asked_to_sign_in_and_others_waits_are_not_there():
    ana, _ = _client("ana")
    ben, _ = _client("ben")
    anonymous = Client()
    asked = anonymous.post("/play/kazino/", FORM)
    assert asked.status_code == 302 and "/accounts/login/" in asked["Location"]
    assert anonymous.get("/play/kazino/").status_code == 405
    assert ana.post("/play/nosuchgame/", FORM).status_code == 404
    ana.post("/play/kazino/", FORM)
    seek = Seek.objects.get()
    for client in (ben, anonymous):
        assert client.get(f"/play/waits/{seek.pk}/").status_code == 404
        assert client.get(f"/play/waits/{seek.pk}/state").status_code == 404
        assert client.post(f"/play/waits/{seek.pk}/cancel").status_code == 404
    assert Seek.objects.get().status == "waiting"
    assert ana.get("/play/waits/99999999999999999999/").status_code == 404


@pytest.mark.parametrize("language", ["ht", "tl"])
def test_the_waiting_page_speaks_the_readers_language(language):
    ana, _ = _client("ana")
    ana.post("/play/kazino/", FORM)
    seek = Seek.objects.get()
    ana.cookies["django_language"] = language
    page = ana.get(f"/play/waits/{seek.pk}/").content.decode()
    assert "Waiting for an opponent" not in page and "Cancel" not in page


def test_the_waiting_pages_question_is_cheap(django_assert_max_num_queries):
    """Asked every few seconds by every waiting page: the session, the user, their language, the wait
    (locked) and its "seen" mark in one transaction (two statements more), and nothing more."""
    ana, _ = _client("ana")
    ana.post("/play/kazino/", FORM)
    seek = Seek.objects.get()
    with django_assert_max_num_queries(7):
        answer = ana.get(f"/play/waits/{seek.pk}/state")
    assert answer.json()["state"] == "waiting" and len(answer.content) < 100
