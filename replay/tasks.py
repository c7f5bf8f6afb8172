"""Celery tasks of the replay app (production mode); embedded mode runs the same functions in a thread."""

from __future__ import annotations

from celery import shared_task

from replay import review


@shared_task(acks_late=True, reject_on_worker_lost=True, soft_time_limit=600, time_limit=660)
def review_game(game_id: int) -> str:
    """Review a finished game whose review was requested (replay.review.request)."""
    return review.run(game_id)
