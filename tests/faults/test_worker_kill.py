"""Celery workers killed with SIGKILL in the middle of a computer's move, 20 times: every game ends, no
computer move is lost or stored twice.

Three workers of the Procfile (and its beat) play tables of computers; tests/faults/probe.py, loaded with
``--include``, makes each turn last long enough to be killed inside and logs its start and its return.
The kills alternate between
- the pool process running the turn: the worker sees it die and, the task being ``acks_late`` with
  ``reject_on_worker_lost``, puts it back in the queue: the same task runs again;
- the whole worker, main process and pool (an OOM kill, a crash): nobody puts the task back, Redis keeps
  it as taken for its visibility timeout (an hour); the turn watchdog (``celery beat``) schedules the
  table's turn again, and a new worker replaces the dead one;
and between two moments: before the move is stored, and after it is stored but before the task is
acknowledged (the task delivered again must then store nothing).
"""

from __future__ import annotations

import os
import random
import re
import signal
import time
from dataclasses import dataclass
from datetime import datetime

import pytest

from games import service, store
from games.models import Game
from tests.processes import Processes, eventually, procfile

from .conftest import check_games, server_errors

pytestmark = [pytest.mark.postgres, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

KILLS = 20
WORKERS = 3  # so that one is playing while another is being replaced
BEFORE, AFTER = 0.3, 0.25  # the probe's waits around each turn (seconds)
MARK = re.compile(
    r"\[(?P<at>[-0-9]+ [0-9:]+,[0-9]+): [^]]*\] fault-probe (?P<what>start|returned) pid=(?P<pid>\d+) task=(?P<task>\S+) "
    r"game=(?P<game>\d+) seq=(?P<seq>\d+) seat=(?P<seat>\d+)(?: result=(?P<result>\S+))?"
)


@dataclass(frozen=True)
class Mark:
    at: str  # the log line's time: in order across the workers' logs
    what: str
    pid: int
    task: str
    turn: tuple[int, int, int]  # game, seq, seat
    result: str | None

    @property
    def time(self) -> float:
        return datetime.strptime(self.at, "%Y-%m-%d %H:%M:%S,%f").timestamp()  # Celery logs local time


@dataclass(frozen=True)
class Kill:
    whole_worker: bool
    mark: Mark  # the turn it interrupted
    worker: str


def marks(text: str) -> list[Mark]:
    return [
        Mark(
            m["at"],
            m["what"],
            int(m["pid"]),
            m["task"],
            (int(m["game"]), int(m["seq"]), int(m["seat"])),
            m["result"],
        )
        for m in MARK.finditer(text)
    ]


def new_table() -> Game:
    seats = [service.SeatSpec(f"Computer {n}", bot_level="greedy") for n in range(4)]
    return service.create_game("dominoes", {"players": 4, "target": 1}, seats)


def running(games: list[Game]) -> int:
    return Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.ACTIVE).count()


class Killer:
    """Waits for a turn to reach the wanted moment in a live worker, then kills it there."""

    def __init__(self, faults: Processes, workers: list[str]) -> None:
        self.faults = faults
        self.alive = list(workers)
        self.read = {name: 0 for name in workers}  # marks of each log already looked at
        self.started = len(workers)
        self.rng = random.Random(20)

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
            # Somewhere inside the probe's wait: the turn is running (start), or it has returned and is
            # not acknowledged yet (returned). A mark seen too late is let go: that turn may be over.
            window = BEFORE if moment == "start" else AFTER
            delay = mark.time + self.rng.uniform(0.05, window - 0.1) - time.time()
            if delay > 0:
                break
        time.sleep(delay)
        if whole_worker:
            self.faults.kill(name)  # SIGKILL to the worker's process group
            self.alive.remove(name)
            self.started += 1
            replacement = f"worker-{self.started}"
            self.faults.start_worker(replacement, extra="--include tests.faults.probe")
            self.alive.append(replacement)
            self.read[replacement] = 0
        else:
            os.kill(mark.pid, signal.SIGKILL)
        return Kill(whole_worker, mark, name)


def test_workers_killed_in_the_middle_of_computer_moves_lose_and_double_nothing(faults, settings):
    started = time.monotonic()
    settings.AI_WORKER = "celery"
    settings.COMPUTER_TURNS = "celery"
    settings.CELERY_TASK_DEFAULT_QUEUE = faults.env["CELERY_QUEUE"]
    faults.env.update(
        FAULT_PROBE_BEFORE=str(BEFORE),
        FAULT_PROBE_AFTER=str(AFTER),
        TURN_WATCHDOG_INTERVAL="1",
        TURN_WATCHDOG_IDLE="3",
    )
    workers = [f"worker-{n}" for n in range(1, WORKERS + 1)]
    for name in workers:
        faults.start_worker(name, extra="--include tests.faults.probe")
    faults.start("beat", procfile()["beat"])
    faults.wait_ready([*workers, "beat"])
    games = [new_table() for _ in range(WORKERS + 1)]
    killer = Killer(faults, workers)

    kills: list[Kill] = []
    while len(kills) < KILLS:
        if running(games) <= WORKERS:  # keep turns coming until the last kill
            games.append(new_table())
        whole, moment = len(kills) % 2 == 1, ("returned" if len(kills) % 4 in (1, 2) else "start")
        kills.append(killer.kill(whole, moment))

    assert eventually(lambda: running(games) == 0, timeout=90, step=0.5), (
        f"{running(games)} of {len(games)} games are stuck\n{faults.tails()}"
    )

    def worker_logs() -> str:
        return "\n".join(faults.log(name) for name in faults.logs if name.startswith("worker"))

    def came_back(kill: Kill) -> bool:
        later = [m for m in marks(worker_logs()) if m.task == kill.mark.task and m.at > kill.mark.at]
        return bool(later)

    # A worker notices a dead pool process within a few seconds (and puts its task back only then),
    # maybe after the games have ended: wait for those tasks.
    pool_kills = [k for k in kills if not k.whole_worker]
    assert eventually(lambda: all(came_back(k) for k in pool_kills), timeout=30, step=0.5), [
        k for k in pool_kills if not came_back(k)
    ]
    logs = worker_logs()
    every = marks(logs)

    events, moves = check_games(games)

    # No turn was played twice by the workers either (the database would refuse the second append).
    played = [m.turn for m in every if m.result == "played"]
    assert len(played) == len(set(played)), "a turn was played twice"
    for kill in kills:
        game, seq, seat = kill.mark.turn
        stored = store.command_events(game, f"bot-{seq}-{seat}")
        assert stored and stored[0].seq == seq + 1, f"the turn killed by {kill} was never played"
        later = [m for m in every if m.turn == kill.mark.turn and m.at > kill.mark.at]
        if kill.mark.what == "start":  # the kill came before the task returned
            assert not [m for m in later if m.pid == kill.mark.pid], f"{kill} came too late"
        if not kill.whole_worker:
            # reject_on_worker_lost: the worker put the task back, and it ran again.
            assert [m for m in later if m.task == kill.mark.task], f"the task of {kill} did not come back"
        else:
            # The dead worker's task stays taken in Redis for the visibility timeout (an hour).
            assert all(m.task != kill.mark.task for m in later), f"{kill}: its task came back"
            # The turn was played all the same, by another run: an earlier one (the killed run was a
            # redelivery), or the watchdog's task.
            others = [m for m in every if m.turn == kill.mark.turn and m.what == "start" and m != kill.mark]
            assert kill.mark.what == "returned" or others, f"nothing else ran the turn of {kill}"
    assert "computer turns of idle games scheduled again" in logs
    assert server_errors(faults) == []

    whole = sum(k.whole_worker for k in kills)
    print(
        f"\nworker kills: {len(kills)} ({whole} whole workers, {len(kills) - whole} pool processes; "
        f"{sum(k.mark.what == 'returned' for k in kills)} after the move was stored), {len(games)} games, "
        f"{moves} computer moves, {events} events checked, {time.monotonic() - started:.1f} s"
    )
