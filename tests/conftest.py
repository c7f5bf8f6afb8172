"""Shared fixtures. Services: PostgreSQL when DATABASE_URL points at one, Redis when REDIS_URL is set.

With CI=true a test that needs a missing service fails instead of skipping (TEST_PASS=sqlite marks
the second, SQLite-only pass of the store suite, where PostgreSQL is not expected).
"""

from __future__ import annotations

import itertools
import os
import random
import time
from types import SimpleNamespace

import pytest
from django.db.backends.base.operations import BaseDatabaseOperations

from games import engines

engines.register("tiny", "tests.games.tiny_engine")

IN_CI = os.environ.get("CI", "").lower() == "true"
SQLITE_PASS = os.environ.get("TEST_PASS") == "sqlite"

_flush = BaseDatabaseOperations.execute_sql_flush


def _flush_with_bypass(self, sql_list):  # type: ignore[no-untyped-def]
    from django.db import OperationalError

    from games.eventlog.store import allow_rewrite

    # A browser test's Daphne process may still be writing (a computer move) while the test's
    # flush locks the tables: PostgreSQL then breaks the deadlock by failing one side. Try again.
    for attempt in range(5):
        try:
            with allow_rewrite(self.connection):
                return _flush(self, sql_list)
        except OperationalError as exc:
            if "deadlock" not in str(exc) or attempt == 4:
                raise
            time.sleep(0.3 * (attempt + 1))


# The append-only triggers refuse DELETE/TRUNCATE; only the test flush may empty the table.
BaseDatabaseOperations.execute_sql_flush = _flush_with_bypass  # type: ignore[method-assign]

#: What ``migrate`` wrote once and no test changes: the flush after a ``transaction=True`` test keeps
#: them, so it need not write them again (post_migrate made them anew after every such test).
_KEPT_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})


def _sql_flush(style, connection, reset_sequences=True, allow_cascade=False):  # type: ignore[no-untyped-def]
    """The flush after a ``transaction=True`` test (some 760 of them), made cheap. On PostgreSQL, DELETE
    instead of TRUNCATE, which makes every table's and index's files anew and syncs them: 0.2 s for 31
    tables, almost all of them empty, on a quiet disk, 0.3-1.6 s beside other work; DELETE takes 10-30 ms.
    The same exclusive locks are taken first, so that a browser test's server writing meanwhile waits as
    it did for TRUNCATE; the foreign keys are checked at commit (Django makes them deferrable). Sequences
    are not reset, as before (pytest-django's flush does not ask for it)."""
    tables = [
        t
        for t in connection.introspection.django_table_names(only_existing=True, include_views=False)
        if t not in _KEPT_BY_FLUSH
    ]
    if connection.vendor != "postgresql" or reset_sequences or allow_cascade or not tables:
        return connection.ops.sql_flush(
            style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    quoted = [connection.ops.quote_name(t) for t in tables]
    return [f"LOCK TABLE {', '.join(quoted)} IN ACCESS EXCLUSIVE MODE", *(f"DELETE FROM {t}" for t in quoted)]


def _keep_migrated_rows() -> None:
    from django.core.management.commands import flush

    flush.sql_flush = _sql_flush  # type: ignore[assignment]
    # The content types and permissions are still there: nothing for post_migrate to make.
    flush.emit_post_migrate_signal = lambda *args, **kwargs: None  # type: ignore[assignment]


_keep_migrated_rows()


def _static_files_found_once() -> None:
    """Each test ``Client`` loads the middleware again, and WhiteNoise's then lists and stats every
    static file through the finders (WHITENOISE_USE_FINDERS): 26 ms of every client's first request, a
    third of the authorization matrix's time. A server process does it once, at start-up; the files do
    not change during a run, so this process lists them once too and each new middleware takes the
    same entries (later ones win, as in WhiteNoise's own order)."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    scan = WhiteNoiseMiddleware.add_files_from_finders
    found: dict[str, dict[str, object]] = {}

    def add_files_from_finders(self):  # type: ignore[no-untyped-def]
        if self.static_prefix not in found:
            before = dict(self.files)
            scan(self)
            found[self.static_prefix] = {u: f for u, f in self.files.items() if before.get(u) is not f}
        self.files.update(found[self.static_prefix])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders  # type: ignore[method-assign]


_static_files_found_once()


#: The suites that start processes of their own (browsers, servers, workers), by folder: ``bin/test
#: --fast`` leaves them out (``-m "not slow_tier"``, with the modules marked ``processes``).
_PROCESS_FOLDERS = {"e2e": "e2e", "faults": "faults", "cluster": "cluster"}


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    for item in items:
        parts = item.path.parts
        folder = parts[parts.index("tests") + 1] if "tests" in parts else ""
        if folder in _PROCESS_FOLDERS:
            item.add_marker(getattr(pytest.mark, _PROCESS_FOLDERS[folder]))
        if any(item.get_closest_marker(name) for name in ("e2e", "faults", "cluster", "celery", "processes")):
            item.add_marker(pytest.mark.slow_tier)
    # The slow tier first: its tests are the long ones, and xdist hands out tests in this order, so a
    # long test started last would leave the other workers idle while it runs alone (sorted() keeps
    # each module's own order).
    items[:] = sorted(items, key=lambda item: item.get_closest_marker("slow_tier") is None)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):  # type: ignore[no-untyped-def]
    """Keep each phase's report on the item: fixtures that start processes print their logs' tails
    when the test failed (tests/processes.py, report_failed)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(autouse=True)
def _quick_password_hashes(settings):  # type: ignore[no-untyped-def]
    """A password hashed as in production costs 0.4 s of CPU (PBKDF2's million rounds), and a hundred
    tests make or check one: in this process they are hashed with MD5. The browser, fault and cluster
    tests sign in on servers of their own, which hash as in production: their conftest overrides this
    fixture with one that changes nothing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english_afterwards():  # type: ignore[no-untyped-def]
    """A request leaves its language active in the thread (nothing deactivates it after the response):
    a page asked for in ht or tl must not leave later tests reading Tagalog."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
async def close_db_connections():  # type: ignore[no-untyped-def]
    """A socket test's consumers use the database from a worker thread: its connections are closed
    after the test (``pytest.mark.usefixtures("close_db_connections")``)."""
    yield
    from channels.db import database_sync_to_async
    from django.db import connections

    await database_sync_to_async(connections.close_all)()


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"CI=true but {what}: this test must run in CI", pytrace=False)
    pytest.skip(f"{what} (set it up to run this test)")


def _redis_answers() -> str | None:
    """None when Redis at REDIS_URL answers, else why not."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return "REDIS_URL is not set"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        return f"Redis at REDIS_URL does not answer ({exc})"
    return None


@pytest.fixture(autouse=True)
def _services(request):  # type: ignore[no-untyped-def]
    """Skip (or, in CI, fail) a test whose service is missing."""
    wants_pg = request.node.get_closest_marker("postgres")
    wants_redis = request.node.get_closest_marker("redis") or request.node.get_closest_marker("celery")
    if SQLITE_PASS and (wants_pg or wants_redis):
        pytest.skip("SQLite pass: PostgreSQL and Redis tests ran in the main pass")
    if wants_pg and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        _missing("DATABASE_URL is not a PostgreSQL URL")
    if wants_redis and (why := _redis_answers()):
        _missing(why)


@pytest.fixture(autouse=True)
def _quiet_workers(settings):  # type: ignore[no-untyped-def]
    """Tests choose when computer seats play; publishing goes to a fresh in-memory layer."""
    settings.JOBS = "off"
    settings.BOT_DELAY = 0
    # The turn chains that a test's Celery worker runs (tests/processes.py app_env says the same).
    settings.TURN_CHAINS = 1
    settings.TURN_SLICE = 1.0
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


#: Each test process's hours start at a random one: the counts are kept in Redis (a test worker's
#: database, not emptied between runs), where a run started soon after another, its hours counted from
#: the same start, would add its requests to the counts the other left in the same windows.
_RATE_HOURS = itertools.count(random.SystemRandom().randrange(10**9))


@pytest.fixture(autouse=True)
def frozen_window(monkeypatch):  # type: ignore[no-untyped-def]
    """django-ratelimit cuts its windows from the wall clock (a ``10/m`` window may end between two
    requests however fast the machine: a count of wrong codes started again half-way and the limit
    never came). Each test gets a clock of its own that stands still, an hour from the last test's
    (and from any earlier run's), so no count runs over a window's edge and none carries over from
    another test; its value, for a test that hands it to a process it starts."""
    import django_ratelimit.core

    now = 2_000_000_000 + 3600 * next(_RATE_HOURS)
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture(autouse=True)
def _english_between_tests():  # type: ignore[no-untyped-def]
    """A request in Kreyòl or Tagalog leaves its language active in the thread: start and end each test
    in the default language, so that no test reads another's."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate_all()
    translation.activate("en")


@pytest.fixture(autouse=True)
def _pdf_limit_of_its_own(request, monkeypatch):  # type: ignore[no-untyped-def]
    """New PDFs are limited per address and minute, counted in the shared cache: the tests of one
    process all come from 127.0.0.1, so their PDFs added up to the limit and a later test got 429 (or
    not, by the order the tests ran in). Page tests get a limit they cannot reach; a test of the limit
    sets its own."""
    if any(part in str(request.node.fspath) for part in ("tests/frontend/", "tests/seasons/")):
        monkeypatch.setattr("frontend.printables.PDF_RATE", "100000/m")


#: The least a test socket waits for a message it expects (s). channels' WebsocketCommunicator waits
#: 1 s by default, which a busy machine (the suite's other workers, a benchmark beside it) overruns:
#: the wait only bounds a failing test, so it may be long. ``receive_nothing`` is not affected.
SOCKET_WAIT = 30.0


@pytest.fixture(autouse=True, scope="session")
def _patient_test_sockets():  # type: ignore[no-untyped-def]
    from asgiref.testing import ApplicationCommunicator

    original = ApplicationCommunicator.receive_output

    async def receive_output(self, timeout=1):  # type: ignore[no-untyped-def]
        return await original(self, max(timeout, SOCKET_WAIT))

    ApplicationCommunicator.receive_output = receive_output  # type: ignore[method-assign]
    yield
    ApplicationCommunicator.receive_output = original  # type: ignore[method-assign]
