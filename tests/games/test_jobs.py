"""One place decides how background work runs (games/background/jobs.py): a job is named, never imported by
who schedules it, and runs in-process, as a Celery task, or batched among the due turns."""

from __future__ import annotations

import pytest

from games.background import broker, dueturns, jobs
from games.computers import worker

from . import jobs_probe


@pytest.fixture(autouse=True)
def _clear():
    jobs_probe.DONE.clear()
    yield
    jobs_probe.DONE.clear()


def test_in_process_a_named_job_runs_in_its_lane_after_its_delay(settings):
    settings.JOBS = "inprocess"
    jobs.enqueue("tests.games.jobs_probe.record", 1, delay=0.05)
    jobs.enqueue("tests.games.jobs_probe.slow_review", 2)
    assert jobs.lane("turns").drain(10) and jobs.lane("reviews").drain(10)
    assert sorted(jobs_probe.DONE) == [("inprocess-reviews", 2), ("inprocess-turns", 1)]


def test_off_nothing_runs(settings, monkeypatch):
    settings.JOBS = "off"
    monkeypatch.setattr(broker, "send", lambda *a, **k: pytest.fail("sent"))
    jobs.enqueue("tests.games.jobs_probe.record", 1)
    assert jobs.lane("turns").drain(10) and jobs_probe.DONE == []


def test_with_celery_a_job_is_a_task_and_a_computer_turn_a_due_turn(settings, monkeypatch):
    settings.JOBS = "celery"
    sent: list[tuple[object, ...]] = []
    due: list[tuple[object, ...]] = []
    monkeypatch.setattr(broker, "send", lambda *args: sent.append(args))
    monkeypatch.setattr(dueturns, "schedule", lambda *args: due.append(args))
    jobs.enqueue("tests.games.jobs_probe.record", 3, delay=2.0)
    jobs.enqueue(worker.PLAY_BOT_TURN, 7, 12, 1, delay=0.6)
    assert sent == [("tests.games.jobs_probe.record", (3,), 2.0)]
    assert due == [(worker.PLAY_BOT_TURN, (7, 12, 1), 0.6)]  # no task, no ETA of its own


def test_a_job_is_also_the_celery_task_of_its_name():
    from celery import current_app

    jobs.find("tests.games.jobs_probe.record")
    assert "tests.games.jobs_probe.record" in current_app.tasks
    for name in ("games.tasks.play_bot_turn", "replay.tasks.review_game", "tournaments.tasks.check_no_show"):
        assert jobs.find(name).name == name


def test_a_mode_that_does_not_exist_is_refused(settings):
    settings.JOBS = "runner"
    with pytest.raises(RuntimeError, match="JOBS"):
        jobs.enqueue("tests.games.jobs_probe.record", 1)
