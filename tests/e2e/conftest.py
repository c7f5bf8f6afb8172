"""Browser tests: Daphne serves the site (WebSockets included) from a subprocess on the test database;
Playwright drives Debian's Chromium. Screenshots go to test-results/screenshots/.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection, connections

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = ROOT / "test-results" / "screenshots"
# How long a page may take to show what a test waits for (ms): only a bound for a failing test, so
# generous: a busy machine (the suite's other workers, a benchmark beside it) is slow, not wrong.
WAIT = 120_000

pytestmark = pytest.mark.e2e


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture(scope="session")
def server(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """A Daphne process on a free loopback port, playing computer seats in-process."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but there is no Chromium at {CHROMIUM}", pytrace=False)
        pytest.skip(f"no Chromium at {CHROMIUM} (bin/test installs it when run as root)")
    with django_db_blocker.unblock():
        url = _database_url()
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "AI_WORKER": "inprocess",
        "BOT_DELAY": "0.05",
        "EXTRA_ENGINES": "tiny=tests.games.tiny_engine",
        "DJANGO_DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
    }
    log_path = ROOT / "var" / f"e2e-daphne-{port}.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed in the finalizer
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "infra.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail(f"Daphne did not start; see {log_path}")
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture
def browser(monkeypatch):  # type: ignore[no-untyped-def]
    """A fresh Chromium per test (Playwright's session browser upsets pytest-asyncio)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            yield instance
        finally:
            instance.close()
            connections.close_all()


@pytest.fixture
def page(browser, server):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1100, "height": 900}, base_url=server)
    context.set_default_timeout(WAIT)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser, server):  # type: ignore[no-untyped-def]
    """A phone held upright, by touch."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=3,
        is_mobile=True,
        has_touch=True,
        base_url=server,
    )
    context.set_default_timeout(WAIT)
    yield context.new_page()
    context.close()


def screenshot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def clean_shots() -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
