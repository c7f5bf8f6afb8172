"""Seasons through the real pipeline: a club's organiser defines one with the form, its standings are
computed from the tournaments' logs (a correction at an event moves the season), best N applies, the
page, its one-page PDF and the API show it, and bad input changes nothing."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from pypdf import PdfReader

from games.eventlog import streams
from seasons import log, service
from tests.seasons import nights
from tournaments import formats
from tournaments import log as tlog
from tournaments import service as tournaments
from tournaments.models import Club, Entry, Match, Tournament

pytestmark = pytest.mark.django_db(transaction=True)
TODAY = timezone.now().date()


@pytest.fixture()
def club_nights():
    return nights.club_nights((11, 12))


@pytest.fixture()
def organiser(client):
    user = get_user_model().objects.create_user("org", is_staff=True)
    client.force_login(user)
    return user


def _post(client, club, **changes):
    data = {
        "name": "Season 2026",
        "start": (TODAY - timedelta(days=30)).isoformat(),
        "end": (TODAY + timedelta(days=30)).isoformat(),
        "games": ["kazino"],
        "scoring": "table",
        "table": "10, 6, 4",
        "best": "",
        "tie_break_1": "wins",
        "tie_break_2": "",
        "tie_break_3": "",
        "tie_break_4": "",
    }
    data.update(changes)
    return client.post(f"/clubs/{club.slug}/seasons/new/", data)


def _expected(rows, best):
    """Each player's points straight from the tournaments' rows: the final place's points, best N."""
    table = [10, 6, 4]
    got: dict[str, list[int]] = {}
    for row in rows:
        for e in Entry.objects.filter(tournament=row):
            got.setdefault(e.name or f"{e.bot_level}:{e.bot_number}", []).append(table[e.rank - 1])
    return sorted(sum(sorted(v, reverse=True)[:best] if best else v) for v in got.values())


def test_a_season_adds_up_its_events_and_a_correction_moves_it(client, club_nights, organiser):
    club, rows = club_nights
    answer = _post(client, club)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    season_id = int(answer["Location"].rstrip("/").split("/")[-1])
    loaded = service.load(season_id)
    events, ranked = service.table(loaded.season)
    assert [e.ref for e in events] == [r.pk for r in rows]
    assert sorted(s.points for s in ranked) == _expected(rows, None)
    # best 1 of 2, through the form's change
    data = {
        "name": "Season 2026",
        "start": loaded.season.start.isoformat(),
        "end": loaded.season.end.isoformat(),
        "games": ["kazino"],
        "scoring": "table",
        "table": "10, 6, 4",
        "best": "1",
        "tie_break_1": "wins",
    }
    assert client.post(f"/seasons/{season_id}/edit/", data).status_code == 302
    events, ranked = service.table(service.load(season_id).season)
    assert sorted(s.points for s in ranked) == _expected(rows, 1)
    assert all(sum(r.counted for r in s.results) == 1 for s in ranked)
    # The organiser of night 1 corrects a match: the night's standings change, and the season with them.
    before = {s.player: s.all_points for s in ranked}
    match = Match.objects.get(tournament=rows[0], key="R1-T1")
    a, b = match.entrants
    places = match.result["places"]
    tournaments.override(
        rows[0], "R1-T1", {str(a): places[str(b)], str(b): places[str(a)]}, None, "wrong result"
    )
    corrected = formats.final_places(tlog.fold([e.as_dict() for e in streams.read(rows[0].stream_id)]))
    _events, ranked = service.table(service.load(season_id).season)
    night1 = {s.player: next(r.place for r in s.results if r.event == rows[0].pk) for s in ranked}
    entrants = Entry.objects.filter(tournament=rows[0])
    assert night1 == {f"bot:greedy:{e.bot_number}": corrected[e.number] for e in entrants}
    assert {s.player: s.all_points for s in ranked} != before
    after_rows = sorted(s.all_points for s in ranked)
    # the season's log: defined, then changed
    assert [e.type for e in streams.read(season_id)] == ["season.defined", "season.changed"]
    call_command("verify_events")  # the season's stream folds and its hash chain holds

    page = client.get(f"/seasons/{season_id}/")
    assert page.status_code == 200 and b'id="season-table"' in page.content
    part = client.get(f"/seasons/{season_id}/?part=standings")
    assert part.content.decode().lstrip().startswith('<div id="season-standings">')
    pdf = client.get(f"/seasons/{season_id}/season.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf.content))
    assert len(reader.pages) == 1 and "Season 2026" in reader.pages[0].extract_text()
    api = client.get(f"/api/v1/seasons/{season_id}").json()
    assert api["best"] == 1 and len(api["events"]) == 2
    assert sorted(s["all_points"] for s in api["standings"]) == after_rows
    assert client.get("/api/v1/seasons/99999999999999999999").status_code == 404
    assert client.get("/api/v1/seasons/abc").status_code == 404
    club_page = client.get("/clubs/friday/?game=kazino&period=season")
    assert club_page.status_code == 200 and b"Season 2026" in club_page.content
    # each player's events on their page
    player = ranked[0].player
    assert b'id="player-seasons"' in client.get(f"/players/{player}/?game=kazino").content


@pytest.mark.parametrize(
    "changes",
    [
        {"name": ""},
        {"name": "x" * 121},
        {"start": "2026-13-01"},
        {"end": (TODAY - timedelta(days=60)).isoformat()},
        {"end": (TODAY + timedelta(days=800)).isoformat()},
        {"games": ["chess"]},
        {"table": "10, x"},
        {"table": "10, 1001"},
        {"table": ", ".join(["1"] * 65)},
        {"table": ""},
        {"best": "0"},
        {"best": "101"},
        {"best": "²"},
        {"tie_break_1": "luck"},
        {"tie_break_2": "wins"},
        {"scoring": "dice"},
        {"tournaments": ["99999"]},
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(client, organiser, changes):
    club = Club.objects.create(name="Friday club", slug="friday")
    answer = _post(client, club, **changes)
    assert answer.status_code == 400
    assert streams.ids(log.STREAM) == []


def test_only_an_organiser_of_the_club_defines_its_season(client):
    club = Club.objects.create(name="Friday club", slug="friday")
    assert _post(client, club).status_code == 403
    user = get_user_model().objects.create_user("someone")
    client.force_login(user)
    assert _post(client, club).status_code == 403
    tournaments.create("Night", "kazino", "swiss", {}, club=club, by=user)
    assert Tournament.objects.filter(club=club, created_by=user).exists()
    assert _post(client, club).status_code == 302
    season_id = streams.ids(log.STREAM)[0]
    other = get_user_model().objects.create_user("other")
    client.force_login(other)
    assert client.get(f"/seasons/{season_id}/edit/").status_code == 403
    assert client.post(f"/seasons/{season_id}/close").status_code == 403
    assert client.get(f"/seasons/{season_id}/").status_code == 200
    assert client.get("/seasons/99999999999999999999/").status_code == 404
    assert client.get("/seasons/123456/").status_code == 404
    assert service.load(season_id).season.start <= date.today()
