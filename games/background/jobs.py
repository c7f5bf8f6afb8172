"""Background work, decided in one place: Celery with Redis (production), a thread in-process (embedded).

A job is a function registered under a name with ``@job``: the same decorator makes it a Celery task of
that name, so the worker and the in-process thread run the same code. Callers only name it:
``enqueue(name, *args, delay=…)`` (a module that schedules a job never imports the module that defines
it, so no import cycle hides behind an import inside a function).

``settings.JOBS`` chooses how every job runs:
- ``celery`` (the default with ``REDIS_URL``): a Celery task sent to ``CELERY_TASK_DEFAULT_QUEUE``, except
  the *due* jobs (``@job(due=True)``, the computer turns): those are kept in Redis by the moment they are
  due and played in batches by the Celery task ``games.tasks.play_due_turns`` (games/background/dueturns.py),
  so a turn costs no message and no ETA of its own;
- ``inprocess`` (the default without Redis, ``bin/run``): a daemon thread per lane with a timed queue
  (computer turns and no-show checks in one, reviews in another, so no table waits behind a review);
- ``off``: nothing runs (tests that drive the computer seats by hand).
"""

from __future__ import annotations

import heapq
import importlib
import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.background import broker, dueturns

log = logging.getLogger(__name__)

CELERY, INPROCESS, OFF = "celery", "inprocess", "off"
MODES = (CELERY, INPROCESS, OFF)


@dataclass
class Job:
    name: str
    fn: Callable[..., Any]
    lane: str  # the in-process thread that runs it
    due: bool  # kept in Redis by due time and played in batches (computer turns), not a task each


_jobs: dict[str, Job] = {}
_wrappers: dict[str, Callable[..., Any]] = {}  # tests/faults/turn_probe.py: a probe around a job


def job(name: str, *, lane: str = "turns", due: bool = False, **celery_options: Any) -> Callable[..., Any]:
    """Register ``fn`` as the job ``name`` and as the Celery task of that name (``celery_options``: its
    time limits, acks)."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        from celery import shared_task

        _jobs[name] = Job(name, fn, lane, due)
        return shared_task(name=name, **celery_options)(fn)

    return register


def mode() -> str:
    value = str(settings.JOBS)
    if value not in MODES:
        raise RuntimeError(f"JOBS must be one of {MODES}, not {value!r}")
    return value


def find(name: str) -> Job:
    """The job ``name``, its module imported by name if no one has yet (``tournaments.tasks.x`` is
    defined in ``tournaments.tasks``)."""
    if name not in _jobs:
        importlib.import_module(name.rpartition(".")[0])
    return _jobs[name]


def call(name: str, *args: Any) -> Any:
    """Run the job now, in this process (its probe first, in a fault test)."""
    fn = find(name).fn
    wrapper = _wrappers.get(name)
    return wrapper(fn, *args) if wrapper else fn(*args)


def wrap(name: str, wrapper: Callable[..., Any]) -> None:
    """Run ``wrapper(fn, *args)`` instead of the job's function (fault tests' probes; never in production)."""
    _wrappers[name] = wrapper


def enqueue(name: str, *args: Any, delay: float = 0.0) -> None:
    """Run the job ``name`` with ``args`` in the background, ``delay`` seconds from now.

    Called after commits: an unreachable broker must not turn a stored move into an error for its
    player, so a failure to send is logged, not raised (a computer turn lost so is scheduled again by
    the turn watchdog).
    """
    how = mode()
    if how == OFF:
        return
    spec = find(name)
    if how == INPROCESS:
        lane(spec.lane).schedule(delay, call, name, *args)
    elif spec.due:
        dueturns.schedule(name, args, delay)
    else:
        broker.send(name, args, delay)


class InProcessWorker:
    """One daemon thread with a timed queue: scheduling never runs a job inline (no recursion, no request
    waits for a bot), and the jobs of a lane run one at a time."""

    def __init__(self, name: str = "inprocess-jobs") -> None:
        self._queue: list[tuple[float, int, Callable[..., object], tuple[object, ...]]] = []
        self._counter = itertools.count()
        self._cond = threading.Condition()
        self._busy = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def schedule(self, delay: float, fn: Callable[..., object], *args: object) -> None:
        with self._cond:
            heapq.heappush(self._queue, (time.monotonic() + delay, next(self._counter), fn, args))
            self._cond.notify_all()  # the worker thread, and any drain() waiting

    def idle(self) -> bool:
        with self._cond:
            return not self._queue and not self._busy

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until nothing is queued or running (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._queue or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)  # woken by each job's end (and each schedule)
            return True

    def _run(self) -> None:
        from django.db import close_old_connections, connections

        while True:
            with self._cond:
                while not self._queue or self._queue[0][0] > time.monotonic():
                    wait = self._queue[0][0] - time.monotonic() if self._queue else None
                    self._cond.wait(wait)
                _, _, fn, args = heapq.heappop(self._queue)
                self._busy += 1
            try:
                close_old_connections()
                fn(*args)
            except Exception:
                log.exception("background job %s failed", args)
            finally:
                connections.close_all()
                with self._cond:
                    self._busy -= 1
                    self._cond.notify_all()  # drain() waits for this


_lanes: dict[str, InProcessWorker] = {}
_lock = threading.Lock()


def lane(name: str) -> InProcessWorker:
    """The in-process thread of a lane (started on first use)."""
    with _lock:
        if name not in _lanes:
            _lanes[name] = InProcessWorker(f"inprocess-{name}")
        return _lanes[name]
