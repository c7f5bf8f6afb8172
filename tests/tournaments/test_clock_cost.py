"""The round clock every table page fetches (``/tournaments/ID/clock.json``, again on every nudge of the
tournament's socket) costs the same few queries however long the tournament's log: the clock is kept on
the tournament's row as the events are folded, and the log is not read to serve it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.eventlog import streams
from games.models import Event
from tournaments import clock, projection, simulate
from tournaments import service as tournaments
from tournaments.commands import clock as clock_commands
from tournaments.models import Tournament

T0 = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def _started(seed: int) -> Tournament:
    row = simulate.setup("pitch", "swiss", 4, {"rounds": 2}, "greedy", seed=seed)
    tournaments.start(row)
    row.refresh_from_db()
    return row


def _clock_json(client, row: Tournament) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(f"/tournaments/{row.pk}/clock.json")
    assert answer.status_code == 200
    return answer.json()["clock"], [q["sql"] for q in queries.captured_queries]


@pytest.mark.django_db
def test_clock_json_costs_the_same_queries_for_a_short_log_and_a_long_one(client):
    director = get_user_model().objects.create_user("director", is_staff=True)
    short, long = _started(3), _started(4)
    for row in (short, long):
        clock_commands.act(row, "set", 1800, by=director, now=T0)
        clock_commands.act(row, "start", by=director, now=T0)
    # The long one: an evening of pauses, restarts and extensions (the log grows by 120 events).
    for minute in range(1, 41):
        at = T0 + timedelta(minutes=2 * minute)
        clock_commands.act(long, "pause", by=director, now=at)
        clock_commands.act(long, "extend", 60, by=director, now=at)
        clock_commands.act(long, "start", by=director, now=at + timedelta(minutes=1))
    short_events = Event.objects.filter(game_id=short.stream_id).count()
    long_events = Event.objects.filter(game_id=long.stream_id).count()
    assert long_events >= short_events + 120

    short_clock, short_sql = _clock_json(client, short)
    long_clock, long_sql = _clock_json(client, long)
    assert len(long_sql) == len(short_sql) <= 2
    assert not any(Event._meta.db_table in sql for sql in short_sql + long_sql), "the log is not read"
    # What it serves is the clock the log's events fold to.
    for row, shown in ((short, short_clock), (long, long_clock)):
        c = clock.fold([e.as_dict() for e in streams.read(row.stream_id)])[1]
        assert shown["set"] and shown["round"] == 1
        assert (shown["seconds"], shown["used"]) == (c.seconds, c.used)
        assert shown["running_since"] == round(c.running_since.timestamp() * 1000)
    # 40 extensions of a minute; the clock ran 2 minutes, then 1 minute between each pause and start.
    assert long_clock["seconds"] == 1800 + 40 * 60 and long_clock["used"] == 41 * 60


@pytest.mark.django_db
def test_the_clock_kept_on_the_row_is_the_fold_of_the_log_after_a_rebuild():
    director = get_user_model().objects.create_user("director", is_staff=True)
    row = _started(5)
    clock_commands.act(row, "set", 600, by=director, now=T0)
    clock_commands.act(row, "start", by=director, now=T0)
    clock_commands.act(row, "last_hand", by=director, now=T0 + timedelta(minutes=3))
    clock_commands.set_languages(row, ["tl", "en"], by=director)
    kept = clock_commands.held(row)
    from_log = clock.held([e.as_dict() for e in streams.read(row.stream_id)])
    assert kept == from_log and kept.clocks[1].last_hand and kept.room.languages == ["tl", "en"]
    Tournament.objects.filter(pk=row.pk).update(clock={})
    projection.rebuild()
    assert clock_commands.held(row) == from_log
