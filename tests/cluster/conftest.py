"""The cluster: the Procfile's processes (two Daphne, the spectator edge, two Celery
workers) on loopback, on the test database.

Each process runs the Procfile's command line as it is (tests/processes.py), with its own log under
var/cluster/; the logs' tails are printed when a test fails. Every process is ended at teardown,
failure or not. The Procfile's beat (the turn watchdog) is not started: this test loses no turn.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.processes import ROOT, Processes, app_env, free_port, http_get, procfile, report_failed

__all__ = ["Cluster", "http_get"]

LOGS = ROOT / "var" / "cluster"
WATCH = "/ws/watch/"


@dataclass
class Cluster(Processes):
    queue: str = ""
    edge: str = ""  # the spectator edge's spectator sockets, ws://127.0.0.1:PORT/ws/watch/

    @property
    def web(self) -> list[str]:
        """The web processes' base URLs, http://127.0.0.1:PORT, in start order."""
        return list(self.urls.values())


@pytest.fixture
def cluster(request, transactional_db, tmp_path) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """Two Daphne processes, the spectator edge and two Celery workers of the Procfile, on
    the test database and Redis.

    Depends on ``transactional_db`` so that it is torn down (every process ended) before the
    test database is emptied.
    """
    assert {"web1", "web2", "edge", "worker1", "worker2", "beat"} <= set(procfile()), (
        "the Procfile lost a process"
    )
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = app_env(
        REDIS_URL=os.environ["REDIS_URL"],
        # A queue of its own: no other test's (or helper's) worker takes these turns.
        CELERY_QUEUE=f"cluster-{uuid.uuid4().hex[:8]}",
        PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
        SPECTATOR_SOCKET=WATCH,  # every process that stores a move publishes it for the edge
        TURN_CHAINS="2",  # as in production: chains of computer turns on both workers
        WORKER_CONCURRENCY="2",
    )
    result = Cluster(logs_dir=LOGS, env=env, queue=env["CELERY_QUEUE"])
    try:
        result.start_web("web1", "web1")
        result.start_web("web2", "web2")
        edge_port = free_port()
        result.start("edge", procfile()["edge"], EDGE_PORT=str(edge_port))
        result.edge = f"ws://127.0.0.1:{edge_port}{WATCH}"
        for name in ("worker1", "worker2"):
            result.start(name, procfile()[name])
        try:
            result.wait_ready(["web1", "web2", "edge", "worker1", "worker2"])
        except AssertionError as exc:
            pytest.fail(str(exc))
        yield result
    finally:
        result.stop()
        if report_failed(request):
            print(result.tails())


@pytest.fixture(autouse=True)
def _quick_password_hashes():  # type: ignore[no-untyped-def]
    """Passwords hashed as the servers these tests start check them (tests/conftest.py)."""
