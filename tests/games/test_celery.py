"""A real Celery worker on Redis plays the computer seats (production mode: chains of due turns,
games/background/dueturns.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from games.background import dueturns, jobs
from games.computers import worker
from games.eventlog import store
from games.models import Game
from tests.processes import stop

from .factories import play, tiny_game

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    return f"postgres://{settings['USER']}:{settings['PASSWORD']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


@pytest.fixture
def celery_worker(settings):
    queue = f"test-{uuid.uuid4().hex[:8]}"
    settings.JOBS = "celery"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": queue,
        "TURN_CHAINS": "1",
        "TURN_SLICE": "1",
        "EXTRA_ENGINES": "tiny=tests.games.tiny_engine",
        "BOT_DELAY": "0",
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "infra",
            "worker",
            "-Q",
            queue,
            "-c",
            "2",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
    )
    proc.queue = queue
    yield proc
    stop(proc, 15)
    dueturns.queue().client.delete(*dueturns.keys(queue))


def wait_for(predicate, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_real_worker_plays_a_table_of_computers_to_the_end(celery_worker):
    game = tiny_game(bots={0: "random", 1: "random"})

    def finished() -> bool:
        game.refresh_from_db()
        return game.status == Game.Status.FINISHED

    assert wait_for(finished), "the worker did not finish the game"
    log = store.load(game.pk)
    assert {e.actor for e in log} == {"system", "bot:0", "bot:1"}
    assert store.verify_chain(game.pk, log) is None


def test_a_computer_turn_delivered_twice_appends_once(celery_worker):
    game = tiny_game(bots={1: "random"})
    seq = store.head(game.pk)[0]
    play(game, 0, 1, "h1", seq)  # schedules the bot's turn once through on_commit
    assert wait_for(lambda: store.head(game.pk)[0] >= seq + 2)
    for _ in range(2):  # the same turn twice more, as a watchdog would (after it was played)
        jobs.enqueue(worker.PLAY_BOT_TURN, game.pk, seq + 1, 1)
    assert wait_for(lambda: dueturns.queue().pending() == (0, 0))
    bot_moves = [e for e in store.load(game.pk) if e.actor == "bot:1"]
    assert len({e.command_id for e in bot_moves}) == 1
    assert store.head(game.pk)[0] == seq + 2
