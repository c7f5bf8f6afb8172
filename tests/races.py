"""Calls raced against each other, for the tests of what the database lets one of them win."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections

WAIT = 120.0  # seconds a thread may take to reach its step: only a bound for a failing test


def at_once(*calls: Callable[[], object]) -> list[object]:
    """Run the calls at once (each in its own thread and database connection, released together by a
    barrier): what each returned or raised, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(WAIT)
            results[i] = calls[i]()
        except BaseException as exc:  # the outcome of the race, for the caller to look at
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    assert not any(t.is_alive() for t in threads), "a call never ended"
    return results
