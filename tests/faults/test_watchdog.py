"""The turn watchdog (games.computers.worker.resume_idle, sent by celery beat): which tables it puts back in
play, and how often. Fast, and on any database: the fault tests show it at work in a real deployment."""

from __future__ import annotations

import pytest

from games.commands import controls
from games.computers import worker
from games.eventlog import store
from tests.games.factories import play, tiny_game

pytestmark = pytest.mark.django_db


def test_the_watchdog_schedules_the_computers_of_idle_tables_once_a_period(monkeypatch):
    computers = tiny_game(bots={0: "random", 1: "random"})
    tiny_game(bots={1: "random"})  # seat 0, a person, is to act: never scheduled
    finished = tiny_game(goal=1, bots={1: "random"})
    play(finished, 0, 1, "win", store.head(finished.pk)[0])
    paused = tiny_game(bots={0: "random", 1: "random"})
    controls.pause(paused.pk, "pause", store.head(paused.pk)[0], by="seat:0")
    scheduled: list[tuple[int, int, int]] = []
    monkeypatch.setattr(worker, "schedule_bot_turn", lambda *turn: scheduled.append(turn))

    assert worker.resume_idle(3600) == 0 and scheduled == [], "nothing has been idle for an hour"
    assert worker.resume_idle(0) == 1
    assert scheduled == [(computers.pk, store.head(computers.pk)[0], 0)]
    assert worker.resume_idle(0) == 0, "the same position is looked at once a period"
    # Nothing more was scheduled: not the computers' table again, nor the others.
    assert scheduled == [(computers.pk, store.head(computers.pk)[0], 0)]
