"""The production topology on this machine: a bot tournament played by the Celery
workers' turn chains, watched
through two Daphne processes and the spectator edge, whose spectators must receive the very same stream.

The first round's games are dealt with no worker told (JOBS is off in the test process), the
spectators connect, and only then are the computer seats woken: so each socket sees its game from
the opening to the last move, and any lost, doubled or reordered update shows.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from prometheus_client.parser import text_string_to_metric_families

from games.computers import worker
from games.eventlog import store
from games.models import Event
from tournaments import service, simulate
from tournaments.log import FINISHED
from tournaments.models import MatchGame

from .conftest import Cluster, http_get

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.celery,
    pytest.mark.cluster,
    pytest.mark.django_db(transaction=True),
]

TOURNAMENT_TIMEOUT = 120.0
PLAYED = re.compile(r"turn games\.tasks\.play_bot_turn:\d+:\d+:\d+ played in [0-9.]+ ms \(pid (\d+)\)")


def metric(cluster: Cluster, web: int, name: str, **labels: str) -> float:
    """One sample of a web process's /metrics (asked from loopback, as a local scraper would)."""
    status, text = http_get(f"{cluster.web[web]}/metrics")
    assert status == 200, text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    raise AssertionError(f"no {name}{labels} in /metrics")


def eventually(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


class Spectators:
    """One spectator socket per (game, web process) and one per game on the edge (the last index),
    each recording every message until its game ends. Runs its own event loop in a thread; the test's
    thread keeps the database connection."""

    def __init__(self, cluster: Cluster, games: list[int]) -> None:
        self.targets = [(game, web) for game in games for web in range(len(cluster.web) + 1)]
        self.web = cluster.web
        self.edge = cluster.edge
        self.received: dict[tuple[int, int], list[str]] = {t: [] for t in self.targets}
        self.connected = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="spectators", daemon=True)

    def start(self) -> None:
        self.thread.start()
        if not self.connected.wait(30):
            raise AssertionError(f"spectators did not connect: {self.error!r}")

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "a spectator socket never saw its game end"
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        try:
            asyncio.run(asyncio.wait_for(self._watch_all(), TOURNAMENT_TIMEOUT + 30))
        except BaseException as exc:  # handed to the test's thread by join()
            self.error = exc
            self.connected.set()

    async def _watch_all(self) -> None:
        import websockets

        sockets = [
            await websockets.connect(
                f"{self.web[web].replace('http', 'ws', 1)}/ws/tables/{game}/"
                if web < len(self.web)
                else f"{self.edge}{game}/",
                origin=self.web[0],  # the socket checks the Origin against ALLOWED_HOSTS
                max_size=2**22,
                open_timeout=10,
            )
            for game, web in self.targets
        ]
        try:
            # The first message of each is its state: only then is every socket in its group.
            for target, ws in zip(self.targets, sockets, strict=True):
                self.received[target].append(str(await asyncio.wait_for(ws.recv(), 10)))
            self.connected.set()
            await asyncio.gather(*(self._follow(t, ws) for t, ws in zip(self.targets, sockets, strict=True)))
        finally:
            for ws in sockets:
                await ws.close()

    async def _follow(self, target: tuple[int, int], ws: Any) -> None:
        async for text in ws:
            self.received[target].append(str(text))
            message = json.loads(text)
            if message["type"] == "update" and message["finished"]:
                return


def test_two_web_processes_and_celery_workers_play_a_tournament_that_both_sides_see_alike(cluster, settings):
    started = time.monotonic()
    row = simulate.setup("dominoes", "single_elimination", 4, {"game_config": {"target": 30}}, "greedy")
    service.start(row)  # deals the first round; this process schedules no computer turn (JOBS off)
    first_round = sorted(MatchGame.objects.filter(match__tournament=row).values_list("game_id", flat=True))
    assert len(first_round) == 2
    openings = {g: store.head(g)[0] for g in first_round}

    spectators = Spectators(cluster, first_round)
    spectators.start()
    # Each Daphne process counts its own sockets; the shared metrics directory sums both.
    assert metric(cluster, 0, "tablehall_websockets_connected", route="table") == 4
    assert metric(cluster, 1, "tablehall_websockets_connected", route="table") == 4

    # Wake the computer seats through the due turns in Redis; from here on the workers' turn chains play
    # everything,
    # the next round included (a finished game advances the tournament in the process that ended it).
    settings.JOBS = "celery"
    settings.TURN_CHAINS = 2
    settings.CELERY_TASK_DEFAULT_QUEUE = cluster.queue
    assert worker.resume_pending() == 2

    deadline = time.monotonic() + TOURNAMENT_TIMEOUT
    while row.status != FINISHED and time.monotonic() < deadline:
        time.sleep(0.5)
        row.refresh_from_db()
    assert row.status == FINISHED, f"the tournament is still {row.status} after {TOURNAMENT_TIMEOUT:.0f} s"
    spectators.join(timeout=30)

    # Both web processes and the edge sent every spectator the same stream, whole and in order.
    for game in first_round:
        via_a, via_b, via_edge = (spectators.received[(game, n)] for n in range(3))
        state_a, state_b = json.loads(via_a[0]), json.loads(via_b[0])
        assert state_a["type"] == "state" and state_a == state_b == json.loads(via_edge[0])
        assert state_a["seq"] == openings[game]
        assert via_a[1:] == via_b[1:], f"game {game}: the two web processes sent different updates"
        assert via_edge[1:] == via_a[1:], f"game {game}: the edge sent other updates than Daphne"
        updates = [json.loads(text) for text in via_a[1:]]
        # A whole game: from the opening to the end, however short the deal made it (a game to 30 can
        # end in nine moves).
        assert updates and all(u["type"] == "update" for u in updates)
        previous = state_a["seq"]
        for update in updates:
            assert update["since"] == previous, f"game {game}: a gap before seq {update['seq']}"
            previous = update["seq"]
        assert updates[-1]["finished"] and previous == store.head(game)[0]

    # Both workers played, and every computer move stored was played by one of them.
    tournament_games = list(MatchGame.objects.filter(match__tournament=row).values_list("game_id", flat=True))
    assert len(tournament_games) > len(first_round)
    bot_moves = (
        Event.objects.filter(game_id__in=tournament_games, actor__startswith="bot:")
        .values("game_id", "command_id")
        .distinct()
        .count()
    )

    def played() -> dict[str, int]:
        """Moves played by each pool process of the workers (its pid in the log line)."""
        counts: dict[str, int] = {}
        for pid in PLAYED.findall(cluster.log("worker1") + cluster.log("worker2")):
            counts[pid] = counts.get(pid, 0) + 1
        return counts

    # The last turn is logged (and counted) just after the commit that ended the tournament.
    assert eventually(lambda: sum(played().values()) == bot_moves), (played(), bot_moves)
    assert len(played()) >= 2, f"one pool process played every move: {played()}"
    # The workers' moves reach the web processes' /metrics through the shared directory.
    assert eventually(lambda: metric(cluster, 1, "tablehall_moves_total", by="computer") == bot_moves)
    assert metric(cluster, 0, "tablehall_turns", queue=cluster.queue, state="due") == 0
    assert metric(cluster, 0, "tablehall_turns", queue=cluster.queue, state="claimed") == 0

    out = io.StringIO()
    call_command("verify_events", stdout=out)
    assert out.getvalue().startswith("OK:"), out.getvalue()
    print(f"cluster tournament: {bot_moves} computer moves in {time.monotonic() - started:.1f} s, {played()}")
