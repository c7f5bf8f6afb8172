"""Computer turns due in Redis, played in batches by chains of Celery tasks (games/background/dueturns.py):
claimed once, played again when a chain's process dies, chains that never multiply, and a real Celery worker
playing tables of computers to the end on the production settings."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import redis
from billiard.exceptions import SoftTimeLimitExceeded

from games.background import broker, dueturns, jobs
from games.computers import autoplay, worker
from games.eventlog import store
from games.models import Game

from .factories import play, tiny_game
from .test_celery import celery_worker, wait_for  # noqa: F401 (a fixture used below)

JOB = worker.PLAY_BOT_TURN


def turn(game_id: int, seq: int, seat: int) -> dueturns.Turn:
    return dueturns.Turn(JOB, (game_id, seq, seat))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def queue() -> Iterator[dueturns.Queue]:
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    kept = dueturns.Queue(client, f"test-{uuid.uuid4().hex[:8]}", lease=30.0, clock=Clock())
    yield kept
    client.delete(kept.due, kept.claimed, kept.wake, kept.chains, kept.tokens)
    client.close()


def clock(queue: dueturns.Queue) -> Clock:
    assert isinstance(queue.clock, Clock)
    return queue.clock


def chain(queue: dueturns.Queue, play, **kwargs) -> dueturns.Chain:  # type: ignore[no-untyped-def]
    return dueturns.Chain(queue, play, monotonic=clock(queue), **kwargs)


pytestmark = pytest.mark.redis


def test_a_turn_is_claimed_once_when_it_is_due(queue):
    queue.schedule(turn(7, 12, 1), delay=0.6)
    early = queue.claim(4)
    assert early.turns == [] and early.next_due == pytest.approx(0.6)
    clock(queue).now += 0.6
    assert queue.claim(4).turns == [turn(7, 12, 1)]
    assert queue.claim(4).turns == []  # held by its claim
    assert queue.pending() == (0, 1)


def test_without_a_test_clock_the_due_time_is_redis_s_own(queue):
    queue.clock = None  # Redis's TIME in the scripts, whatever the clients' clocks say
    queue.schedule(turn(7, 12, 1), delay=0)
    queue.schedule(turn(8, 1, 0), delay=60)
    claimed = queue.claim(4)
    assert claimed.turns == [turn(7, 12, 1)]
    assert 59 < (claimed.next_due or 0) <= 60
    score = queue.client.zscore(queue.due, turn(8, 1, 0).member)
    assert abs(score - 60 - dueturns._redis_time(queue.client)) < 5


def test_a_turn_scheduled_twice_is_kept_once(queue):
    for _ in range(3):
        queue.schedule(turn(7, 12, 1), delay=0)
    assert queue.claim(4).turns == [turn(7, 12, 1)]
    assert queue.pending() == (0, 1)


def test_a_claim_whose_chain_died_is_played_again_after_its_lease(queue):
    queue.schedule(turn(7, 12, 1), delay=0)
    queue.schedule(turn(8, 3, 0), delay=0)
    first = queue.claim(4)
    assert len(first.turns) == 2
    clock(queue).now += 29.0
    held = queue.claim(4, done=[turn(8, 3, 0)])  # played; the other's pool process was killed
    assert held.turns == [] and held.next_lease_end == pytest.approx(1.0)
    assert queue.pending() == (0, 1)
    clock(queue).now += 1.0
    again = queue.claim(4)
    assert again.turns == [turn(7, 12, 1)] and again.reclaimed == 1
    queue.claim(4, done=[turn(7, 12, 1)])
    assert queue.pending() == (0, 0)


def test_the_turns_of_a_batch_that_waited_get_their_lease_again(queue):
    for game_id in (1, 2):
        queue.schedule(turn(game_id, 5, 0), delay=0)

    def slow(t: dueturns.Turn) -> str:
        clock(queue).now += 20.0  # a turn of 20 s: the second turn's lease (30 s) would run out in it
        return "played"

    playing = chain(queue, slow, batch=2)
    seen: list[float] = []
    real_run = playing.run

    def run(t: dueturns.Turn) -> None:
        seen.append(queue.client.zscore(queue.claimed, t.member))
        real_run(t)

    playing.run = run  # type: ignore[method-assign]
    started = clock(queue).now
    playing.step()
    assert seen == [started + 30.0, started + 20.0 + 30.0]


def test_a_chain_plays_for_its_slice_then_clears_its_claims(queue):
    queue.schedule(turn(1, 1, 0), delay=0)
    queue.schedule(turn(2, 1, 0), delay=0)
    queue.schedule(turn(3, 1, 0), delay=50)  # after the slice: left for the next one

    def play_turn(t: dueturns.Turn) -> str:
        clock(queue).now += 1.0
        return "played"

    waits: list[float] = []
    playing = chain(queue, play_turn, batch=1, slice=5.0)
    queue.wait = lambda seconds: (
        waits.append(seconds),
        setattr(clock(queue), "now", clock(queue).now + seconds),
    )  # type: ignore[method-assign]
    assert playing.serve() == 2
    assert waits == [1.0, 1.0, 1.0]  # idle_wait at most, to the end of the slice (the next is due later)
    assert queue.pending() == (1, 0)  # no claim is left


def test_a_chain_is_woken_only_by_a_turn_due_before_the_others(queue):
    queue.schedule(turn(1, 1, 0), delay=5)
    assert queue.client.llen(queue.wake) == 1
    queue.client.delete(queue.wake)
    queue.schedule(turn(2, 1, 0), delay=9)  # later than the first: the sleeping chain wakes in time
    assert queue.client.llen(queue.wake) == 0
    queue.schedule(turn(3, 1, 0), delay=1)  # earlier: wake it
    assert queue.client.llen(queue.wake) == 1
    for _ in range(20):
        queue.schedule(turn(4, 1, 0), delay=0)
    assert queue.client.llen(queue.wake) <= 8  # the list stays short


def test_a_chain_plays_what_is_due_and_sleeps_until_the_next(queue):
    played: list[tuple[int, ...]] = []

    def play_turn(t: dueturns.Turn) -> str:
        played.append(t.args)
        if t.args[0] == 2:
            raise RuntimeError("a refused move")
        return "played"

    playing = chain(queue, play_turn, batch=2)
    for game_id in (1, 2, 3):
        queue.schedule(turn(game_id, 5, 0), delay=0)
    queue.schedule(turn(4, 5, 0), delay=2.5)
    assert playing.step() == 0.0  # two played, more may be due
    assert playing.step() == 0.0
    assert sorted(played) == [(1, 5, 0), (2, 5, 0), (3, 5, 0)]
    assert playing.step() == pytest.approx(1.0)  # nothing due: at most idle_wait
    clock(queue).now += 2.0
    assert playing.step() == pytest.approx(0.5)
    assert queue.pending() == (1, 0)  # a failed turn's claim is cleared too (the watchdog takes it up)


def test_a_turn_stopped_by_celery_s_soft_time_limit_is_left_to_the_watchdog(queue):
    def endless(t: dueturns.Turn) -> str:
        raise SoftTimeLimitExceeded  # what Celery raises inside the turn past the task's soft limit

    playing = chain(queue, endless)
    queue.schedule(turn(1, 1, 0), delay=0)
    playing.step()
    playing.step()  # the next claim clears it
    assert playing.played == 0 and queue.pending() == (0, 0)


def test_chains_are_started_once_per_slot_and_a_replaced_token_ends_its_chain(queue):
    assert queue.schedule(turn(1, 1, 0), delay=0, chains=2)  # no chain alive: start them
    started = queue.ensure(2, grace=5)
    assert sorted(slot for slot, _ in started) == [0, 1]
    assert not queue.schedule(turn(2, 1, 0), delay=0, chains=2)
    assert queue.ensure(2, grace=5) == []  # both alive (their messages are on their way)
    tokens = dict(started)
    assert queue.hold(0, tokens[0], 10, next_token="next")  # a slice, and the next message's token
    assert not queue.hold(0, tokens[0], 10)  # its message delivered again: superseded
    assert queue.hold(0, "next", 10)
    clock(queue).now += 6  # slot 1's message never came (its worker was killed): started again
    assert [slot for slot, _ in queue.ensure(2, grace=5)] == [1]
    assert not queue.hold(1, tokens[1], 10)  # the lost message, delivered an hour later, ends
    assert queue.ensure(1, grace=5) == [] and queue.client.zcard(queue.chains) == 1  # fewer chains


@pytest.mark.django_db
def test_a_superseded_chain_message_plays_nothing_and_sends_nothing(settings, monkeypatch):
    settings.CELERY_TASK_DEFAULT_QUEUE = f"test-{uuid.uuid4().hex[:8]}"
    sent: list[object] = []
    monkeypatch.setattr(broker, "send", lambda *args, **kwargs: sent.append(args))
    kept = dueturns.queue()
    try:
        kept.schedule(turn(1, 1, 0), delay=0)
        assert dueturns.start_chains() == settings.TURN_CHAINS == len(sent)
        assert dueturns.play_due_turns(0, "a token of old", jobs.call) == "superseded"
        assert len(sent) == settings.TURN_CHAINS and kept.pending() == (1, 0)
    finally:
        kept.client.delete(*dueturns.keys(settings.CELERY_TASK_DEFAULT_QUEUE))


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker")
def test_a_worker_s_chain_plays_tables_of_computers_to_the_end():
    games = [tiny_game(bots={0: "random", 1: "random"}) for _ in range(3)]

    def finished() -> bool:
        return Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.FINISHED).count() == 3

    assert wait_for(finished), "the chain did not finish the games"
    for game in games:
        log = store.load(game.pk)
        assert {e.actor for e in log} == {"system", "bot:0", "bot:1"}
        assert store.verify_chain(game.pk, log) is None
        # Each computer move was made from the table it was stored on: its command id names the seq the
        # turn was due at (a turn the chain played from an older picture would name another). (A command
        # stored twice needs no check here: the store's unique (command_id, cmd_index) forbids it.)
        for event in log:
            if event.actor.startswith("bot:") and event.cmd_index == 0:
                assert event.command_id == autoplay.bot_command_id(event.seq - 1, int(event.actor[4:]))
    kept = dueturns.queue()
    assert kept.pending() == (0, 0)
    assert kept.client.hlen(kept.tokens) == 1  # one chain, as TURN_CHAINS says


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker")
def test_a_turn_scheduled_again_after_it_was_played_appends_nothing():
    game = tiny_game(bots={1: "random"})
    seq = store.head(game.pk)[0]
    play(game, 0, 1, "h1", seq)  # schedules the computer's answer after commit
    assert wait_for(lambda: store.head(game.pk)[0] >= seq + 2)
    jobs.enqueue(JOB, game.pk, seq + 1, 1)  # the same turn again, as a watchdog would
    assert wait_for(lambda: dueturns.queue().pending() == (0, 0))
    bot_moves = [e for e in store.load(game.pk) if e.actor == "bot:1"]
    assert [e.command_id for e in bot_moves] == [f"bot-{seq + 1}-1"]
    assert store.head(game.pk)[0] == seq + 2
