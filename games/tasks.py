"""Celery tasks (production mode). The embedded mode runs the same functions in games.worker."""

from __future__ import annotations

from celery import shared_task

from games import autoplay


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=20, time_limit=30)
def play_bot_turn(game_id: int, seq: int, seat: int) -> str:
    return autoplay.play_bot_turn(game_id, seq, seat)
