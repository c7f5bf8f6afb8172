"""Sending a Celery task by name, with this thread's producer kept between sends (games/background/jobs.py and
the turn chains of games/background/dueturns.py send through here)."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


def send(name: str, args: tuple[Any, ...], delay: float = 0.0) -> None:
    """Send the Celery task ``name`` to CELERY_TASK_DEFAULT_QUEUE. Called after commits: a broker that is
    away is logged, not raised (a computer turn lost so is scheduled again by the turn watchdog)."""
    from celery import current_app

    try:
        current_app.send_task(
            name,
            args,
            countdown=delay if delay > 0 else None,
            queue=settings.CELERY_TASK_DEFAULT_QUEUE,
            producer=_producer(),
        )
    except Exception as exc:
        _forget_producer()  # its connection may be what failed: the next send takes a fresh one
        log.error("could not queue %s%r: %r", name, args, exc)


_producers = threading.local()


def _producer() -> Any:
    """This thread's Celery producer, kept between sends (taking one from the pool for every send costs
    a third of sending it); made again in a forked pool process."""
    from celery import current_app

    kept = getattr(_producers, "kept", None)
    if kept is None or kept[0] != os.getpid():
        kept = _producers.kept = (os.getpid(), current_app.producer_pool.acquire(block=True))
    return kept[1]


def _forget_producer() -> None:
    kept = getattr(_producers, "kept", None)
    _producers.kept = None
    if kept is not None and kept[0] == os.getpid():
        with contextlib.suppress(Exception):
            kept[1].release()
