"""The background jobs of the replay app (games/background/jobs.py: Celery tasks with Redis, in-process
otherwise).

Callers name them (``review.REVIEW_GAME``): only Celery and games.background.jobs import this module.
"""

from __future__ import annotations

from games.background import jobs
from replay import review


@jobs.job(
    review.REVIEW_GAME,
    lane="reviews",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=600,
    time_limit=660,
)
def review_game(game_id: int) -> str:
    """Review a finished game whose review was requested (replay.review.request)."""
    return review.run(game_id)
