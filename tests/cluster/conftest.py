"""The cluster: the Procfile's processes (two Daphne, two Celery workers) on loopback, on the test database.

Each process runs the Procfile's command line as it is, with its own log under var/cluster/; the
logs' tails are printed when a test fails. Every process is ended at teardown, failure or not.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
PROCFILE = ROOT / "infra" / "deploy" / "Procfile"
LOGS = ROOT / "var" / "cluster"
START_TIMEOUT = 60.0


def procfile() -> dict[str, str]:
    """The Procfile's process types and their command lines."""
    entries: dict[str, str] = {}
    for line in PROCFILE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = line.split(":", 1)
            entries[name.strip()] = command.strip()
    return entries


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


def http_get(url: str, timeout: float = 5.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - loopback only
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@dataclass
class Cluster:
    queue: str
    web: list[str]  # base URLs, http://127.0.0.1:PORT
    logs: dict[str, Path]
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def log(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")

    def tails(self, lines: int = 60) -> str:
        out = []
        for name, path in self.logs.items():
            text = path.read_text(errors="replace").splitlines() if path.exists() else []
            out.append(f"----- {name} ({path}), last {lines} lines -----")
            out.extend(text[-lines:])
        return "\n".join(out)

    def stop(self) -> None:
        """SIGTERM to each process group (Celery's pool children included), SIGKILL after 15 s."""
        for proc in self.processes.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for proc in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(max(0.1, deadline - time.monotonic()))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # stragglers of the group, if any
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):  # type: ignore[no-untyped-def]
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def cluster(request, transactional_db, tmp_path) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """Two Daphne processes and two Celery workers of the Procfile, on the test database and Redis.

    Depends on ``transactional_db`` so that it is torn down (every process ended) before the
    test database is emptied.
    """
    commands = procfile()
    assert {"web1", "web2", "worker1", "worker2"} <= set(commands), "the Procfile lost a process"
    LOGS.mkdir(parents=True, exist_ok=True)
    ports = [free_port(), free_port()]
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "DATABASE_URL": database_url(),
        "REDIS_URL": os.environ["REDIS_URL"],
        # A queue of its own: no other test's (or helper's) worker takes these turns.
        "CELERY_QUEUE": f"cluster-{uuid.uuid4().hex[:8]}",
        "AI_WORKER": "celery",
        "BOT_DELAY": "0",
        "DJANGO_DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_FORMAT": "plain",
        "PYTHONUNBUFFERED": "1",
        "WEB1_PORT": str(ports[0]),
        "WEB2_PORT": str(ports[1]),
        "WORKER_CONCURRENCY": "1",
        "WORKER_LOG_LEVEL": "info",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    names = ["web1", "web2", "worker1", "worker2"]
    result = Cluster(
        queue=env["CELERY_QUEUE"],
        web=[f"http://127.0.0.1:{p}" for p in ports],
        logs={name: LOGS / f"{name}.log" for name in names},
    )
    try:
        for name in names:
            with open(result.logs[name], "wb") as log:
                result.processes[name] = subprocess.Popen(
                    ["/bin/sh", "-c", f"exec {commands[name]}"],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group, ended as a whole
                )
        _wait_until_ready(result)
        yield result
    finally:
        result.stop()
        call = getattr(request.node, "report_call", None)
        if call is None or call.failed:
            print(result.tails())


def _wait_until_ready(cluster: Cluster) -> None:
    """Daphne answers /healthz with 200; a worker has logged that it is ready."""
    deadline = time.monotonic() + START_TIMEOUT
    waiting = set(cluster.processes)
    while waiting and time.monotonic() < deadline:
        for name in sorted(waiting):
            proc = cluster.processes[name]
            if proc.poll() is not None:
                pytest.fail(f"{name} exited with {proc.returncode} while starting:\n{cluster.tails()}")
            if name.startswith("web"):
                base = cluster.web[int(name[-1]) - 1]
                with contextlib.suppress(OSError):
                    if http_get(f"{base}/healthz", timeout=2)[0] == 200:
                        waiting.discard(name)
            elif " ready." in cluster.log(name):
                waiting.discard(name)
        time.sleep(0.2)
    if waiting:
        pytest.fail(f"not ready after {START_TIMEOUT:.0f} s: {sorted(waiting)}\n{cluster.tails()}")
