"""Celery tasks of tournaments (production mode); the embedded mode runs the same functions in-process."""

from __future__ import annotations

from celery import shared_task

from tournaments import service


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=20, time_limit=30)
def check_no_show(stream_id: int, game_id: int) -> str:
    return service.check_no_show(stream_id, game_id)
