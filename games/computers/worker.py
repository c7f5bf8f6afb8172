"""Which computer seats are to act, and scheduling their turns: ``jobs.enqueue(PLAY_BOT_TURN, …)``
(games/background/jobs.py decides where they run: batched by Celery chains on Redis in production, the
in-process thread in embedded mode); the turn watchdog.

After every commit (an after-commit hook, games.hooks) the computer seats that are to act are
scheduled from the table the service built: no load, no query (the seats' levels are kept with the
fold).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings

from games import hooks
from games.background import jobs
from games.eventlog import tables

log = logging.getLogger(__name__)

PLAY_BOT_TURN = "games.tasks.play_bot_turn"


def schedule_bot_turn(game_id: int, seq: int, seat: int) -> None:
    jobs.enqueue(PLAY_BOT_TURN, game_id, seq, seat, delay=settings.BOT_DELAY)


def computer_turns(table: tables.Table) -> list[int]:
    """The computer seats to act at this table now (none while it is paused, abandoned or over)."""
    if table.timeline.paused or table.over():
        return []
    to_act = table.to_act()
    if not to_act:
        return []
    levels = table.computer_levels()
    return [seat for seat in to_act if seat < len(levels) and levels[seat]]


def on_change(change: hooks.Change) -> None:
    """The after-commit hook (registered in games/apps.py): schedule the computer seats that are to act."""
    if change.kind == hooks.RELEASED:
        return
    for seat in computer_turns(change.table):
        schedule_bot_turn(change.table.game.pk, change.table.seq, seat)


def resume_pending() -> int:
    """Schedule the computer seats of every running game (a restarted server picks up its tables)."""
    from games.models import Game

    return sum(
        schedule_computer_turns(game)
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
            scheduled += schedule_computer_turns(game)
    if scheduled:
        log.warning("turn watchdog: %s computer turns of idle games scheduled again", scheduled)
    return scheduled


def schedule_computer_turns(game: Any) -> int:
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


def inprocess() -> jobs.InProcessWorker:
    """The in-process thread of computer turns (embedded mode; tests drain it)."""
    return jobs.lane("turns")
