"""Celery workers playing computer turns in chains (games/background/dueturns.py), killed with SIGKILL in the
middle of a batch 12 times: every game ends, no computer move is lost or stored twice, and the chains never
multiply.

Two workers of the Procfile (and its beat, whose watchdog here only starts lost chains again: its idle
time is longer than the test) play tables of computers; tests/faults/turn_probe.py, loaded with
``--include``, makes each turn last long enough to be killed inside and says when it starts and returns.
The kills alternate between
- the pool process playing the turn: the worker puts the chain's message back
  (``reject_on_worker_lost``) and the chain goes on; the turn it held stays claimed until its lease runs
  out, then the next claim of any chain puts it back among the due turns and it is played again;
- the whole worker, main process and pool (an OOM kill, a crash): its chain's message stays taken in
  Redis for an hour, but its slot is alive only TURN_SLICE + TURN_LEASE seconds: then the beat or the
  next scheduled turn starts the chain again under a new token; a new worker replaces the dead one;
and between two moments: before the move is stored, and after it is stored but before its claim is
cleared (the turn played again must then store nothing). The lease alone brings the turns back.
"""

from __future__ import annotations

import os
import random
import re
import signal
import time
from dataclasses import dataclass

import pytest

from games.background import dueturns
from games.commands.create import SeatSpec, create_game
from games.eventlog import store
from games.models import Game
from tests.processes import Processes, eventually, procfile

from .conftest import check_games, server_errors

pytestmark = [pytest.mark.postgres, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

KILLS = 12
WORKERS = 2
CHAINS = 2
BEFORE, AFTER = 0.3, 0.25  # the probe's waits around each turn (seconds)
LEASE = 2.0
SLICE = 1.0
PROBE = "--include tests.faults.turn_probe"
MARK = re.compile(
    r"turn-probe (?P<what>start|returned) pid=(?P<pid>\d+) turn=(?P<game>\d+):(?P<seq>\d+):(?P<seat>\d+) "
    r"at=(?P<at>[0-9.]+)(?: result=(?P<result>\S+))?"
)


@dataclass(frozen=True)
class Mark:
    what: str
    pid: int
    turn: tuple[int, int, int]  # game, seq, seat
    at: float
    result: str | None


@dataclass(frozen=True)
class Kill:
    whole_worker: bool
    mark: Mark  # the turn it interrupted
    worker: str


def marks(text: str) -> list[Mark]:
    return [
        Mark(
            m["what"],
            int(m["pid"]),
            (int(m["game"]), int(m["seq"]), int(m["seat"])),
            float(m["at"]),
            m["result"],
        )
        for m in MARK.finditer(text)
    ]


def new_table() -> Game:
    seats = [SeatSpec(f"Computer {n}", bot_level="greedy") for n in range(4)]
    return create_game("dominoes", {"players": 4, "target": 1}, seats)


def running(games: list[Game]) -> int:
    return Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.ACTIVE).count()


class Killer:
    """Waits for a turn to reach the wanted moment in a live worker, then kills there."""

    def __init__(self, faults: Processes, workers: list[str]) -> None:
        self.faults = faults
        self.alive = list(workers)
        self.read = {name: 0 for name in workers}
        self.started = len(workers)
        self.rng = random.Random(36)

    def logs(self) -> str:
        return "\n".join(self.faults.log(name) for name in self.faults.logs if name.startswith("worker"))

    def next_mark(self, what: str, timeout: float = 30.0) -> tuple[str, Mark]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name in self.alive:
                found = marks(self.faults.log(name))
                fresh, self.read[name] = found[self.read[name] :], len(found)
                # A returned turn that stored its move (not a run that found it stored already).
                wanted = [m for m in fresh if m.what == what and m.result in (None, "played")]
                if wanted:
                    return name, wanted[-1]
            time.sleep(0.01)
        raise AssertionError(f"no turn reached {what!r} in {timeout:.0f} s\n{self.faults.tails()}")

    def kill(self, whole_worker: bool, moment: str) -> Kill:
        while True:
            name, mark = self.next_mark(moment)
            # Somewhere inside the probe's wait: the turn is running (start), or it has returned and its
            # claim is not cleared yet (returned). A mark seen too late is let go: that turn may be over.
            window = BEFORE if moment == "start" else AFTER
            delay = mark.at + self.rng.uniform(0.05, window - 0.1) - time.time()
            if delay > 0:
                break
        time.sleep(delay)
        if whole_worker:
            self.faults.kill(name)  # SIGKILL to the worker's process group
            self.alive.remove(name)
            self.started += 1
            replacement = f"worker-{self.started}"
            self.faults.start_worker(replacement, extra=PROBE)
            self.alive.append(replacement)
            self.read[replacement] = 0
        else:
            os.kill(mark.pid, signal.SIGKILL)
        return Kill(whole_worker, mark, name)


def test_turn_chains_killed_in_the_middle_of_computer_moves_lose_and_double_nothing(faults, settings):
    started = time.monotonic()
    settings.JOBS = "celery"
    settings.CELERY_TASK_DEFAULT_QUEUE = faults.env["CELERY_QUEUE"]
    settings.TURN_CHAINS = CHAINS
    settings.TURN_SLICE = SLICE
    settings.TURN_LEASE = LEASE
    faults.env.update(
        TURN_CHAINS=str(CHAINS),
        TURN_SLICE=str(SLICE),
        TURN_LEASE=str(LEASE),
        TURN_BATCH="1",  # a turn is claimed when it starts: its lease is measured from its mark
        WORKER_CONCURRENCY="2",
        FAULT_PROBE_BEFORE=str(BEFORE),
        FAULT_PROBE_AFTER=str(AFTER),
        TURN_WATCHDOG_INTERVAL="1",
        TURN_WATCHDOG_IDLE="3600",  # the watchdog starts lost chains, never a turn: the lease does
    )
    workers = [f"worker-{n}" for n in range(1, WORKERS + 1)]
    for name in workers:
        faults.start_worker(name, extra=PROBE)
    faults.start("beat", procfile()["beat"])
    faults.wait_ready([*workers, "beat"])
    killer = Killer(faults, workers)
    games = [new_table() for _ in range(3)]  # their first turns scheduled after commit

    kills: list[Kill] = []
    while len(kills) < KILLS:
        if running(games) <= 2:  # keep turns coming until the last kill
            games.append(new_table())
        whole, moment = len(kills) % 3 == 2, ("returned" if len(kills) % 4 in (1, 2) else "start")
        kills.append(killer.kill(whole, moment))

    assert eventually(lambda: running(games) == 0, timeout=90, step=0.5), (
        f"{running(games)} of {len(games)} games are stuck\n{faults.tails()}"
    )

    def came_back(kill: Kill) -> bool:
        return any(m.turn == kill.mark.turn and m.at > kill.mark.at for m in marks(killer.logs()))

    # A killed turn's claim comes back after its lease, maybe after its game has ended.
    assert eventually(lambda: all(came_back(k) for k in kills), timeout=30, step=0.5), [
        k for k in kills if not came_back(k)
    ]
    logs = killer.logs()
    every = marks(logs)

    events, moves = check_games(games)

    played = [m.turn for m in every if m.result == "played"]
    assert len(played) == len(set(played)), "a turn was played twice"
    for kill in kills:
        game, seq, seat = kill.mark.turn
        stored = store.command_events(game, f"bot-{seq}-{seat}")
        assert stored and stored[0].seq == seq + 1, f"the turn killed by {kill} was never played"
        later = [m for m in every if m.turn == kill.mark.turn and m.at > kill.mark.at]
        assert not [m for m in later if m.pid == kill.mark.pid], f"{kill} came too late"
        again = [m for m in later if m.what == "returned"]
        assert again, f"the turn of {kill} was not played again"
        if kill.mark.what == "returned":  # stored before the kill: played again, it stores nothing
            assert all(m.result == "stale" for m in again), (kill, again)
        # Not before its lease ran out.
        assert min(m.at for m in later) >= kill.mark.at + LEASE - 0.5 - BEFORE, (kill, later)
    assert "computer turns whose chain stopped are played again" in logs
    assert "computer turns of idle games scheduled again" not in logs  # the lease did it, not the watchdog
    assert server_errors(faults) == []
    # The chains never multiplied: as many slots as TURN_CHAINS, and each ran one message at a time.
    kept = dueturns.queue()
    assert kept.client.hlen(kept.tokens) == CHAINS

    whole = sum(k.whole_worker for k in kills)
    print(
        f"\nturn chain kills: {len(kills)} ({whole} whole workers, {len(kills) - whole} pool processes; "
        f"{sum(k.mark.what == 'returned' for k in kills)} after the move was stored), {len(games)} games, "
        f"{moves} computer moves, {events} events checked, {time.monotonic() - started:.1f} s"
    )
