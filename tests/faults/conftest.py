"""Fault tests: the deployment's processes (the Procfile's command lines, tests/processes.py) killed,
cut off from PostgreSQL and from Redis, and the platform checked to lose and double nothing.

Logs go to var/faults/TEST/; their tails are printed when a test fails. Every process (Daphne,
Celery workers and beat, a test's own redis-server) is ended at teardown, failure or not.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from games.eventlog import store
from games.models import Event
from tests.processes import ROOT, Processes, app_env, free_port, report_failed

IN_CI = os.environ.get("CI", "").lower() == "true"
# What no process may log: an exception that reached Daphne or Channels (a 500 or a 1011 close), a
# task that failed, a computer seat's refused move.
SERVER_ERRORS = re.compile(
    r"Internal Server Error|Exception inside application|raised unexpected|chose a refused move"
)


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    for item in items:
        if "tests/faults/" in str(item.fspath):
            item.add_marker(pytest.mark.faults)


@pytest.fixture
def faults(request, transactional_db) -> Iterator[Processes]:  # type: ignore[no-untyped-def]
    """Processes for one test, on the test database; REDIS_URL and a Celery queue of its own.

    Depends on ``transactional_db``: the processes end before the test database is emptied.
    """
    queue = f"faults-{uuid.uuid4().hex[:8]}"
    processes = Processes(
        logs_dir=ROOT / "var" / "faults" / request.node.name[:80],
        env=app_env(CELERY_QUEUE=queue),
    )
    try:
        yield processes
    finally:
        processes.stop()
        if report_failed(request):
            print(processes.tails())
        forget_queue(os.environ.get("REDIS_URL", ""), queue)


def forget_queue(url: str, queue: str) -> None:
    """Remove a test queue from the shared Redis: its list, its due turns and turn chains
    (games/background/dueturns.py), and the messages a killed worker had taken (kombu's ``unacked`` hash),
    which another worker on this Redis would put back in an hour."""
    from games.background.dueturns import keys

    if not url:
        return
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.delete(queue, *keys(queue))
        for tag, raw in client.hgetall("unacked").items():
            if json.loads(raw)[-1] == queue:  # [message, exchange, routing key]
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)
    except redis.RedisError:
        pass
    finally:
        client.close()


class OwnRedis:
    """A redis-server of the test's own on a free loopback port, without persistence (as Debian's
    default): restarting it loses every queued task and every channel-layer group."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.starts = 0
        self.start()

    def start(self) -> None:
        self.starts += 1
        self.processes.start(
            f"redis-{self.starts}",
            f'redis-server --port {self.port} --bind 127.0.0.1 --save "" --appendonly no --daemonize no',
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        try:
            for _ in range(100):
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    time.sleep(0.05)
            raise AssertionError(f"redis-server did not answer on port {self.port}")
        finally:
            client.close()

    def restart(self) -> None:
        """Killed outright, as a crash or an OOM kill would, then started again on the same port."""
        self.processes.kill(f"redis-{self.starts}")
        self.start()


@pytest.fixture
def own_redis(faults: Processes) -> OwnRedis:
    if shutil.which("redis-server") is None:
        if IN_CI:
            pytest.fail("CI=true but there is no redis-server on PATH", pytrace=False)
        pytest.skip("no redis-server on PATH (bin/services installs it)")
    return OwnRedis(faults)


def server_errors(processes: Processes) -> list[str]:
    """Lines of every process's log that tell of an error a client would have seen as a 5xx."""
    return [
        f"{name}: {line}"
        for name in processes.logs
        for line in processes.log(name).splitlines()
        if SERVER_ERRORS.search(line)
    ]


def check_log(game_id: int) -> list[Event]:
    """A game's log: gapless, hash-chained, every computer move under the command id of the position
    it answered (``bot-SEQ-SEAT``, its first event right after SEQ) and stored once."""
    events = store.load(game_id)
    assert store.verify_chain(game_id, events) is None, store.verify_chain(game_id, events)
    commands: dict[str, list[Any]] = {}
    for event in events:
        commands.setdefault(event.command_id, []).append(event)
    for command_id, rows in commands.items():
        seqs = [e.seq for e in rows]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"{command_id} is split: {seqs}"
        assert [e.cmd_index for e in rows] == list(range(len(rows))), f"{command_id} stored twice"
        if rows[0].actor.startswith("bot:"):
            seat = rows[0].actor.split(":")[1]
            assert command_id == f"bot-{seqs[0] - 1}-{seat}", (command_id, seqs[0])
    return events


def check_games(games: list[Any]) -> tuple[int, int]:
    """Every game ended with a whole, gapless, hash-chained log, each computer move under its
    deterministic id, once (``check_log``), and ``verify_events`` replays them all: (events, computer
    moves)."""
    import io

    from django.core.management import call_command

    events = moves = 0
    for game in games:
        log = check_log(game.pk)
        events += len(log)
        moves += len({e.command_id for e in log if e.actor.startswith("bot:")})
    out = io.StringIO()
    call_command("verify_events", stdout=out)
    assert out.getvalue().startswith("OK:"), out.getvalue()
    return events, moves


@pytest.fixture(autouse=True)
def _quick_password_hashes():  # type: ignore[no-untyped-def]
    """Passwords hashed as the servers these tests start check them (tests/conftest.py)."""
