"""The background jobs of games (games/background/jobs.py: Celery tasks with Redis, in-process otherwise).

Callers name them (``jobs.enqueue(PLAY_BOT_TURN, …)``): nothing but Celery and games.background.jobs imports
this module, so it may import what it runs.
"""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import close_old_connections

from games.access import playnow
from games.background import dueturns, jobs
from games.computers import autoplay, worker


@jobs.job(worker.PLAY_BOT_TURN, due=True)
def play_bot_turn(game_id: int, seq: int, seat: int) -> str:
    """A computer seat's turn: in production played by a chain of play_due_turns, never a task of its own."""
    return autoplay.play_bot_turn(game_id, seq, seat)


@shared_task(
    name=dueturns.PLAY_DUE_TURNS,
    acks_late=True,
    reject_on_worker_lost=True,
    # A slice, then the turn in hand: Celery's soft limit stops a turn that runs past it (logged, left to
    # the watchdog); the hard limit ends the pool process (the chain's message is given back).
    soft_time_limit=settings.TURN_SLICE + settings.TURN_TIME_LIMIT,
    time_limit=settings.TURN_SLICE + settings.TURN_TIME_LIMIT + 10,
)
def play_due_turns(slot: int, token: str) -> str:
    # Connections are kept between tasks (CELERY_DB_REUSE_MAX): drop one that broke or aged first.
    close_old_connections()
    return dueturns.play_due_turns(slot, token, lambda job, args: jobs.call(job, *args))


@shared_task(soft_time_limit=60, time_limit=90)
def resume_idle_tables() -> int:
    """The turn watchdog, sent by ``celery beat`` every TURN_WATCHDOG_INTERVAL (infra/settings.py): the
    chains that are not alive are started again, and idle tables' computer turns scheduled again."""
    try:
        dueturns.start_chains()
    except Exception as exc:  # Redis away: the idle tables are still looked at (the next run starts them)
        dueturns.log.error("could not start the turn chains: %r", exc)
    return worker.resume_idle(settings.TURN_WATCHDOG_IDLE)


@worker_ready.connect
def _start_chains(**_kwargs: object) -> None:
    """A worker that starts starts the chains that are not alive (after a deployment, or a lost worker)."""
    if jobs.mode() == jobs.CELERY:
        try:
            dueturns.start_chains()
        except Exception as exc:  # Redis away: the watchdog or the next scheduled turn starts them
            dueturns.log.error("could not start the turn chains: %r", exc)


@jobs.job(playnow.FALLBACK, soft_time_limit=20, time_limit=30)
def play_now_fallback(seek_id: int) -> str:
    """Play now: a computer takes the other seat if the player still waits (games/access/playnow.py)."""
    return playnow.fall_back(seek_id)
