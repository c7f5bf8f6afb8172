"""Celery tasks (production mode). The embedded mode runs the same functions in games.worker.

Only Celery and the modules below import this one: games.worker sends the turns by task name.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections

from games import autoplay, worker


@shared_task(
    name=worker.PLAY_BOT_TURN, acks_late=True, reject_on_worker_lost=True, soft_time_limit=20, time_limit=30
)
def play_bot_turn(game_id: int, seq: int, seat: int) -> str:
    # Connections are kept between tasks (CELERY_DB_REUSE_MAX): drop one that broke or aged first.
    close_old_connections()
    return autoplay.play_bot_turn(game_id, seq, seat)


@shared_task(soft_time_limit=60, time_limit=90)
def resume_idle_tables() -> int:
    """The turn watchdog, sent by ``celery beat`` every TURN_WATCHDOG_INTERVAL (infra/settings.py)."""
    return worker.resume_idle(settings.TURN_WATCHDOG_IDLE)
