"""The product as ``bin/run`` serves it: Daphne in the embedded mode, debug mode off (its default).

A real Daphne process on the test database: static files (the table client's JavaScript modules
among them) and pages load without debug, an error page shows no traceback or URL list, a chunked
body over the limit gets its 413 at once, and a socket to an unknown path is closed with 4404 with
nothing logged as an error.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.processes import database_url, free_port, stop

# The test database exists only when a test of the session asks for it (pytest-django).
pytestmark = [pytest.mark.processes, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static"
TIMEOUT = 30.0  # a failure limit for every exchange, never a wait


def _run_environment(database_url: str) -> dict[str, str]:
    """bin/run's environment: whatever the shell has, debug not set, the embedded mode."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "REDIS_URL", "JOBS")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update({"DATABASE_URL": database_url, "BOT_DELAY": "0", "PYTHONUNBUFFERED": "1"})
    return env


class Served:
    def __init__(self, base: str, log: Path) -> None:
        self.base = base
        self.port = int(base.rsplit(":", 1)[1])
        self.log = log

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=TIMEOUT) as response:  # noqa: S310
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read()


@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker) -> Iterator[Served]:  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        url = database_url()
    port = free_port()
    log_path = ROOT / "var" / f"served-daphne-{port}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "infra.asgi:application"],
            cwd=ROOT,
            env=_run_environment(url),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = Served(f"http://127.0.0.1:{port}", log_path)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"Daphne exited:\n{log_path.read_text()}"
            try:
                if server.get("/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"Daphne did not answer:\n{log_path.read_text()}"
            time.sleep(0.1)
        yield server
    finally:
        stop(proc)
    log_path.unlink(missing_ok=True)


def test_bin_run_leaves_debug_off():
    text = (ROOT / "bin" / "run").read_text()
    assert not re.search(r"^\s*(export\s+)?DJANGO_DEBUG=", text, re.M), "bin/run must not turn debug on"


def test_pages_and_every_static_file_load_with_debug_off(served: Served):
    status, _, page = served.get("/")
    assert status == 200
    linked = re.findall(r'(?:href|src)="(/static/[^"?]+)', page.decode())
    assert linked, "the lobby links its stylesheet"
    for path in linked:
        assert served.get(path)[0] == 200, path
    files = sorted(p for p in STATIC.rglob("*") if p.is_file())
    assert any(p.name == "table.js" for p in files)
    for file in files:
        path = "/static/" + file.relative_to(STATIC).as_posix()
        status, headers, body = served.get(path)
        assert status == 200 and body == file.read_bytes(), path
        kind = headers.get("Content-Type", "")
        if file.suffix == ".js":  # a module script must come with a JavaScript type
            assert kind.split(";")[0] in ("text/javascript", "application/javascript"), (path, kind)
        if file.suffix == ".css":
            assert kind.startswith("text/css"), (path, kind)
    status, headers, body = served.get("/jsi18n/?lang=ht")
    assert status == 200 and "javascript" in headers.get("Content-Type", "") and b"gettext" in body
    assert served.get("/rules/skyjo/")[0] == 200


def test_an_error_page_shows_no_debug_information(served: Served):
    for path in ("/no-such-page/", "/tables/99999999999999999999/join/x/"):
        status, _, body = served.get(path)
        text = body.decode(errors="replace")
        assert status == 404, (path, status)
        for sign in ("URLconf", "Django tried these URL patterns", "DEBUG = True", "Traceback"):
            assert sign not in text, (path, sign)


def _chunked_post(served: Served, path: str, size: int) -> tuple[int, bytes]:
    """POST ``size`` bytes in chunks with no length; the status and the body of the answer."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=TIMEOUT) as conn:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        conn.sendall(head.encode())
        sent = 0
        while sent < size:
            chunk = b"x" * min(8192, size - sent)
            conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        conn.sendall(b"0\r\n\r\n")
        answer = b""
        while True:  # Connection: close: the answer ends when the server closes (timeout: a failure)
            data = conn.recv(65536)
            if not data:
                break
            answer += data
    head_part, _, body = answer.partition(b"\r\n\r\n")
    return int(head_part.split(b" ", 2)[1]), body


def test_a_chunked_body_over_the_limit_is_answered_413_not_left_hanging(served: Served):
    status, body = _chunked_post(served, "/api/games/1/actions", 100 * 1024)  # the limit: 64 KiB
    assert status == 413 and b'"too_large"' in body
    status, body = _chunked_post(served, "/api/games/99999999/actions", 1000)
    assert status == 404 and b'"unknown_game"' in body, "a small chunked body reaches the view"


def test_a_socket_to_an_unknown_path_is_closed_with_4404_and_nothing_logged(served: Served):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    origin: Any = served.base
    for path in ("/ws/nope/", "/ws/tables/99999999999999999999/"):
        url = f"ws://127.0.0.1:{served.port}{path}"
        with (
            connect(url, origin=origin, open_timeout=TIMEOUT) as ws,
            pytest.raises(ConnectionClosed) as closed,
        ):
            ws.recv(timeout=TIMEOUT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404, path
    log = served.log.read_text(errors="replace")
    assert "ERROR" not in log and "Traceback" not in log, log[-3000:]
