"""Loaded into a test's Celery worker with ``--include tests.faults.probe``: never in production.

It makes each computer turn last long enough to be killed in the middle, and says in the worker's log
when a turn starts and when its task has returned (its move stored if it played; the task not yet
acknowledged), with the pid of the pool process that runs it, so that the test knows what it kills:

    fault-probe start pid=123 task=ID game=4 seq=17 seat=2
    fault-probe returned pid=123 task=ID game=4 seq=17 seat=2 result=played

FAULT_PROBE_BEFORE and FAULT_PROBE_AFTER: seconds to wait before the turn and after it returned.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from celery.signals import task_postrun, task_prerun

BEFORE = float(os.environ.get("FAULT_PROBE_BEFORE", "0.4"))
AFTER = float(os.environ.get("FAULT_PROBE_AFTER", "0.2"))
TASK = "games.tasks.play_bot_turn"


def _say(what: str, task_id: str, args: Any, extra: str = "") -> None:
    game, seq, seat = args
    line = f"fault-probe {what} pid={os.getpid()} task={task_id} game={game} seq={seq} seat={seat}{extra}"
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@task_prerun.connect
def _before(sender: Any = None, task_id: str = "", args: Any = None, **kwargs: Any) -> None:
    if getattr(sender, "name", "") == TASK:
        _say("start", task_id, args)
        time.sleep(BEFORE)


@task_postrun.connect
def _after(
    sender: Any = None, task_id: str = "", args: Any = None, retval: Any = None, **kwargs: Any
) -> None:
    if getattr(sender, "name", "") == TASK:
        _say("returned", task_id, args, f" result={retval}")
        time.sleep(AFTER)
