"""The background jobs of tournaments (games/background/jobs.py: Celery tasks with Redis, in-process
otherwise).

Callers name them (``progress.NO_SHOW_TASK``): only Celery and games.background.jobs import this module.
"""

from __future__ import annotations

from games.background import jobs
from tournaments import service
from tournaments.commands import demo_series
from tournaments.commands.demo_series import AGAIN_TASK
from tournaments.commands.progress import NO_SHOW_TASK


@jobs.job(NO_SHOW_TASK, acks_late=True, reject_on_worker_lost=True, soft_time_limit=20, time_limit=30)
def check_no_show(stream_id: int, game_id: int) -> str:
    return service.check_no_show(stream_id, game_id)


@jobs.job(AGAIN_TASK, soft_time_limit=60, time_limit=90)
def start_demo_again(tournament_id: int) -> int | None:
    return demo_series.start_again(tournament_id)
