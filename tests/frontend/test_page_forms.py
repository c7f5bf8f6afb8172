"""The pages' inputs read by Django forms (#32): a bad input is refused with a sentence in the
page's language, the page comes back with what was typed, and nothing is made or changed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.models import Game
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
#: The hand-read inputs left in frontend/ (``post.get(``, ``POST.get(``, ``GET.get(``): this only goes down.
HAND_READ_MOST = 0


def test_the_hand_read_inputs_left_in_frontend_only_go_down():
    pattern = re.compile(r"\b(?:post|POST|GET)\.get\(")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "frontend").rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line)
    ]
    assert len(found) <= HAND_READ_MOST, (
        f"{len(found)} inputs read by hand (at most {HAND_READ_MOST}): read them with a form\n"
        + "\n".join(found)
    )


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Players at a table must be a whole number from 2 to 8."),
        ("ht", "Jwè pa tab dwe yon nonm antye soti 2 rive 8."),
        ("tl", "Dapat buong numero ang Manlalaro bawat mesa mula 2 hanggang 8."),
    ],
)
def test_a_tournament_with_a_number_out_of_bounds_is_refused_in_the_pages_language(
    client, organiser, language, sentence
):
    typed = {"name": "Friday Cup", "game": "kazino", "format": "swiss", "table_size": "99", "rounds": "4"}
    response = client.post("/tournaments/new/", typed, HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 200
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', page)
    assert error and sentence in error.group(1), error
    assert 'value="Friday Cup"' in page and 'value="99"' in page and 'name="rounds"' in page
    assert 'max="30" value="4"' in page
    assert not Tournament.objects.exists()


def test_a_tournament_form_refuses_a_choice_it_does_not_offer_and_keeps_the_tie_breaks(client, organiser):
    typed = {"name": "Cup", "game": "kazino", "format": "swiss", "bye_value": "double", "tiebreak": ["wins"]}
    page = client.post("/tournaments/new/", typed).content.decode()
    assert (
        "A sit-out (bye) scores: Select a valid choice. double is not one of the available choices." in page
    )
    assert '<option value="wins" selected>' in page
    many = {"name": "Cup", "game": "kazino", "format": "swiss", "tiebreak": ["wins"] * 5}
    assert "At most 4 tie-breaks." in client.post("/tournaments/new/", many).content.decode()
    long = {"name": "N" * 121, "game": "kazino", "format": "swiss"}
    assert (
        "Name must be at most 120 characters long." in client.post("/tournaments/new/", long).content.decode()
    )
    assert not Tournament.objects.exists()


def test_the_estimate_refuses_a_number_out_of_bounds_by_its_label(client):
    answer = client.get(
        "/tournaments/estimate",
        {"game": "kazino", "format": "swiss", "best_of": "10"},
        HTTP_ACCEPT_LANGUAGE="ht",
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_number"
    assert "1" in answer.json()["error"]["message"] and "9" in answer.json()["error"]["message"]


# --- Real cards (frontend/over_the_board.py) ---------------------------------------------------------


def _board_night():
    from tests.frontend.test_over_the_board_pages import as_user, setup

    row, people = setup()
    match = Match.objects.filter(tournament=row).first()
    return row, people, match, as_user


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Game must be a whole number from 1 to 9."),
        ("ht", "dwe yon nonm antye soti 1 rive 9."),
        ("tl", "mula 1 hanggang 9."),
    ],
)
def test_a_score_entry_for_a_game_out_of_bounds_is_refused_and_kept_as_typed(language, sentence):
    row, people, match, as_user = _board_night()
    first, second = match.entrants
    phone = as_user(people[first])
    typed = {
        "action": "enter",
        "game": "99",
        "count": "1",
        f"h0-cards-{first}": "30",
        f"h0-cards-{second}": "22",
    }
    url = f"/tournaments/{row.pk}/score/{match.key}/"
    response = phone.post(url, typed, HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 400 and sentence in page
    assert f'name="h0-cards-{first}"' in page and 'value="30"' in page and 'value="22"' in page
    assert Match.objects.get(pk=match.pk).board == []


def test_a_score_entry_button_it_does_not_know_or_a_reasonless_dispute_changes_nothing():
    row, people, match, as_user = _board_night()
    phone = as_user(people[match.entrants[0]])
    url = f"/tournaments/{row.pk}/score/{match.key}/"
    page = phone.post(url, {"action": "explode"}, follow=True).content.decode()
    assert "Unknown action." in page
    refused = phone.post(url, {"action": "dispute", "game": "1", "seen": "1", "reason": "  "})
    assert refused.status_code == 400
    assert "Give a reason: the organiser reads it, and the log keeps it." in refused.content.decode()
    rows = phone.post(url, {"action": "more", "game": "1", "count": "100000"})
    assert rows.status_code == 400 and "Rows must be a whole number from 0 to 100." in rows.content.decode()
    assert Match.objects.get(pk=match.pk).board == []


def test_the_organisers_switches_refuse_a_round_out_of_bounds():
    row, people, _match, as_user = _board_night()
    organiser = as_user(people[0])
    before = sorted(Tournament.objects.get(pk=row.pk).board_rounds)
    page = organiser.post(
        f"/tournaments/{row.pk}/board/", {"action": "round", "round": "31", "on": "1"}, follow=True
    ).content.decode()
    assert "Round must be a whole number from 1 to 30." in page
    assert sorted(Tournament.objects.get(pk=row.pk).board_rounds) == before


# --- A new table (frontend/tables.py, frontend/playnow.py) -------------------------------------------


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Seat: Select a valid choice. bot:nobody is not one of the available choices."),
        ("ht", "Plas: Chwazi yon chwa ki bon. bot:nobody pa youn nan chwa yo ofri yo."),
        ("tl", "Puwesto: Pumili ng tamang pagpipilian. Ang bot:nobody ay wala sa mga pagpipilian."),
    ],
)
def test_a_new_table_with_a_seat_it_does_not_offer_is_refused_and_kept_as_typed(client, language, sentence):
    typed = {
        "players": "3",
        "seat0": "me",
        "seat1": "bot:nobody",
        "seat2": "bot:greedy",
        "absent_after": "90",
    }
    response = client.post("/new/dominoes/", typed, HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 200 and sentence in page
    assert 'name="absent_after"' in page and 'value="90"' in page
    assert not Game.objects.exists()


def test_a_new_table_refuses_a_name_too_long(client):
    typed = {"players": "2", "seat0": "local", "name0": "N" * 151, "seat1": "local"}
    page = client.post("/new/kazino/", typed).content.decode()
    assert "Name: Ensure this value has at most 150 characters (it has 151)." in page
    assert not Game.objects.exists()


# --- The profile's API tokens (frontend/profile.py) -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Choose at least one of the scopes play, organise and read."),
        ("ht", None),
        ("tl", None),
    ],
)
def test_a_token_without_a_scope_is_refused_and_the_name_kept(client, organiser, language, sentence):
    from django.utils import translation

    from games.models import ApiToken

    if sentence is None:
        with translation.override(language):
            sentence = translation.gettext("Choose at least one of the scopes play, organise and read.")
        assert sentence != "Choose at least one of the scopes play, organise and read."
    response = client.post(
        "/accounts/profile/", {"action": "create", "name": "my bot"}, HTTP_ACCEPT_LANGUAGE=language
    )
    page = response.content.decode()
    assert response.status_code == 200 and sentence in page
    assert 'value="my bot"' in page
    assert not ApiToken.objects.exists()
    made = client.post("/accounts/profile/", {"action": "create", "name": "my bot", "scopes": ["read"]})
    assert made.status_code == 302 and ApiToken.objects.count() == 1
    client.post("/accounts/profile/", {"action": "revoke", "token": "9" * 30})
    assert ApiToken.objects.get().revoked_at is None
