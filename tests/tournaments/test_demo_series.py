"""The demo club's tournament over an evening (#33, "the demo drowns a new player": its Swiss started
again the moment it ended, 20 tournaments in 35 minutes, and its games filled the lobby).

The evening runs on a clock the test moves: the pause is the delay of the job the end of a tournament
schedules, so the test keeps those jobs by the time they fall due and runs each at that time; the
tournaments themselves are played through the real pipeline."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from frontend import lobby
from frontend.management.commands import demo as demo_command
from games.background import jobs
from games.models import Game
from tournaments import simulate
from tournaments.commands import demo_series
from tournaments.models import Entry, MatchGame, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

#: A small Swiss, so that an evening of them fits in a test; the series repeats whatever it is.
SMALL = ("kazino", "swiss", 2, {"rounds": 1, "game_config": {"match": "single"}, "repeat": True})
#: How long the demo's Swiss takes to play: the fastest seen (20 of them in 35 minutes).
PLAYED = timedelta(minutes=2)
EVENING = timedelta(hours=4)


class Evening:
    """The test's clock and the demo jobs waiting for it: (due, name, args)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
        self.waiting: list[tuple[datetime, str, tuple[object, ...]]] = []

    def run_next_job(self) -> bool:
        if not self.waiting:
            return False
        self.waiting.sort(key=lambda w: w[0])
        due, name, args = self.waiting.pop(0)
        self.now = max(self.now, due)
        jobs.call(name, *args)
        return True


@pytest.fixture
def evening(monkeypatch, settings):
    settings.DEMO_PAUSE_MINUTES = 15
    clock = Evening()
    real = jobs.enqueue

    def enqueue(name: str, *args: object, delay: float = 0.0) -> None:
        if name == demo_series.AGAIN_TASK:
            clock.waiting.append((clock.now + timedelta(seconds=delay), name, args))
        else:
            real(name, *args, delay=delay)

    monkeypatch.setattr(jobs, "enqueue", enqueue)
    monkeypatch.setattr(demo_command, "DEMO_TOURNAMENT", SMALL)
    monkeypatch.setattr(demo_command, "DEMO_TABLES", [])
    return clock


def _playing() -> Tournament | None:
    return Tournament.objects.filter(options__repeat=True).exclude(status="finished").first()


def test_over_an_evening_the_demo_plays_a_few_tournaments_an_hour_not_dozens(evening, client):
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    started = {row.pk: evening.now for row in Tournament.objects.all()}
    end = evening.now + EVENING
    while evening.now < end and len(started) < 40:
        row = _playing()
        if row is not None:
            evening.now += PLAYED
            simulate.drive(row, timeout=120)
        elif not evening.run_next_job():
            break  # nothing playing and nothing scheduled: the series stopped
        for pk in Tournament.objects.exclude(pk__in=started).values_list("pk", flat=True):
            started[pk] = evening.now
    times = sorted(started.values())
    busiest = max(sum(1 for t in times if start <= t < start + timedelta(hours=1)) for start in times)
    # 15 minutes' pause after 2 minutes of play: a new one every 17 minutes, four in an hour at most.
    assert busiest <= 4, f"{busiest} demo tournaments in one hour"
    assert len(times) >= 12, "the demo went on all evening"
    assert len({(r.name, r.club_id) for r in Tournament.objects.all()}) == 1  # one series

    # Out of sight: the lists show the series once, the lobby none of its games.
    listed = client.get("/tournaments/").content.decode()
    assert listed.count('class="t-name"') == 1 and 'data-mark="demo"' in listed
    demo_games = set(MatchGame.objects.values_list("game_id", flat=True))
    assert len(demo_games) >= 12
    rows = lobby.listing(lobby.seats.Requester(), evening.now + timedelta(hours=1))
    shown = {r.game.pk for section in ("live", "recent") for r in rows[section]}
    assert not shown & demo_games


def test_the_next_one_keeps_the_computer_players_and_starts_once(evening):
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    first = Tournament.objects.get()
    assert first.is_demo
    simulate.drive(first, timeout=120)
    assert Tournament.objects.count() == 1, "not at once: after the pause"
    [(due, name, args)] = evening.waiting
    assert due - evening.now == timedelta(minutes=15)

    again = demo_series.start_again(*args)
    assert again is not None
    row = Tournament.objects.get(pk=again)
    assert row.status == "running" and row.name == first.name and row.is_demo
    names = sorted(Entry.objects.filter(tournament=row).values_list("name", flat=True))
    assert names == sorted(Entry.objects.filter(tournament=first).values_list("name", flat=True))
    # The job delivered twice, or ``manage.py demo`` ran first: still one tournament playing.
    assert demo_series.start_again(*args) is None
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Tournament.objects.exclude(status="finished").count() == 1


def test_a_tournament_that_does_not_repeat_schedules_nothing(evening):
    row = simulate.setup("kazino", "swiss", 2, {"rounds": 1, "game_config": {"match": "single"}})
    simulate.drive(row, timeout=120)
    assert not row.is_demo and evening.waiting == []


def test_the_lobby_marks_the_demo_tournament_once_and_lists_none_of_its_tables(evening, client):
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    row = Tournament.objects.get()
    tables = list(MatchGame.objects.filter(match__tournament=row).values_list("game_id", flat=True))
    assert tables and Game.objects.filter(pk__in=tables, status="active").exists()
    for language in ("en", "ht", "tl"):
        html = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for pk in tables:
            assert f'data-table="{pk}"' not in html
        line = re.search(rf'<p class="meta demo-tournament" data-tournament="{row.pk}">(.*?)</p>', html, re.S)
        assert line and 'data-mark="demo"' in line.group(1) and f"/tournaments/{row.pk}/" in line.group(1)
        page = client.get(f"/tournaments/{row.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert 'id="demo-note"' in page
    assert (
        "a tournament of computer players" not in client.get("/", HTTP_ACCEPT_LANGUAGE="ht").content.decode()
    )


def test_the_whole_demo_takes_a_few_rows_of_the_lobby_before_its_games(monkeypatch, client):
    """#33: "the Games section sits ~2,700 px down the lobby"; now the demo is its four tables (after
    any table people play) and one line for its tournament."""
    monkeypatch.setattr(demo_command, "DEMO_TOURNAMENT", ("kazino", "swiss", 8, SMALL[3]))
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Game.objects.filter(is_demo=True).count() == 4
    assert MatchGame.objects.count() == 4  # the Swiss's first round: four tables, none listed
    html = client.get("/").content.decode()
    before_games = html[: html.index('<ul class="games">')]
    assert before_games.count('<li class="table-row') == 4
    assert before_games.count('class="meta demo-tournament"') == 1
