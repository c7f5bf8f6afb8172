"""Loaded into a test's Celery worker with ``--include tests.faults.turn_probe``: never in production.

It wraps the job that plays a computer turn (``games.background.jobs.wrap``) so that each turn, played by a
turn chain (games/background/dueturns.py), lasts long enough to be killed in the middle, and says on stdout
when a turn starts and when it has returned (its move stored if it played; its claim not yet cleared), with
the pid of the pool process and the moment (``time.time()``):

    turn-probe start pid=123 turn=4:17:2 at=1764700000.123
    turn-probe returned pid=123 turn=4:17:2 at=1764700000.654 result=played

FAULT_PROBE_BEFORE and FAULT_PROBE_AFTER: seconds to wait before the turn and after it returned.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from games.background import jobs

BEFORE = float(os.environ.get("FAULT_PROBE_BEFORE", "0.4"))
AFTER = float(os.environ.get("FAULT_PROBE_AFTER", "0.2"))


def _say(what: str, game_id: int, seq: int, seat: int, extra: str = "") -> None:
    sys.stdout.write(
        f"turn-probe {what} pid={os.getpid()} turn={game_id}:{seq}:{seat} at={time.time():.3f}{extra}\n"
    )
    sys.stdout.flush()


def probed(play: Callable[[int, int, int], str], game_id: int, seq: int, seat: int) -> str:
    _say("start", game_id, seq, seat)
    time.sleep(BEFORE)
    result = play(game_id, seq, seat)
    _say("returned", game_id, seq, seat, f" result={result}")
    time.sleep(AFTER)
    return result


jobs.wrap("games.tasks.play_bot_turn", probed)
