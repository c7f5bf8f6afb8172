"""Computer turns kept in Redis by the moment they are due, played in batches by chains of Celery tasks.

Why not a Celery task per turn: at human pace most of a computer move's CPU went to Celery's machinery,
not to the move (an ETA timer in the worker's main process, kombu's message and ack, the prefork pool's
pipe; docs/BENCHMARKS.md, "Capacity"). Here a turn is one member of a sorted set scored by the moment it
is due (``JOB:GAME:SEQ:SEAT``: scheduling it twice keeps one), on Redis's own clock (``TIME`` in the
scripts, not the clients'). Scheduling is one script call, and no message.

Who plays them: ``TURN_CHAINS`` chains, each a Celery task ``games.tasks.play_due_turns(slot, token)``
that runs for ``TURN_SLICE`` seconds: it claims the due turns (up to ``TURN_BATCH`` in one atomic step,
which moves them to the set of claims scored by the end of their lease), plays them, clears the claims,
and sleeps until the next turn is due (woken early by a push on a short list when a turn is scheduled to
be the earliest); at the end of its slice it sends itself again. So a worker's pool plays hundreds of
turns per message, and warm shutdown, time limits, ``acks_late`` and ``reject_on_worker_lost`` are
Celery's.

What can go wrong, and what brings the turns back:
- a pool process killed in the middle of a turn: its claim stays until the lease runs out, then the
  next claim of any chain puts the turn back among the due ones (a turn played twice appends once: its
  command id is ``bot-SEQ-SEAT``); Celery gives the chain's message back (``reject_on_worker_lost``);
- a whole worker killed: the chain's message stays taken in Redis for the broker's visibility timeout,
  but the chain's slot is alive only until ``TURN_SLICE + TURN_LEASE`` after its last slice: then the
  next scheduled turn, a worker starting, or the beat's watchdog starts the chain again under a new
  token (the old message, delivered again an hour later, finds its token replaced and ends);
- Redis restarted without its data: the turn watchdog (beat) schedules the idle tables' turns again.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.background import broker

log = logging.getLogger(__name__)

# Redis's clock, or the one a test gives (ARGV[1]).
_CLOCK = """
local function clock()
  if ARGV[1] ~= '' then return tonumber(ARGV[1]) end
  local t = redis.call('TIME')
  return tonumber(t[1]) + tonumber(t[2]) / 1000000
end
"""

# KEYS: due, claimed. ARGV: now, lease, most to claim, then the turns played since the last claim.
# Returns the claimed turns, then (as text: Lua numbers come back as integers) the seconds until the
# earliest turn left is due and until the earliest claim still held runs out, and how many claims had
# run out.
_CLAIM = (
    _CLOCK
    + """
local now = clock()
for i = 4, #ARGV do
  redis.call('ZREM', KEYS[2], ARGV[i])
end
local back = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 100)
for _, turn in ipairs(back) do
  redis.call('ZREM', KEYS[2], turn)
  redis.call('ZADD', KEYS[1], now, turn)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
for _, turn in ipairs(due) do
  redis.call('ZREM', KEYS[1], turn)
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), turn)
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local lease = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local function after(pair) if pair[2] then return string.format('%.6f', pair[2] - now) end return false end
return {due, after(first), after(lease), #back}
"""
)

# KEYS: due, wake, chains. ARGV: now, delay, turn, chains wanted.
# Returns 1 when fewer chains are alive than wanted (the caller starts them).
_SCHEDULE = (
    _CLOCK
    + """
local now = clock()
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
local first = redis.call('ZRANGE', KEYS[1], 0, 0)
if first[1] == ARGV[3] then
  redis.call('LPUSH', KEYS[2], '1')
  redis.call('LTRIM', KEYS[2], 0, 7)
end
if redis.call('ZCOUNT', KEYS[3], now, '+inf') < tonumber(ARGV[4]) then return 1 end
return 0
"""
)

# KEYS: chains, tokens. ARGV: now, how long a new chain's message may wait, chains wanted, then as many
# fresh tokens. Gives a new token to every slot not alive (and forgets the slots beyond those wanted);
# returns the slots and tokens to send.
_ENSURE = (
    _CLOCK
    + """
local now = clock()
local wanted = tonumber(ARGV[3])
local started = {}
for slot = 0, wanted - 1 do
  local alive = redis.call('ZSCORE', KEYS[1], slot)
  if not alive or tonumber(alive) < now then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), slot)
    redis.call('HSET', KEYS[2], slot, ARGV[4 + slot])
    table.insert(started, slot)
    table.insert(started, ARGV[4 + slot])
  end
end
redis.call('ZREMRANGEBYRANK', KEYS[1], wanted, -1)
return started
"""
)

# KEYS: chains, tokens. ARGV: now, slot, token, hold, next token ('' to keep it).
# A chain's message holds its slot only with the slot's current token: then the slot is alive for
# ``hold`` seconds more (and takes the next token, when one is given). Returns 1, or 0: superseded.
_HOLD = (
    _CLOCK
    + """
local now = clock()
if redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[3] then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[2], ARGV[2], ARGV[5]) end
return 1
"""
)


@dataclass(frozen=True)
class Turn:
    """A due job: its name and its whole-number arguments (a computer turn: game, seq, seat)."""

    job: str
    args: tuple[int, ...]

    @property
    def member(self) -> str:
        return ":".join((self.job, *(str(a) for a in self.args)))

    @classmethod
    def parse(cls, member: bytes | str) -> Turn:
        text = member.decode() if isinstance(member, bytes) else member
        job, *args = text.split(":")
        return cls(job, tuple(int(a) for a in args))


@dataclass(frozen=True)
class Claimed:
    turns: list[Turn]
    next_due: float | None  # seconds until the earliest turn left is due
    next_lease_end: float | None  # seconds until the earliest claim still held runs out
    reclaimed: int  # claims whose lease had run out, put back among the due turns


def keys(name: str) -> tuple[str, str, str, str, str]:
    """The Redis keys of a queue: its due turns, its claims, its wake-up list, its chains' slots (alive
    until) and their tokens."""
    return tuple(f"{name}:turns:{part}" for part in ("due", "claimed", "wake", "chains", "tokens"))  # type: ignore[return-value]


class Queue:
    """The due turns, the claims and the chains of one deployment (the key prefix is its queue's name).
    ``clock``: a test's clock; by default Redis's own."""

    def __init__(
        self, client: Any, name: str, lease: float, clock: Callable[[], float] | None = None
    ) -> None:
        self.client = client
        self.due, self.claimed, self.wake, self.chains, self.tokens = keys(name)
        self.lease = lease
        self.clock = clock
        self._claim = client.register_script(_CLAIM)
        self._schedule = client.register_script(_SCHEDULE)
        self._ensure = client.register_script(_ENSURE)
        self._hold = client.register_script(_HOLD)

    def _now(self) -> str:
        return "" if self.clock is None else repr(self.clock())

    def schedule(self, turn: Turn, delay: float, chains: int = 0) -> bool:
        """Add a turn due in ``delay`` seconds; whether fewer than ``chains`` chains are alive."""
        keys = [self.due, self.wake, self.chains]
        return bool(self._schedule(keys=keys, args=[self._now(), max(0.0, delay), turn.member, chains]))

    def claim(self, most: int, done: Sequence[Turn] = ()) -> Claimed:
        """Claim up to ``most`` due turns, after clearing the claims of the turns ``done`` (played, or given
        up on): one round trip for both."""
        due, first, lease, back = self._claim(
            keys=[self.due, self.claimed], args=[self._now(), self.lease, most, *(t.member for t in done)]
        )
        return Claimed(
            [Turn.parse(member) for member in due],
            float(first) if first else None,
            float(lease) if lease else None,
            int(back),
        )

    def renew(self, turns: list[Turn]) -> None:
        """Start the lease of claimed turns again (those of a batch that waited behind the others)."""
        now = self.clock() if self.clock else _redis_time(self.client)
        self.client.zadd(self.claimed, {turn.member: now + self.lease for turn in turns}, xx=True)

    def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds``, woken early when a turn is scheduled to be the earliest."""
        if seconds <= 0:
            return
        # BLPOP takes whole or fractional seconds (Redis ≥ 6); 0 would block for ever.
        self.client.blpop([self.wake], timeout=max(0.01, seconds))

    def pending(self) -> tuple[int, int]:
        """How many turns are waiting, and how many are claimed."""
        return int(self.client.zcard(self.due)), int(self.client.zcard(self.claimed))

    def ensure(self, chains: int, grace: float) -> list[tuple[int, str]]:
        """Give a new token to every chain slot that is not alive; the slots and tokens to send."""
        tokens = [uuid.uuid4().hex for _ in range(chains)]
        started = self._ensure(keys=[self.chains, self.tokens], args=[self._now(), grace, chains, *tokens])
        pairs = [(int(started[i]), _text(started[i + 1])) for i in range(0, len(started), 2)]
        return pairs

    def hold(self, slot: int, token: str, seconds: float, next_token: str = "") -> bool:
        """Keep the chain's slot alive ``seconds`` more, if ``token`` is still its own."""
        args = [self._now(), slot, token, seconds, next_token]
        return bool(self._hold(keys=[self.chains, self.tokens], args=args))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _redis_time(client: Any) -> float:
    seconds, micros = client.time()
    return float(seconds) + micros / 1e6


class Chain:
    """One slice of a chain: claim the due turns, play them one by one, sleep until the next is due, for
    ``slice`` seconds of this machine's monotonic clock."""

    def __init__(
        self,
        turns: Queue,
        play: Callable[[Turn], str],
        batch: int = 4,
        slice: float = 2.0,
        idle_wait: float = 1.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.turns = turns
        self.play = play
        self.batch = batch
        self.slice = slice
        self.idle_wait = idle_wait
        self.monotonic = monotonic
        self.played = 0
        self.finished: list[Turn] = []  # their claims are cleared by the next claim

    def step(self) -> float:
        """Play what is due now; how long to wait before the next step."""
        claimed = self.turns.claim(self.batch, self.finished)
        self.finished = []
        if claimed.reclaimed:
            log.warning("%s computer turns whose chain stopped are played again", claimed.reclaimed)
        since = self.monotonic()
        for n, turn in enumerate(claimed.turns):
            if self.monotonic() - since > self.turns.lease / 4:
                # The rest of the batch waited: their leases start again, so that no chain takes a turn
                # that is only waiting here.
                self.turns.renew(claimed.turns[n:])
                since = self.monotonic()
            self.run(turn)
        if claimed.turns:
            return 0.0
        wait = self.idle_wait
        for moment in (claimed.next_due, claimed.next_lease_end):
            if moment is not None:
                wait = min(wait, moment)
        return max(0.0, wait)

    def run(self, turn: Turn) -> None:
        from django.db import close_old_connections

        close_old_connections()  # connections are kept between turns: drop one that broke or aged
        started = time.perf_counter()
        try:
            result = self.play(turn)
            self.played += 1
            ms = 1000 * (time.perf_counter() - started)
            log.info("turn %s %s in %.1f ms (pid %s)", turn.member, result, ms, os.getpid())
        except Exception as exc:
            # A refused move, a lost database, or Celery's soft time limit: logged; the watchdog
            # schedules the table's turn again.
            log.error("computer turn %s failed: %r", turn.member, exc, exc_info=not _time_limit(exc))
            if _time_limit(exc):
                from django.db import connections

                connections.close_all()  # cut short in the middle of a query, maybe: start afresh
        self.finished.append(turn)

    def serve(self) -> int:
        """Play for one slice (the turn in hand is finished first); clears its last claims. Returns how
        many turns it played."""
        deadline = self.monotonic() + self.slice
        try:
            while True:
                wait = self.step()
                left = deadline - self.monotonic()
                if left <= 0:
                    break
                if wait:
                    self.turns.wait(min(wait, left))
        finally:
            if self.finished:  # clear the last claims, so that no chain plays these turns again
                try:
                    self.turns.claim(0, self.finished)
                    self.finished = []
                except Exception as exc:  # their leases will run out: played again, appending nothing
                    log.error("could not clear the claims of %s turns: %r", len(self.finished), exc)
        return self.played


def _time_limit(exc: Exception) -> bool:
    return type(exc).__name__ in ("SoftTimeLimitExceeded", "TimeLimitExceeded")


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


PLAY_DUE_TURNS = "games.tasks.play_due_turns"


def schedule(job: str, args: Sequence[int], delay: float) -> None:
    """Add a due job (a computer turn), due in ``delay`` seconds; start the chains if some are not
    alive. It runs after a commit: an unreachable Redis must not turn a stored move into an error for
    its player (the turn watchdog schedules it again)."""
    from django.conf import settings

    try:
        if queue().schedule(Turn(job, tuple(args)), delay, settings.TURN_CHAINS):
            start_chains()
    except Exception as exc:
        _queues.clear()  # its connection may be what failed
        log.error("could not schedule %s%r: %r", job, tuple(args), exc)


def start_chains() -> int:
    """Send a chain for every slot not alive (at a worker's start, by the watchdog, by a scheduler that
    found one missing); how many."""
    from django.conf import settings

    # A new chain's message may wait behind a whole slice of every other chain and a review.
    grace = settings.TURN_SLICE + settings.TURN_LEASE
    started = queue().ensure(settings.TURN_CHAINS, grace)
    for slot, token in started:
        broker.send(PLAY_DUE_TURNS, (slot, token))
    return len(started)


def play_due_turns(slot: int, token: str, play: Callable[[str, tuple[int, ...]], object]) -> str:
    """One slice of the chain ``slot`` (the Celery task games.tasks.play_due_turns: ``play`` runs a
    due job, games.background.jobs.call), then the next."""
    from django.conf import settings

    turns = queue()
    hold = settings.TURN_SLICE + settings.TURN_LEASE
    chain = Chain(
        turns,
        lambda turn: str(play(turn.job, turn.args)),
        batch=settings.TURN_BATCH,
        slice=settings.TURN_SLICE,
    )
    try:
        if not turns.hold(slot, token, hold):
            return "superseded"  # a message of a chain started again since (its worker was lost)
        chain.serve()
        next_token = uuid.uuid4().hex
        # The next message carries a token of its own: if this one is delivered again (its worker died
        # between the send and the ack), it finds its token replaced and ends, so chains never multiply.
        if turns.hold(slot, token, hold, next_token):
            broker.send(PLAY_DUE_TURNS, (slot, next_token))
    except Exception as exc:  # Redis away: this chain ends; the watchdog starts it again
        _queues.clear()
        log.error("turn chain %s stopped: %r", slot, exc)
        return f"stopped after {chain.played}"
    return f"played {chain.played}"
