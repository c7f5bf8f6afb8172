"""Browser tests: Daphne serves the site (WebSockets included) from a subprocess on the test database;
Playwright drives Debian's Chromium. Screenshots go to test-results/screenshots/.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.processes import database_url, free_port, stop

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


@pytest.fixture(scope="session")
def server(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """A Daphne process on a free loopback port, playing computer seats in-process."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but there is no Chromium at {CHROMIUM}", pytrace=False)
        pytest.skip(f"no Chromium at {CHROMIUM} (bin/test installs it when run as root)")
    with django_db_blocker.unblock():
        url = database_url()
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "JOBS": "inprocess",
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
    stop(proc)
    log.close()


@pytest.fixture(autouse=True)
def _no_channel_layer_in_the_test_process(settings):  # type: ignore[no-untyped-def]
    """The pages listen to the server's channel layer (Redis, or Daphne's own memory), never to this
    process's: a move a test makes here (``tests/replay/play.py``, ``games.commands.moves.submit``) reaches a page only
    when it next loads the table (a reconnection, a gap, a reload), as a move from another server that
    shares no layer would. This process therefore has no layer, and its publications are skipped.

    With the in-memory layer it had, each publication went through ``async_to_sync`` in the test's
    thread, where Playwright's sync API keeps its event loop running: asgiref refused ("You cannot use
    AsyncToSync in the same thread as an async event loop") and every move logged an error that no page
    could have missed, but that buried a failing test's own output."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {}
    channel_layers.backends.clear()


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class BrowserServer:
    """One Chromium per test process, started by Playwright's own browser server (so with Playwright's
    default switches, as ``launch`` would), and reached by each test over Playwright's protocol.

    Starting Chromium costs about a second of CPU; a hundred browser tests paid it each. A browser
    shared this way keeps no state between tests: each test makes its own contexts, and closing the
    connection closes them. Playwright's session-scoped sync browser is not used because it keeps an
    event loop of its own alive, which pytest-asyncio's tests in the same process then trip over.
    """

    def __init__(self, tmp: Path) -> None:
        self.config = tmp / "chromium-server.json"
        self.config.write_text(
            json.dumps({"executablePath": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True})
        )
        self.proc: subprocess.Popen[str] | None = None
        self.endpoint = ""

    def ensure(self) -> str:
        """The server's address, (re)started when it is not running (a crashed Chromium is replaced)."""
        if self.proc is not None and self.proc.poll() is None:
            return self.endpoint
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "playwright",
                "launch-server",
                "--browser",
                "chromium",
                "--config",
                str(self.config),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            # A session of its own: stop() ends the Node server and its Chromium with it (stopping the
            # Python launcher alone left both running after every test run).
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], WAIT / 1000)
        line = self.proc.stdout.readline().strip() if ready else ""
        if not line.startswith("ws://"):
            self.stop()
            pytest.fail(f"Playwright's browser server did not start (it said {line!r})")
        self.endpoint = line
        return line

    def stop(self) -> None:
        if self.proc is None:
            return
        stop(self.proc, group=True)
        self.proc = None


@pytest.fixture(scope="session")
def browser_server(tmp_path_factory):  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but there is no Chromium at {CHROMIUM}", pytrace=False)
        pytest.skip(f"no Chromium at {CHROMIUM} (bin/test installs it when run as root)")
    shared = BrowserServer(tmp_path_factory.mktemp("chromium"))
    yield shared
    shared.stop()


@pytest.fixture
def browser(monkeypatch, browser_server):  # type: ignore[no-untyped-def]
    """The worker's Chromium, connected for this test only: its contexts close with the test."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.connect(browser_server.ensure())
        opened = instance.new_context

        def new_context(**options):  # type: ignore[no-untyped-def]
            # Every context a test opens waits as long as a person would on a loaded machine (CI runs
            # two test processes beside the server and the browser): Playwright's own 30 s default
            # failed a console test's first page under load.
            made = opened(**options)
            made.set_default_timeout(WAIT)
            return made

        instance.new_context = new_context
        try:
            yield instance
        finally:
            instance.close()
            connections.close_all()


# Counts the actions a page sends on its sockets, as the page sends them (synchronously in the handler
# of the tap or key that sent it): "nothing was played before Confirm" is then a count, not a pause
# long enough for a move to have arrived.
COUNT_SENDS = """
window.__actions = 0;
const NativeSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { if (JSON.parse(data).type === "action") window.__actions += 1; } catch (e) {}
  return NativeSend.call(this, data);
};
// The last frames the page received (their type and error code): a failing wait says what came.
window.__frames = [];
// The sockets the page opened, newest last: a test may ask the server a question on one (a round trip
// that orders what the server sent before it).
window.__sockets = [];
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    window.__sockets.push(this);
    this.addEventListener("message", (event) => {
      try {
        const m = JSON.parse(event.data);
        window.__frames.push(m.type + (m.code ? `:${m.code}` : "") + (m.seq !== undefined ? `@${m.seq}` : ""));
        window.__frames = window.__frames.slice(-12);
      } catch (e) {}
    });
    this.addEventListener("close", (event) => { window.__frames.push(`closed:${event.code}`); });
  }
};
"""


def what_the_page_shows(page) -> str:  # type: ignore[no-untyped-def]
    """For a failing wait's message: the connection's status, the error banner, the actions sent."""
    return page.evaluate(
        """() => JSON.stringify({
            status: document.querySelector('#status')?.dataset.status,
            error: document.querySelector('#error:not([hidden])')?.textContent || null,
            preview: document.querySelector('#preview:not([hidden]) #preview-text')?.textContent || null,
            actions: window.__actions,
            frames: window.__frames,
        })"""
    )


def why_no_page_came(page, button: str) -> str:  # type: ignore[no-untyped-def]
    """For a click that was to post a form and did not: is the button there, does its form hold what
    the browser requires, and the last requests the server logged."""
    form = page.evaluate(
        """(selector) => {
            const button = document.querySelector(selector);
            const form = button?.form;
            return JSON.stringify({
                button: button ? button.outerHTML.slice(0, 120) : null,
                valid: form ? form.checkValidity() : null,
                invalid: form ? [...form.elements].filter((e) => e.willValidate && !e.checkValidity())
                    .map((e) => `${e.name}=${JSON.stringify(e.value)}: ${e.validationMessage}`) : [],
            });
        }""",
        button,
    )
    return f"{page.url} {form}\nthe server's last lines:\n{server_log(page)}"


def server_log(page, lines: int = 15) -> str:  # type: ignore[no-untyped-def]
    """The last lines the test process's Daphne logged (the server of ``page``'s address)."""
    port = page.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[-1]
    log = ROOT / "var" / f"e2e-daphne-{port}.log"
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else ""


def actions_sent(page) -> int:  # type: ignore[no-untyped-def]
    """How many actions this page has sent since it was loaded (``COUNT_SENDS``)."""
    return int(page.evaluate("window.__actions"))


@pytest.fixture
def page(browser, server):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1100, "height": 900}, base_url=server)
    context.set_default_timeout(WAIT)
    context.add_init_script(COUNT_SENDS)
    yield context.new_page()
    context.close()


def phone_device(scale: int = 3) -> dict[str, Any]:
    """A phone held upright, used by touch: a browser context's options."""
    return {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": scale,
        "is_mobile": True,
        "has_touch": True,
    }


def phone_context(browser, server, language: str | None = None, scale: int = 3):  # type: ignore[no-untyped-def]
    """A browser context of a phone held upright, by touch (``language``: its language cookie)."""
    context = browser.new_context(base_url=server, **phone_device(scale))
    context.set_default_timeout(WAIT)
    context.add_init_script(COUNT_SENDS)
    if language:
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    return context


@pytest.fixture
def phone(browser, server):  # type: ignore[no-untyped-def]
    """A phone held upright, by touch."""
    context = phone_context(browser, server)
    yield context.new_page()
    context.close()


#: The password of the people the browser tests make and sign in as.
PASSWORD = "pw-e2e-1"


def sign_in(page, username: str, password: str = PASSWORD) -> None:  # type: ignore[no-untyped-def]
    page.goto("/accounts/login/")
    page.fill("main input[name=username]", username)
    page.fill("main input[name=password]", password)
    page.click("main form button[type=submit], main form input[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def answering(page, asked: list[str]):  # type: ignore[no-untyped-def]
    """The page, with every confirmation it asks for answered yes (its message kept in ``asked``)."""

    def accept(dialog):  # type: ignore[no-untyped-def]
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    return page


def new_table(  # type: ignore[no-untyped-def]
    page,
    game: str,
    seats: tuple[str, ...] = ("me", "bot:greedy"),
    *,
    ready: str | None = None,
    fill: dict[str, str] | None = None,
    **options: str,
) -> str:
    """Make a table through ``/new/<game>/``'s form, as a person does: each of ``options`` chosen in its
    select (by name, in order), each of ``fill`` typed in its input, then each seat's choice (seat0, …).
    Waits for the table's page to connect and, with ``ready``, for that selector; returns its address."""
    page.goto(f"/new/{game}/")
    for name, value in options.items():
        page.select_option(f"select[name={name}]", value)
    for name, value in (fill or {}).items():
        page.fill(f"input[name={name}]", value)
    for n, choice in enumerate(seats):
        page.select_option(f"select[name=seat{n}]", choice)
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#status[data-status=open]")
    if ready:
        page.wait_for_selector(ready)
    return str(page.url)


def screenshot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def clean_shots() -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)


@pytest.fixture(autouse=True)
def _quick_password_hashes():  # type: ignore[no-untyped-def]
    """Passwords hashed as the servers these tests start check them (tests/conftest.py)."""
