"""Jobs for tests/games/test_jobs.py only: registered like the project's (games/background/jobs.py)."""

from __future__ import annotations

import threading

from games.background import jobs

DONE: list[tuple[str, int]] = []


@jobs.job("tests.games.jobs_probe.record")
def record(n: int) -> None:
    DONE.append((threading.current_thread().name, n))


@jobs.job("tests.games.jobs_probe.slow_review", lane="reviews")
def slow_review(n: int) -> None:
    DONE.append((threading.current_thread().name, n))
