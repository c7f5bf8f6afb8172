"""The round estimate of real-card rounds (#30 defect 11): from the tournament's own finished
real-card rounds (round start to the first entry of the slowest table's last game), else a first
guess per game; times injected into the stored events, never the clock."""

from __future__ import annotations

import dataclasses
import html
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from games.eventlog import streams
from tests.tournaments.test_over_the_board import kazino_cards, setup
from tournaments import board_pace, projection, service

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 12, 6, 19, 0, tzinfo=UTC)


def timed(row, minutes_at):  # type: ignore[no-untyped-def]
    """The stored events with times injected: ``minutes_at(event)`` minutes after T0."""
    return [
        dataclasses.replace(e, created_at=T0 + timedelta(minutes=minutes_at(e)))
        for e in streams.read(row.stream_id)
    ]


def enter_round(row, organiser):  # type: ignore[no-untyped-def]
    for table in projection.load(row.stream_id).current.tables:
        a, b = table.entrants
        service.resolve_result(row, table.key, 1, kazino_cards(30, 22, a, b), by=organiser)


def test_before_any_real_card_round_is_finished_the_first_guess_per_game_is_used() -> None:
    row, _people = setup(rounds=2)
    found = board_pace.board_round("kazino", row.options, streams.read(row.stream_id))
    assert found.source == board_pace.DEFAULT and found.rounds == 0
    assert found.minutes == board_pace.GAME_MINUTES["kazino"]
    best_of_3 = board_pace.board_round("pitch", {"best_of": 3}, [])
    assert best_of_3.minutes == 75 and best_of_3.game_minutes == 25


def test_a_finished_real_card_round_measures_the_pace_from_start_to_the_slowest_tables_entry() -> None:
    row, people = setup(rounds=3)
    enter_round(row, people[0])
    t = projection.load(row.stream_id)
    assert t.rounds[0].complete() and t.rounds[1].number == 2
    slow = t.rounds[0].tables[-1].key

    def minutes(e):  # type: ignore[no-untyped-def]
        if e.type == "round.started":
            return 0 if e.data["round"] == 1 else 60
        if e.type in ("result.resolved", "result.recorded"):
            return 37 if e.data["table"] == slow else 12
        return 0

    stored = timed(row, minutes)
    assert board_pace.round_minutes(stored) == [37.0], "the slowest table ends the round"
    found = board_pace.board_round("kazino", row.options, stored)
    assert found.source == board_pace.MEASURED and found.rounds == 1 and found.minutes == 40
    # A correction an hour later is not the game's end.
    service.resolve_result(
        row, slow, 1, kazino_cards(22, 30, *t.table(slow).entrants), "recount", by=people[0]
    )
    late = timed(row, lambda e: 120 if e.seq > stored[-1].seq else minutes(e))
    assert board_pace.round_minutes(late) == [37.0]
    # The page shows it to the organiser (and everyone) instead of the online pace.
    client = Client()
    client.force_login(people[0])
    page = html.unescape(client.get(f"/tournaments/{row.pk}/").content.decode())
    assert "A round with real cards takes about" in page
    assert "(one game)" not in page, "not the online estimate"
