"""Club members and club-only tables in the pages (frontend/clubs.py, #33): the members' page for
members only, the join link, the organisers' forms (bounded, a refusal says why and changes nothing);
the new-table form's and Play now's "only members of"; the lobby showing a member's club tables first;
a player's page keeping a club-only game from non-members."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from games.models import Game, Seat, Seek
from tests.replay.play import new_game, play
from tournaments import clubs
from tournaments.models import Member

pytestmark = pytest.mark.django_db

FORM = {"players": "2", "kind": "casual", "match": "single", "seat0": "me", "seat1": "open"}


def _client(name: str, **extra: bool) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(name, **extra)
    client = Client()
    client.force_login(user)
    return client, user


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    org = get_user_model().objects.create_user("org")
    return clubs.create("Tuesday Club", "tuesday", by=org)


def test_the_members_page_is_for_members_and_the_join_link_makes_one(club):
    org = Client()
    org.force_login(club.created_by)
    page = org.get("/clubs/tuesday/members/")
    assert page.status_code == 200
    link = page.context["join_link"]
    assert link.endswith(f"/clubs/tuesday/join/{club.join_code}/")
    ana, user = _client("ana")
    assert ana.get("/clubs/tuesday/members/").status_code == 404  # not a member: no such club
    assert 'id="club-members-link"' not in ana.get("/clubs/tuesday/").content.decode()
    asked = ana.get(f"/clubs/tuesday/join/{club.join_code}/")  # opening the link only asks
    assert asked.status_code == 200 and not clubs.is_member(club, user)
    joined = ana.post(f"/clubs/tuesday/join/{club.join_code}/")
    assert joined.status_code == 302 and joined["Location"] == "/clubs/tuesday/members/"
    members = ana.get("/clubs/tuesday/members/")
    assert members.status_code == 200 and members.context["join_link"] is None  # a member shares none
    assert 'data-member="ana"' in members.content.decode() and 'data-member="org"' in members.content.decode()
    assert 'id="club-members-link"' in ana.get("/clubs/tuesday/").content.decode()
    anonymous = Client().get(f"/clubs/tuesday/join/{club.join_code}/")
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]


def test_an_organisers_forms_are_bounded_and_a_refusal_changes_nothing(club):
    org = Client()
    org.force_login(club.created_by)
    _ana, ana = _client("ana")
    before = sorted(Member.objects.values_list("user_id", "role"))
    for data in ({"username": "x" * 151}, {"username": ""}, {"username": "nobody"}):
        refused = org.post("/clubs/tuesday/members/add", data)
        assert refused.status_code == 400 and refused.context["error"]
        assert sorted(Member.objects.values_list("user_id", "role")) == before
    for data in ({"user": "9" * 30}, {"user": "²"}, {"user": str(ana.pk), "role": "king"}):
        assert org.post("/clubs/tuesday/members/change", data).status_code == 400
    assert org.post("/clubs/tuesday/members/add", {"username": "ana"}).status_code == 302
    assert clubs.is_member(club, ana)
    with translation.override("ht"):
        refused = org.post("/clubs/tuesday/leave", HTTP_ACCEPT_LANGUAGE="ht")
    assert refused.status_code == 400 and "òganizatè" in refused.context["error"]
    old = club.join_code
    assert org.post("/clubs/tuesday/members/new-code").status_code == 302
    club.refresh_from_db()
    assert club.join_code != old
    assert _ana.post(f"/clubs/tuesday/join/{old}/").status_code == 404


def test_a_member_makes_a_club_only_table_and_play_now_seats_members_of_the_club_together(club):
    ana, ana_user = _client("ana")
    ben, ben_user = _client("ben")
    cy, _cy = _client("cy")
    for user in (ana_user, ben_user):
        clubs.join(club.join_code, user)
    form = ana.get("/new/kazino/").content.decode()
    assert f'<option value="{club.pk}">Only members of Tuesday Club</option>' in form
    assert 'name="club"' not in cy.get("/new/kazino/").content.decode()  # no club, no choice
    made = ana.post("/new/kazino/", {**FORM, "club": str(club.pk)})
    game = Game.objects.get()
    assert made.status_code == 302 and game.club_id == club.pk
    # Another's club, or a number past any id: refused with a reason, no table made.
    for value in (str(club.pk), "9" * 30, "x"):
        refused = cy.post("/new/kazino/", {**FORM, "club": value})
        assert refused.status_code == 200 and refused.context["error"]
    assert Game.objects.count() == 1
    # Play now for the club: only a member of the same club is seated with the one waiting.
    play = {**FORM, "seat1": "bot:greedy", "club": str(club.pk)}
    assert ana.post("/play/kazino/", play).status_code == 302
    assert cy.post("/play/kazino/", {**play, "club": ""}).status_code == 302  # everyone's: another wait
    assert cy.post("/play/kazino/", play).status_code == 400  # refused: not a member
    seated = ben.post("/play/kazino/", play)
    table = Game.objects.exclude(pk=game.pk).get()
    assert seated["Location"] == f"/tables/{table.pk}/" and table.club_id == club.pk
    assert {s.user.username for s in Seat.objects.filter(game=table, user__isnull=False)} == {"ana", "ben"}
    assert Seek.objects.filter(status="waiting").get().user.username == "cy"


def _row_ids(html: str, section: str) -> list[int]:
    part = re.search(rf'<ul class="table-rows" id="{section}">(.*?)</ul>', html, re.S)
    return [int(n) for n in re.findall(r'data-table="(\d+)"', part.group(1) if part else "")]


def test_the_lobby_shows_a_members_club_tables_first_and_nobody_elses(club):
    ana, ana_user = _client("ana")
    ben, ben_user = _client("ben")
    cy, _cy = _client("cy")
    clubs.join(club.join_code, ana_user)
    public = Client()
    public.force_login(ben_user)
    public.post("/new/kazino/", FORM)  # a public table with an open seat
    ana.post("/new/kazino/", {**FORM, "club": str(club.pk)})
    ben.post("/new/kazino/", FORM)  # a later public one, listed first otherwise
    club_table = Game.objects.get(club_id=club.pk)
    dan, dan_user = _client("dan")
    clubs.join(club.join_code, dan_user)
    page = dan.get("/").content.decode()
    live = _row_ids(page, "live-tables")
    assert live and live[0] == club_table.pk, live
    assert "Only members of Tuesday Club" in page
    stranger = cy.get("/").content.decode()
    assert club_table.pk not in _row_ids(stranger, "live-tables") + _row_ids(stranger, "recent-tables")
    assert "Tuesday Club" not in stranger
    assert club_table.pk not in _row_ids(Client().get("/").content.decode(), "live-tables")


@pytest.mark.django_db(transaction=True)  # a finished game is rated after its commit
def test_a_players_page_keeps_a_club_only_game_from_non_members(club):
    model = get_user_model()
    ana, ben = model.objects.create_user("ana"), model.objects.create_user("ben")
    clubs.join(club.join_code, ana)
    options = {"variant": "draw", "target": 20}
    humans = {0: ana, 1: ben}
    game = new_game(
        "dominoes", 2, options=options, humans=humans, seed=4, kind=Game.Kind.RATED, club_id=club.pk
    )
    play(game)
    member, stranger = Client(), Client()
    member.force_login(ana)
    stranger.force_login(model.objects.create_user("cy"))
    link = f'href="/tables/{game.pk}/"'
    assert link in member.get(f"/players/user:{ben.pk}/?game=dominoes").content.decode()
    assert link not in stranger.get(f"/players/user:{ben.pk}/?game=dominoes").content.decode()


def test_the_lobby_reads_a_members_clubs_once(club):
    """Which tables the reader may see and which come first both follow from their clubs: one read."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ana, ana_user = _client("ana")
    clubs.join(club.join_code, ana_user)
    ana.post("/new/kazino/", {**FORM, "club": str(club.pk)})
    with CaptureQueriesContext(connection) as queries:
        page = ana.get("/").content.decode()
    assert _row_ids(page, "live-tables") == [Game.objects.get(club_id=club.pk).pk]
    assert sum('FROM "tournaments_member"' in q["sql"] for q in queries.captured_queries) == 1


def test_a_members_club_table_is_listed_however_many_public_tables_moved_since(club, monkeypatch):
    """The live list is cut to its length after the reader's clubs' tables are put first: a club's
    table is not pushed out by newer public ones."""
    from frontend import lobby

    ana, ana_user = _client("ana")
    ben, _ben = _client("ben")
    clubs.join(club.join_code, ana_user)
    ana.post("/new/kazino/", {**FORM, "club": str(club.pk)})
    ben.post("/new/kazino/", FORM)  # newer: listed first if the list were cut by time alone
    monkeypatch.setattr(lobby, "LIVE_LENGTH", 1)
    assert _row_ids(ana.get("/").content.decode(), "live-tables") == [Game.objects.get(club_id=club.pk).pk]
    public = Game.objects.get(club_id__isnull=True)
    assert _row_ids(ben.get("/").content.decode(), "live-tables") == [public.pk]
