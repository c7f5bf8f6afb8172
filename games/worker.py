"""Where computer turns run: the turn runner on Redis in production (games/turns.py; or a Celery task
per turn with COMPUTER_TURNS=celery), a background thread otherwise.

After every commit (an after-commit hook, games.hooks) the computer seats that are to act are
scheduled from the table the service built: no load, no query (the seats' levels are kept with the
fold). Celery tasks are sent by name (games.tasks imports this module, not the other way round).

The in-process worker is one daemon thread with a timed queue: scheduling never runs a turn
inline (no recursion, no request waits for a bot), and turns run one at a time.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections

from games import autoplay, hooks, tables, turns

log = logging.getLogger(__name__)

PLAY_BOT_TURN = "games.tasks.play_bot_turn"


def schedule_bot_turn(game_id: int, seq: int, seat: int) -> None:
    if settings.AI_WORKER == "celery" and settings.COMPUTER_TURNS == "runner":
        turns.schedule(game_id, seq, seat, settings.BOT_DELAY)
    elif settings.AI_WORKER == "celery":
        _queue(PLAY_BOT_TURN, (game_id, seq, seat), settings.BOT_DELAY)
    elif settings.AI_WORKER == "inprocess":
        inprocess().schedule(settings.BOT_DELAY, autoplay.play_bot_turn, game_id, seq, seat)
    # AI_WORKER == "off": nothing plays the computer seats (some tests drive them by hand).


def computer_turns(table: tables.Table) -> list[int]:
    """The computer seats to act at this table now (none while it is paused, abandoned or over)."""
    if table.timeline.paused or table.timeline.abandoned or table.outcome() is not None:
        return []
    to_act = table.to_act()
    if not to_act:
        return []
    levels = table.computer_levels()
    return [seat for seat in to_act if seat < len(levels) and levels[seat]]


def _changed(change: hooks.Change) -> None:
    """After a commit: schedule the computer seats that are to act."""
    if change.kind == hooks.RELEASED:
        return
    for seat in computer_turns(change.table):
        schedule_bot_turn(change.table.game.pk, change.table.seq, seat)


hooks.register("computer turns", _changed, order=30)


def schedule_call(delay: float, task: Any, fn: Callable[..., object], *args: object) -> None:
    """Run ``fn(*args)`` after ``delay`` seconds: as the Celery ``task`` in production, else in-process."""
    if settings.AI_WORKER == "celery":
        _queue(task, args, delay)
    elif settings.AI_WORKER == "inprocess":
        inprocess().schedule(delay, fn, *args)


def _queue(task: Any, args: tuple[object, ...], delay: float) -> None:
    """Send a Celery task (a task, or its name). It runs after a commit: an unreachable broker must not
    turn a stored move into an error for its player. A computer turn lost so is scheduled again by the
    turn watchdog."""
    name = task if isinstance(task, str) else task.name
    try:
        if isinstance(task, str):
            from celery import current_app

            current_app.send_task(
                task, args, countdown=delay, queue=settings.CELERY_TASK_DEFAULT_QUEUE, producer=_producer()
            )
        else:
            task.apply_async(args, countdown=delay, queue=settings.CELERY_TASK_DEFAULT_QUEUE)
    except Exception as exc:
        _forget_producer()  # its connection may be what failed: the next turn takes a fresh one
        log.error("could not queue %s%r: %r", name, args, exc)


_producers = threading.local()


def _producer() -> Any:
    """This thread's Celery producer, kept between turns (taking one from the pool for every turn costs
    a third of sending it); made again in a forked pool process."""
    import os

    from celery import current_app

    kept = getattr(_producers, "kept", None)
    if kept is None or kept[0] != os.getpid():
        kept = _producers.kept = (os.getpid(), current_app.producer_pool.acquire(block=True))
    return kept[1]


def _forget_producer() -> None:
    kept = getattr(_producers, "kept", None)
    _producers.kept = None
    if kept is not None:
        import contextlib
        import os

        if kept[0] == os.getpid():
            with contextlib.suppress(Exception):
                kept[1].release()


def resume_pending() -> int:
    """Schedule the computer seats of every running game (a restarted server picks up its tables)."""
    from games.models import Game

    return sum(
        _schedule_computer_turns(game)
        for game in Game.objects.filter(status=Game.Status.ACTIVE).prefetch_related("seats")
    )


def resume_idle(idle_for: float) -> int:
    """The turn watchdog: schedule again the computer turns of running games that have not moved for
    ``idle_for`` seconds. A queued turn is lost when Redis restarts without its data, and a turn held
    by a worker killed outright comes back only after the broker's visibility timeout (an hour): this
    puts such tables back in play. A turn scheduled twice is played once (its command id is
    deterministic, a stale seq is ignored).

    Each position of a game is looked at once per ``idle_for`` (a mark in the cache), so a table
    waiting for a person costs one fold per period, not one per run.
    """
    from django.core.cache import cache
    from django.db.models import Exists, OuterRef, Subquery
    from django.utils import timezone

    from games.models import Event, Game, Seat

    last = Event.objects.filter(game=OuterRef("pk")).order_by("-seq")
    idle = (
        Game.objects.tables()
        .filter(status=Game.Status.ACTIVE)
        .filter(Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(bot_level="")))
        .annotate(last_seq=Subquery(last.values("seq")[:1]), last_at=Subquery(last.values("created_at")[:1]))
        .filter(last_at__lt=timezone.now() - timedelta(seconds=idle_for))
        .prefetch_related("seats")
    )
    scheduled = 0
    for game in idle:
        if cache.add(f"turn-watchdog:{game.pk}:{game.last_seq}", 1, timeout=max(1, round(idle_for))):
            scheduled += _schedule_computer_turns(game)
    if scheduled:
        log.warning("turn watchdog: %s computer turns of idle games scheduled again", scheduled)
    return scheduled


def _schedule_computer_turns(game: Any) -> int:
    """Schedule the computer seats that are to act in ``game`` (seats prefetched); how many."""
    levels = tuple(s.bot_level for s in sorted(game.seats.all(), key=lambda s: s.number))
    if not any(levels):
        return 0
    try:
        table = tables.load_table(game)
    except Exception:
        log.exception("cannot load game %s to resume it", game.pk)
        return 0
    table.levels = levels
    seats = computer_turns(table)
    for seat in seats:
        schedule_bot_turn(game.pk, table.seq, seat)
    return len(seats)


class InProcessWorker:
    def __init__(self) -> None:
        self._queue: list[tuple[float, int, Callable[..., object], tuple[object, ...]]] = []
        self._counter = itertools.count()
        self._cond = threading.Condition()
        self._busy = 0
        self._thread = threading.Thread(target=self._run, name="inprocess-ai", daemon=True)
        self._thread.start()

    def schedule(self, delay: float, fn: Callable[..., object], *args: object) -> None:
        with self._cond:
            heapq.heappush(self._queue, (time.monotonic() + delay, next(self._counter), fn, args))
            self._cond.notify()

    def idle(self) -> bool:
        with self._cond:
            return not self._queue and not self._busy

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until nothing is queued or running (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.idle():
                return True
            time.sleep(0.01)
        return False

    def _run(self) -> None:
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
                log.exception("computer turn %s failed", args)
            finally:
                connections.close_all()
                with self._cond:
                    self._busy -= 1


_worker: InProcessWorker | None = None
_lock = threading.Lock()


def inprocess() -> InProcessWorker:
    global _worker
    with _lock:
        if _worker is None:
            _worker = InProcessWorker()
        return _worker
