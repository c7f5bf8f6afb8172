"""#37 item 7: tournament creation and start over the API, with the `organise` scope: checked as the
tournament form checks it, refused without the scope or by anyone but the organiser, nothing made
or changed by a refusal."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import service as tournaments
from tournaments.models import Tournament

from .helpers import Api, token_for, user

pytestmark = pytest.mark.django_db

CUP = {"name": "API Cup", "game": "kazino", "format": "swiss", "options": {"best_of": 3, "rounds": 2}}


def organiser_api(name: str = "org") -> tuple[Any, Api]:
    who = user(name)
    return who, Api(token_for(who, ("organise",)))


def test_an_organise_token_creates_and_starts_a_tournament():
    org, api = organiser_api()
    made = api.post("/tournaments", CUP)
    assert made.status_code == 201, made.content
    body = made.json()
    row = Tournament.objects.get(pk=body["id"])
    assert (row.name, row.game, row.format, row.created_by_id) == ("API Cup", "kazino", "swiss", org.pk)
    assert row.options["best_of"] == 3 and row.options["rounds"] == 2
    assert body["status"] == "registration" and body["url"] == f"/tournaments/{row.pk}/"
    for name in ("ada", "bob", "cy"):
        tournaments.register(row, name, user=user(name))
    started = api.post(f"/tournaments/{row.pk}/start", b"")
    assert started.status_code == 200, started.content
    assert started.json() == {"id": row.pk, "status": "running", "round": 1, "planned_rounds": 2}
    again = api.post(f"/tournaments/{row.pk}/start", b"")
    assert again.status_code == 400 and again.json()["error"]["code"] == "wrong_time"


def test_without_the_organise_scope_or_the_tournament_nothing_is_made_or_started():
    player = Api(token_for(user("ada"), ("play", "read")))
    refused = player.post("/tournaments", CUP)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "missing_scope"
    assert Api().post("/tournaments", CUP).status_code == 401
    assert not Tournament.objects.exists()
    org = user("org")
    cup = tournaments.create("Cup", "kazino", "swiss", {}, by=org)
    for name in ("bob", "cy"):
        tournaments.register(cup, name, user=user(name))
    _other, stranger = organiser_api("other")
    for api, status, code in (
        (stranger, 403, "not_organiser"),
        (player, 403, "missing_scope"),
        (Api(), 401, "sign_in"),
    ):
        answer = api.post(f"/tournaments/{cup.pk}/start", b"")
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
    cup.refresh_from_db()
    assert cup.status == "registration"
    _org, api = organiser_api("org2")
    for number in ("0", "-1", "99999999999999999999", "²", "1" * 5000):
        assert api.post(f"/tournaments/{number}/start", b"").status_code in (400, 404)


@pytest.mark.parametrize(
    "change",
    [
        {"name": ""},
        {"name": "x" * 121},
        {"game": "chess"},
        {"format": "ladder"},
        {"options": {"best_of": 10**30}},
        {"options": {"best_of": -1}},
        {"options": {"best_of": 2.5}},
        {"options": {"best_of": "3"}},
        {"options": {"rounds": 31}},
        {"options": {"table_size": 9}},
        {"options": {"spectator_delay": 51}},
        {"options": {"advance": 10**9}},
        {"options": {"duplicate": {"deep": [1, 2]}}},
        {"options": {"tiebreaks": ["buchholz"] * 1000}},
        {"options": {"tiebreaks": "buchholz"}},
        {"options": {"nonsense": 1}},
        {"options": {"game_config": {"target": 10**30}}},
        {"options": [1, 2]},
    ],
)
def test_a_tournament_the_form_would_refuse_is_refused_and_nothing_is_made(change: dict[str, Any]):
    _org, api = organiser_api()
    answer = api.post("/tournaments", {**CUP, **change})
    assert answer.status_code == 400, (change, answer.content)
    assert answer.json()["error"]["code"]  # bad_options, bad_target (the engine's own word)…
    assert not Tournament.objects.exists()
