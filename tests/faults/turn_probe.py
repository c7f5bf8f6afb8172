"""The turn runner with a probe, for tests/faults/test_turn_runner_kill.py: never in production.

    python -m tests.faults.turn_probe PROCESSES

runs ``games.turns.supervise`` with each computer turn made long enough to be killed in the middle, and
says on stdout when a turn starts and when it has returned (its move stored if it played; its claim not
yet cleared), with the runner's pid and the moment (``time.time()``):

    turn-probe start pid=123 turn=4:17:2 at=1764700000.123
    turn-probe returned pid=123 turn=4:17:2 at=1764700000.654 result=played

FAULT_PROBE_BEFORE and FAULT_PROBE_AFTER: seconds to wait before the turn and after it returned.
"""

from __future__ import annotations

import os
import sys
import time

BEFORE = float(os.environ.get("FAULT_PROBE_BEFORE", "0.4"))
AFTER = float(os.environ.get("FAULT_PROBE_AFTER", "0.2"))


def _say(what: str, game_id: int, seq: int, seat: int, extra: str = "") -> None:
    sys.stdout.write(
        f"turn-probe {what} pid={os.getpid()} turn={game_id}:{seq}:{seat} at={time.time():.3f}{extra}\n"
    )
    sys.stdout.flush()


def probed(game_id: int, seq: int, seat: int) -> str:
    from games import autoplay

    _say("start", game_id, seq, seat)
    time.sleep(BEFORE)
    result = autoplay.play_bot_turn(game_id, seq, seat)
    _say("returned", game_id, seq, seat, f" result={result}")
    time.sleep(AFTER)
    return result


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
    from games import turns

    turns.supervise(int(sys.argv[1]) if len(sys.argv) > 1 else 2, play=probed)
