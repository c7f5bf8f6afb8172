"""Every process of the topology stops within a bounded time on SIGTERM, its children included.

SIGTERM goes to each Procfile process's main process only, as systemd's ``KillMode=mixed`` sends it
(the unit's ``TimeoutStopSec`` is the bound after which it would SIGKILL the rest): the process must
end its own children. A child left behind (the edge's with ``EDGE_PROCESSES=2`` did once, after a
benchmark: its loop idle, its database sessions held) keeps the port and the database, and a
benchmark's clean-up (``DROP DATABASE``) fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time

import pytest
from websockets.sync.client import connect

from games.commands.create import SeatSpec, create_game
from tests.processes import Processes, procfile

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

BOUND = 20.0  # seconds: well within every unit's TimeoutStopSec (the workers' 40 s)
WATCH = "/ws/watch/"


def group_alive(proc: subprocess.Popen[bytes]) -> bool:
    """Whether any process of ``proc``'s process group is left (``proc`` itself reaped first)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(0)
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    return True


def stopped_within(proc: subprocess.Popen[bytes], bound: float) -> float | None:
    """SIGTERM to the main process; the seconds until its whole group was gone, or None past ``bound``."""
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    while time.monotonic() - started < bound:
        if not group_alive(proc):
            return time.monotonic() - started
        time.sleep(0.05)
    return None


def test_every_process_of_the_topology_stops_on_sigterm_within_a_bound(faults: Processes, settings):
    settings.JOBS = "celery"
    settings.CELERY_TASK_DEFAULT_QUEUE = faults.env["CELERY_QUEUE"]
    faults.env.update(SPECTATOR_SOCKET=WATCH, WORKER_CONCURRENCY="2")
    faults.start_web("web1", "web1")
    faults.start_edge("edge", processes=2)
    faults.start_worker("worker1")
    faults.start("beat", procfile()["beat"])
    faults.wait_ready(["web1", "edge", "worker1", "beat"])
    # Tables of computers, so that the worker's turn chain is busy when it is told to stop, each
    # watched through both of the edge's processes (their database work done: the sessions held).
    seats = [SeatSpec(f"Computer {n}", bot_level="greedy") for n in range(4)]
    games = [create_game("dominoes", {"players": 4, "target": 1}, seats) for _ in range(4)]
    edge = faults.urls["edge"]
    watching = []
    for game in games * 2:
        # A client that stops reading (this one never reads after the state): the edge's close waits
        # for its answer only so long.
        ws = connect(f"{edge.replace('http', 'ws')}{WATCH}{game.pk}/", origin=edge, open_timeout=30)
        assert json.loads(ws.recv(timeout=30))["type"] == "state"
        watching.append(ws)

    took: dict[str, float | None] = {}
    for name in ("worker1", "beat", "edge", "web1"):
        took[name] = stopped_within(faults.processes[name], BOUND)
    for ws in watching:
        with contextlib.suppress(Exception):
            ws.close()
    late = [name for name, seconds in took.items() if seconds is None]
    assert not late, f"still running {BOUND:.0f} s after SIGTERM: {late}\n{faults.tails()}"
    print(
        "\nstopped after SIGTERM in " + ", ".join(f"{n} {s:.1f} s" for n, s in took.items() if s is not None)
    )
