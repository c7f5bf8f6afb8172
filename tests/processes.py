"""The deployment's processes, started for tests: the Procfile's command lines on loopback.

Used by tests/cluster/ (the topology) and tests/faults/ (the same processes, killed and restarted).
Each process runs in its own process group (a Celery worker's pool children included) with its own
log file; ``Processes.stop`` ends every one of them, and ``tails`` shows the logs when a test fails.
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
PROCFILE = ROOT / "infra" / "deploy" / "Procfile"
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


def database_url(host: str | None = None, port: int | None = None, options: str = "") -> str:
    """The test database's URL, for the processes a test starts (``host``/``port`` replaced to go
    through a proxy; on SQLite, the test database's file)."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    url = f"postgres://{s['USER']}:{s['PASSWORD']}@{host or s['HOST']}:{port or s['PORT']}/{s['NAME']}"
    return f"{url}?{options}" if options else url


def http_get(url: str, timeout: float = 5.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - loopback only
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def app_env(**extra: str) -> dict[str, str]:
    """The environment of an app process on the test database: production mode, plain logs."""
    env = {
        **os.environ,
        # The venv's daphne and celery, as the Procfile expects them on PATH; tests/ importable
        # (a worker may load a test module with --include).
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
        "DATABASE_URL": database_url(),
        "JOBS": "celery",
        # One chain of computer turns (games/background/dueturns.py) for the tests' one-process pools, in
        # short slices: a test's worker stops soon.
        "TURN_CHAINS": "1",
        "TURN_SLICE": "1",
        "BOT_DELAY": "0",
        "DJANGO_DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_FORMAT": "plain",
        "PYTHONUNBUFFERED": "1",
        "WORKER_CONCURRENCY": "1",
        "WORKER_LOG_LEVEL": "info",
        **extra,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def stop(proc: subprocess.Popen, wait: float = 10.0, group: bool = False) -> None:  # type: ignore[type-arg]
    """Ask a process to end (SIGTERM); kill it when it has not within ``wait`` seconds. ``group``: the
    process was started in a session of its own (``start_new_session``), and its whole process group
    is signalled, so that the children it started (a browser server's Node and Chromium) end with it."""

    def signal_it(sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)

    signal_it(signal.SIGTERM)
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        signal_it(signal.SIGKILL)
        proc.wait()
    if group:  # children that outlived their parent's exit
        signal_it(signal.SIGKILL)


def eventually(check: Callable[[], bool], timeout: float = 10.0, step: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


@dataclass
class Processes:
    """Named processes, each ``exec``'d by /bin/sh (so the Procfile's ${VAR:-default} expand)."""

    logs_dir: Path
    env: dict[str, str]
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    logs: dict[str, Path] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)  # web process name -> http://127.0.0.1:PORT

    def start(self, name: str, command: str, **env: str) -> subprocess.Popen[bytes]:
        assert name not in self.processes, f"{name} was started already"
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        self.logs[name] = self.logs_dir / f"{name}.log"
        with open(self.logs[name], "wb") as log:
            proc = subprocess.Popen(
                ["/bin/sh", "-c", f"exec {command}"],
                cwd=ROOT,
                env={**self.env, **env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, ended as a whole
            )
        self.processes[name] = proc
        return proc

    def start_web(self, name: str, entry: str = "web1", **env: str) -> str:
        """A Procfile web process on a free port (its ``${WEB1_PORT}`` set); returns its base URL."""
        port = free_port()
        self.start(name, procfile()[entry], **{f"{entry.upper()}_PORT": str(port), **env})
        self.urls[name] = f"http://127.0.0.1:{port}"
        return self.urls[name]

    def start_edge(self, name: str = "edge", processes: int = 1, **env: str) -> str:
        """The Procfile's spectator edge on a free port (``processes`` sharing it); returns its base URL
        (``wait_ready`` asks its /healthz, which answers once it reaches Redis)."""
        port = free_port()
        self.start(name, procfile()["edge"], EDGE_PORT=str(port), EDGE_PROCESSES=str(processes), **env)
        self.urls[name] = f"http://127.0.0.1:{port}"
        return self.urls[name]

    def start_worker(
        self, name: str, entry: str = "worker1", extra: str = "", restart: bool = False, **env: str
    ) -> None:
        """A Procfile worker under its own node name (``-n`` given last wins), plus ``extra`` options;
        with ``restart``, started again a second after it exits, as its systemd unit does."""
        command = f"{procfile()[entry]} -n {name}@%h {extra}".strip()
        if restart:
            command = f"sh -c 'while :; do {command}; echo \"exited with $?: starting again\"; sleep 1; done'"
        self.start(name, command, **env)

    def log(self, name: str) -> str:
        path = self.logs.get(name)
        return path.read_text(errors="replace") if path and path.exists() else ""

    def tails(self, lines: int = 60) -> str:
        out = []
        for name, path in self.logs.items():
            text = path.read_text(errors="replace").splitlines() if path.exists() else []
            out.append(f"----- {name} ({path}), last {lines} lines -----")
            out.extend(text[-lines:])
        return "\n".join(out)

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Signal the whole process group of ``name`` (a worker and its pool children)."""
        proc = self.processes[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        if sig == signal.SIGKILL:
            proc.wait(10)

    def stop(self, names: Iterable[str] | None = None) -> None:
        """SIGTERM to each process group, SIGKILL after 15 s (and to stragglers of the group)."""
        chosen = [self.processes[n] for n in (self.processes if names is None else names)]
        for proc in chosen:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for proc in chosen:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(max(0.1, deadline - time.monotonic()))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)

    def wait_ready(self, names: Iterable[str], timeout: float = START_TIMEOUT) -> None:
        """Web processes and the edge answer /healthz with 200; workers log " ready."; beat logs that it starts."""
        waiting = set(names)
        deadline = time.monotonic() + timeout
        while waiting and time.monotonic() < deadline:
            for name in sorted(waiting):
                proc = self.processes[name]
                if proc.poll() is not None:
                    raise AssertionError(
                        f"{name} exited with {proc.returncode} while starting:\n{self.tails()}"
                    )
                if name in self.urls:
                    with contextlib.suppress(OSError):
                        if http_get(f"{self.urls[name]}/healthz", timeout=2)[0] == 200:
                            waiting.discard(name)
                elif " ready." in self.log(name) or "beat: Starting..." in self.log(name):
                    waiting.discard(name)
            time.sleep(0.1)
        if waiting:
            raise AssertionError(f"not ready after {timeout:.0f} s: {sorted(waiting)}\n{self.tails()}")


def report_failed(request) -> bool:  # type: ignore[no-untyped-def]
    """Whether the test of ``request`` failed or never ran (tests/conftest.py keeps the reports)."""
    call = getattr(request.node, "report_call", None)
    return call is None or call.failed
