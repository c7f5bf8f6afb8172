"""The turn runner: computer turns kept in Redis by the moment they are due, played by lean processes.

Why not a Celery task per turn: at human pace most of a computer move's CPU went to Celery's machinery,
not to the move (an ETA timer in the worker's main process, kombu's message and ack, the prefork
pool's pipe; docs/BENCHMARKS.md, "Capacity"). Here a turn is one member of a sorted set scored by the
moment it is due (``GAME:SEQ:SEAT``: scheduling it twice keeps one). A runner claims the due turns in
one atomic step, which moves them to the set of claims scored by the end of their lease, plays them
through ``autoplay.play_bot_turn`` and clears its claims. A runner killed in the middle of a turn leaves
its claim: when the lease runs out, the next claim puts it back among the due turns and some runner
plays it again (a turn played twice appends once: its command id is ``bot-SEQ-SEAT``). A turn lost
with Redis itself is scheduled again by the turn watchdog, as with Celery.

Scheduling is one script call: the turn is added, and a waiting runner is woken (a push on a short
list) only when it became the earliest turn, so a runner sleeps until the next turn is due, not in a
busy loop, and a turn due now is played now.

``python -m games.turns --processes N``: N runner processes (restarted when one dies) under one parent
that ends them on SIGTERM, each finishing the turn it holds.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("games.turns")  # the same name when run as __main__

# KEYS: due, claimed. ARGV: now, lease end, most to claim, then the turns played since the last claim.
_CLAIM = """
for i = 4, #ARGV do
  redis.call('ZREM', KEYS[2], ARGV[i])
end
local back = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, turn in ipairs(back) do
  redis.call('ZREM', KEYS[2], turn)
  redis.call('ZADD', KEYS[1], ARGV[1], turn)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, turn in ipairs(due) do
  redis.call('ZREM', KEYS[1], turn)
  redis.call('ZADD', KEYS[2], ARGV[2], turn)
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local lease = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
return {due, first[2] or false, lease[2] or false, #back}
"""

# KEYS: due, wake. ARGV: when, turn.
_SCHEDULE = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
local first = redis.call('ZRANGE', KEYS[1], 0, 0)
if first[1] == ARGV[2] then
  redis.call('LPUSH', KEYS[2], '1')
  redis.call('LTRIM', KEYS[2], 0, 7)
end
return 0
"""


@dataclass(frozen=True)
class Turn:
    game_id: int
    seq: int
    seat: int

    @property
    def member(self) -> str:
        return f"{self.game_id}:{self.seq}:{self.seat}"

    @classmethod
    def parse(cls, member: bytes | str) -> Turn:
        text = member.decode() if isinstance(member, bytes) else member
        game_id, seq, seat = (int(part) for part in text.split(":"))
        return cls(game_id, seq, seat)


@dataclass(frozen=True)
class Claimed:
    turns: list[Turn]
    next_due: float | None  # when the earliest turn left is due
    next_lease_end: float | None  # when the earliest claim still held runs out
    reclaimed: int  # claims whose lease had run out, put back among the due turns


def keys(name: str) -> tuple[str, str, str]:
    """The Redis keys of a queue: its due turns, its claims, its wake-up list."""
    return (f"{name}:turns:due", f"{name}:turns:claimed", f"{name}:turns:wake")


class Queue:
    """The due turns and the claims of one deployment (the key prefix is its queue's name)."""

    def __init__(self, client: Any, name: str, lease: float, clock: Callable[[], float] = time.time) -> None:
        self.client = client
        self.due, self.claimed, self.wake = keys(name)
        self.lease = lease
        self.clock = clock
        self._claim = client.register_script(_CLAIM)
        self._schedule = client.register_script(_SCHEDULE)

    def schedule(self, turn: Turn, delay: float) -> None:
        self._schedule(keys=[self.due, self.wake], args=[self.clock() + max(0.0, delay), turn.member])

    def claim(self, most: int, done: Sequence[Turn] = ()) -> Claimed:
        """Claim up to ``most`` due turns, after clearing the claims of the turns ``done`` (played, or given
        up on): one round trip for both."""
        now = self.clock()
        due, first, lease, back = self._claim(
            keys=[self.due, self.claimed], args=[now, now + self.lease, most, *(t.member for t in done)]
        )
        return Claimed(
            [Turn.parse(member) for member in due],
            float(first) if first else None,
            float(lease) if lease else None,
            int(back),
        )

    def renew(self, turns: list[Turn]) -> None:
        """Start the lease of claimed turns again (those of a batch that waited behind the others)."""
        end = self.clock() + self.lease
        self.client.zadd(self.claimed, {turn.member: end for turn in turns}, xx=True)

    def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds``, woken early when a turn is scheduled to be the earliest."""
        if seconds <= 0:
            return
        # BLPOP takes whole or fractional seconds (Redis ≥ 6); 0 would block for ever.
        self.client.blpop([self.wake], timeout=max(0.01, seconds))

    def pending(self) -> tuple[int, int]:
        """How many turns are waiting, and how many are claimed."""
        return int(self.client.zcard(self.due)), int(self.client.zcard(self.claimed))


_queues: dict[tuple[int, str, str], Queue] = {}


def queue() -> Queue:
    """This process's queue on REDIS_URL (made again in a forked process)."""
    from django.conf import settings

    key = (os.getpid(), settings.REDIS_URL, settings.CELERY_TASK_DEFAULT_QUEUE)
    kept = _queues.get(key)
    if kept is None:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=30, health_check_interval=30)
        kept = _queues[key] = Queue(client, settings.CELERY_TASK_DEFAULT_QUEUE, settings.TURN_LEASE)
    return kept


def schedule(game_id: int, seq: int, seat: int, delay: float) -> None:
    """Add a computer turn, due in ``delay`` seconds. It runs after a commit: an unreachable Redis must
    not turn a stored move into an error for its player (the turn watchdog schedules it again)."""
    try:
        queue().schedule(Turn(game_id, seq, seat), delay)
    except Exception as exc:
        _queues.clear()  # its connection may be what failed
        log.error("could not schedule the computer turn %s:%s:%s: %r", game_id, seq, seat, exc)


class TurnTimeout(Exception):
    """A turn ran past its time limit."""


def _on_alarm(_signum: int, _frame: Any) -> None:
    raise TurnTimeout


class Runner:
    """One runner process: claim the due turns, play them one by one, sleep until the next is due."""

    def __init__(
        self,
        turns: Queue,
        play: Callable[[int, int, int], str],
        batch: int = 4,
        time_limit: float = 20.0,
        idle_wait: float = 1.0,
    ) -> None:
        self.turns = turns
        self.play = play
        self.batch = batch
        self.time_limit = time_limit
        self.idle_wait = idle_wait
        self.stopping = False
        self.played = 0
        self.finished: list[Turn] = []  # their claims are cleared by the next claim

    def step(self) -> float:
        """Play what is due now; how long to wait before the next step."""
        claimed = self.turns.claim(self.batch, self.finished)
        self.finished = []
        if claimed.reclaimed:
            log.warning(
                "turn runner: %s computer turns whose runner stopped are played again", claimed.reclaimed
            )
        since = self.turns.clock()
        for n, turn in enumerate(claimed.turns):
            if self.turns.clock() - since > self.turns.lease / 4:
                # The rest of the batch waited: their leases start again, so that no runner takes a turn
                # that is only waiting here.
                self.turns.renew(claimed.turns[n:])
                since = self.turns.clock()
            self.run(turn)
        if claimed.turns:
            return 0.0
        now = self.turns.clock()
        wait = self.idle_wait
        for moment in (claimed.next_due, claimed.next_lease_end):
            if moment is not None:
                wait = min(wait, moment - now)
        return max(0.0, wait)

    def run(self, turn: Turn) -> None:
        from django.db import close_old_connections

        close_old_connections()  # connections are kept between turns: drop one that broke or aged
        limited = self.time_limit > 0 and hasattr(signal, "setitimer")
        if limited:
            signal.setitimer(signal.ITIMER_REAL, self.time_limit)
        started = time.perf_counter()
        try:
            result = self.play(turn.game_id, turn.seq, turn.seat)
            self.played += 1
            ms = 1000 * (time.perf_counter() - started)
            log.info("turn %s %s in %.1f ms (runner %s)", turn.member, result, ms, os.getpid())
        except TurnTimeout:
            log.error(
                "computer turn %s ran past %s s: left to the turn watchdog", turn.member, self.time_limit
            )
            from django.db import connections

            connections.close_all()  # cut short in the middle of a query, maybe: start afresh
        except Exception:
            # A refused move or a lost database: logged; the watchdog schedules the table's turn again.
            log.exception("computer turn %s failed", turn.member)
        finally:
            if limited:
                signal.setitimer(signal.ITIMER_REAL, 0)
        self.finished.append(turn)

    def serve(self) -> None:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        while not self.stopping:
            try:
                wait = self.step()
            except Exception as exc:  # Redis away: try again shortly, never spin
                log.error("turn runner: %r", exc)
                wait = 1.0
            if wait and not self.stopping:
                try:
                    self.turns.wait(wait)
                except Exception as exc:
                    log.error("turn runner: %r", exc)
                    time.sleep(min(wait, 1.0))
        if self.finished:  # clear the last claims, so that no runner plays these turns again
            with contextlib.suppress(Exception):
                self.turns.claim(0, self.finished)

    def _stop(self, _signum: int, _frame: Any) -> None:
        self.stopping = True  # the turn in hand is finished first


def _child(play: Callable[[int, int, int], str]) -> None:
    from django.conf import settings

    runner = Runner(queue(), play, batch=settings.TURN_BATCH, time_limit=settings.TURN_TIME_LIMIT)
    runner.serve()


def supervise(processes: int, play: Callable[[int, int, int], str] | None = None) -> None:
    """Start ``processes`` runners, start again any that dies, end them all on SIGTERM or SIGINT."""
    import django

    django.setup()
    from django.db import connections

    from games import autoplay  # games.apps registered the after-commit hooks (publishing, next turns)

    play = play or autoplay.play_bot_turn
    connections.close_all()  # each runner opens its own
    children: dict[int, int] = {}
    stopping = False

    def start(slot: int) -> None:
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = 0
            try:
                _child(play)
            except BaseException:
                log.exception("turn runner %s stopped", slot)
                code = 1
            finally:
                logging.shutdown()
                os._exit(code)
        children[pid] = slot

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for slot in range(processes):
        start(slot)
    print(f"turn runner: {processes} processes on queue {queue_name()}, ready.", flush=True)
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        slot = children.pop(pid, -1)
        if slot >= 0 and not stopping:
            log.error("turn runner %s (pid %s) ended with status %s: starting another", slot, pid, status)
            time.sleep(0.5)  # a runner that dies at once does not fork in a tight loop
            start(slot)


def queue_name() -> str:
    from django.conf import settings

    return str(settings.CELERY_TASK_DEFAULT_QUEUE)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.turns", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--processes", type=int, default=int(os.environ.get("TURN_PROCESSES", "4")), help="runner processes"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
    supervise(max(1, args.processes))


if __name__ == "__main__":
    main()
