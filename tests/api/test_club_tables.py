"""Club-only tables through the public API (#33): ``POST /tables`` with ``club`` (one of the caller's
clubs), listed in ``/lobby`` to the club's members only, joined by members only; to anyone else the
table answers as one that does not exist."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from tournaments import clubs

from .helpers import Api, token_for, user

pytestmark = pytest.mark.django_db

TINY = {"game": "tiny", "options": {"goal": 50}, "seats": [{"kind": "me"}, {"kind": "open"}]}


def test_a_member_makes_a_club_only_table_that_only_members_find_and_join():
    org, ada, bob, cy = user("org"), user("ada"), user("bob"), user("cy")
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    for member in (ada, bob):
        clubs.join(club.join_code, member)
    a, b, c = (Api(token_for(u)) for u in (ada, bob, cy))

    refused = c.post("/tables", {**TINY, "club": club.pk})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "not_a_member"
    for bad in (0, -1, "1", 10**30):
        assert c.post("/tables", {**TINY, "club": bad}).status_code in (400, 422)
    assert not Game.objects.exists()

    made = a.post("/tables", {**TINY, "club": club.pk})
    assert made.status_code == 201, made.content
    table = made.json()["table"]
    assert Game.objects.get(pk=table).club_id == club.pk

    def listed(api: Api) -> bool:
        return any(t["id"] == table for t in api.get("/lobby").json()["tables"])

    assert listed(b) and not listed(c) and not listed(Api())
    missing = table + 1000
    for path in (f"/tables/{table}/state", f"/tables/{missing}/state"):
        answer = c.get(path)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_game"
    stranger = c.post(f"/tables/{table}/join", {})
    nowhere = c.post(f"/tables/{missing}/join", {})
    assert stranger.status_code == nowhere.status_code == 404
    assert stranger.json()["error"] == nowhere.json()["error"]
    assert Seat.objects.get(game_id=table, number=1).awaiting_player
    joined = b.post(f"/tables/{table}/join", {})
    assert joined.status_code == 200 and Seat.objects.get(game_id=table, number=1).user == bob
