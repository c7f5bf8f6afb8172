"""The turn runner (games/turns.py): due turns in Redis, claimed once, played again when a runner dies,
and real runner processes playing tables of computers to the end on the production settings."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from games import store, turns
from games.models import Game

from .factories import play, tiny_game
from .test_celery import database_url, wait_for

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def queue() -> Iterator[turns.Queue]:
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    kept = turns.Queue(client, f"test-{uuid.uuid4().hex[:8]}", lease=30.0, clock=Clock())
    yield kept
    client.delete(kept.due, kept.claimed, kept.wake)
    client.close()


def clock(queue: turns.Queue) -> Clock:
    assert isinstance(queue.clock, Clock)
    return queue.clock


@pytest.mark.redis
def test_a_turn_is_claimed_once_when_it_is_due(queue):
    queue.schedule(turns.Turn(7, 12, 1), delay=0.6)
    early = queue.claim(4)
    assert early.turns == [] and early.next_due == pytest.approx(clock(queue).now + 0.6)
    clock(queue).now += 0.6
    assert queue.claim(4).turns == [turns.Turn(7, 12, 1)]
    assert queue.claim(4).turns == []  # held by its claim
    assert queue.pending() == (0, 1)


@pytest.mark.redis
def test_a_turn_scheduled_twice_is_kept_once(queue):
    for _ in range(3):
        queue.schedule(turns.Turn(7, 12, 1), delay=0)
    assert queue.claim(4).turns == [turns.Turn(7, 12, 1)]
    assert queue.pending() == (0, 1)


@pytest.mark.redis
def test_a_claim_whose_runner_died_is_played_again_after_its_lease(queue):
    queue.schedule(turns.Turn(7, 12, 1), delay=0)
    queue.schedule(turns.Turn(8, 3, 0), delay=0)
    first = queue.claim(4)
    assert len(first.turns) == 2
    clock(queue).now += 29.0
    held = queue.claim(4, done=[turns.Turn(8, 3, 0)])  # played; the other's runner was killed
    assert held.turns == [] and held.next_lease_end == pytest.approx(clock(queue).now + 1.0)
    assert queue.pending() == (0, 1)
    clock(queue).now += 1.0
    again = queue.claim(4)
    assert again.turns == [turns.Turn(7, 12, 1)] and again.reclaimed == 1
    queue.claim(4, done=[turns.Turn(7, 12, 1)])
    assert queue.pending() == (0, 0)


@pytest.mark.redis
def test_the_turns_of_a_batch_that_waited_get_their_lease_again(queue):
    for game_id in (1, 2):
        queue.schedule(turns.Turn(game_id, 5, 0), delay=0)

    def slow(game_id: int, seq: int, seat: int) -> str:
        clock(queue).now += 20.0  # a turn of 20 s: the second turn's lease (30 s) would run out in it
        return "played"

    runner = turns.Runner(queue, slow, batch=2, time_limit=0)
    seen: list[float] = []
    real_run = runner.run

    def run(turn: turns.Turn) -> None:
        seen.append(queue.client.zscore(queue.claimed, turn.member))
        real_run(turn)

    runner.run = run  # type: ignore[method-assign]
    started = clock(queue).now
    runner.step()
    assert seen == [started + 30.0, started + 20.0 + 30.0]


@pytest.mark.redis
def test_a_runner_told_to_stop_finishes_its_turn_and_clears_its_claim(queue):
    queue.schedule(turns.Turn(1, 1, 0), delay=0)
    queue.schedule(turns.Turn(2, 1, 0), delay=5)

    def play_and_be_stopped(game_id: int, seq: int, seat: int) -> str:
        runner.stopping = True  # SIGTERM in the middle of the turn
        return "played"

    runner = turns.Runner(queue, play_and_be_stopped, time_limit=0)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT)}
    try:
        runner.serve()
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    assert runner.played == 1
    assert queue.pending() == (1, 0)  # the other turn waits for another runner; no claim is left


@pytest.mark.redis
def test_a_runner_is_woken_only_by_a_turn_due_before_the_others(queue):
    queue.schedule(turns.Turn(1, 1, 0), delay=5)
    assert queue.client.llen(queue.wake) == 1
    queue.client.delete(queue.wake)
    queue.schedule(turns.Turn(2, 1, 0), delay=9)  # later than the first: the sleeping runner wakes in time
    assert queue.client.llen(queue.wake) == 0
    queue.schedule(turns.Turn(3, 1, 0), delay=1)  # earlier: wake it
    assert queue.client.llen(queue.wake) == 1
    for _ in range(20):
        queue.schedule(turns.Turn(4, 1, 0), delay=0)
    assert queue.client.llen(queue.wake) <= 8  # the list stays short


@pytest.mark.redis
def test_the_runner_plays_what_is_due_and_sleeps_until_the_next(queue):
    played: list[tuple[int, int, int]] = []

    def play_turn(game_id: int, seq: int, seat: int) -> str:
        played.append((game_id, seq, seat))
        if game_id == 2:
            raise RuntimeError("a refused move")
        return "played"

    runner = turns.Runner(queue, play_turn, batch=2, time_limit=0)
    for game_id in (1, 2, 3):
        queue.schedule(turns.Turn(game_id, 5, 0), delay=0)
    queue.schedule(turns.Turn(4, 5, 0), delay=2.5)
    assert runner.step() == 0.0  # two played, more may be due
    assert runner.step() == 0.0
    assert sorted(played) == [(1, 5, 0), (2, 5, 0), (3, 5, 0)]
    assert runner.step() == pytest.approx(1.0)  # nothing due: at most idle_wait
    clock(queue).now += 2.0
    assert runner.step() == pytest.approx(0.5)
    assert queue.pending() == (1, 0)  # a failed turn's claim is cleared too (the watchdog takes it up)


@pytest.mark.redis
def test_a_turn_past_its_time_limit_is_stopped_and_its_claim_cleared(queue):
    def endless(game_id: int, seq: int, seat: int) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            time.sleep(0.01)
        return "played"

    previous = signal.signal(signal.SIGALRM, turns._on_alarm)
    try:
        runner = turns.Runner(queue, endless, time_limit=0.2)
        queue.schedule(turns.Turn(1, 1, 0), delay=0)
        started = time.monotonic()
        runner.step()
        assert time.monotonic() - started < 20
    finally:
        signal.signal(signal.SIGALRM, previous)
    runner.step()  # the next claim clears it
    assert runner.played == 0 and queue.pending() == (0, 0)


@pytest.fixture
def runners(settings) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m games.turns --processes 2`` on the test database, a queue of its own."""
    name = f"test-{uuid.uuid4().hex[:8]}"
    settings.AI_WORKER = "celery"
    settings.COMPUTER_TURNS = "runner"
    settings.CELERY_TASK_DEFAULT_QUEUE = name
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_QUEUE": name,
        "AI_WORKER": "celery",
        "COMPUTER_TURNS": "runner",
        "EXTRA_ENGINES": "tiny=tests.games.tiny_engine",
        "BOT_DELAY": "0",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "games.turns", "--processes", "2"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    yield proc
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete(*turns.keys(name))
    client.close()


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_runner_processes_play_a_table_of_computers_to_the_end(runners):
    games = [tiny_game(bots={0: "random", 1: "random"}) for _ in range(3)]

    def finished() -> bool:
        return Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.FINISHED).count() == 3

    assert wait_for(finished), "the runners did not finish the games"
    for game in games:
        log = store.load(game.pk)
        assert {e.actor for e in log} == {"system", "bot:0", "bot:1"}
        assert store.verify_chain(game.pk, log) is None
        first = {}
        for event in log:
            if event.actor.startswith("bot:"):
                assert (event.command_id, event.cmd_index) not in first, f"{event.command_id} stored twice"
                first[(event.command_id, event.cmd_index)] = event.seq
        for (command_id, index), seq in first.items():
            assert index > 0 or command_id == f"bot-{seq - 1}-{command_id.rsplit('-', 1)[1]}"


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_turn_scheduled_again_after_it_was_played_appends_nothing(runners):
    game = tiny_game(bots={1: "random"})
    seq = store.head(game.pk)[0]
    play(game, 0, 1, "h1", seq)  # schedules the computer's answer after commit
    assert wait_for(lambda: store.head(game.pk)[0] >= seq + 2)
    turns.schedule(game.pk, seq + 1, 1, 0)  # the same turn again, as a watchdog would
    assert wait_for(lambda: turns.queue().pending() == (0, 0))
    bot_moves = [e for e in store.load(game.pk) if e.actor == "bot:1"]
    assert [e.command_id for e in bot_moves] == [f"bot-{seq + 1}-1"]
    assert store.head(game.pk)[0] == seq + 2
