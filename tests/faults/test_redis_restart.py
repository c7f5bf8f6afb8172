"""Redis restarted under live tables: clients get the whole table again and play on, computers too.

The test's own redis-server (no persistence, as Debian's default) carries Daphne's channel layer and
the Celery queue of a worker and a beat (the Procfile's commands; the worker restarted when it exits,
as its systemd unit and compose do). A player plays a table against a computer over the socket while
others watch it and a table of computers. Redis is killed and started again: every group and every
queued computer turn is gone with it. Sockets are closed with 4503 rather than left deaf (a restarted
Redis has no groups) and reconnect; the turn watchdog schedules the lost computer turns again.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from games.commands.create import SeatSpec, create_game
from games.eventlog.tables import load_table
from games.live import publish
from games.models import Game, Seat
from tests.processes import Processes, procfile

from .clients import View, shown
from .conftest import OwnRedis, check_log, server_errors

pytestmark = [pytest.mark.postgres, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

TIMEOUT = 90.0
THINK = 0.3  # seconds the person takes before each move


@dataclass
class Client:
    web: str
    game: int
    seat: int | None = None
    token: str = ""
    plays: bool = False  # a person at the table: moves whenever its seat is to act
    view: View = field(default_factory=View)
    connects: int = 0
    closes: list[int | None] = field(default_factory=list)
    refused: list[Exception] = field(default_factory=list)  # handshakes that failed
    errors: list[dict[str, Any]] = field(default_factory=list)
    moves: list[tuple[str, int]] = field(default_factory=list)  # command id, connection
    fresh_states: int = 0  # states received since Redis was restarted
    restarted_at: int | None = None  # the seq this client had seen when Redis was restarted
    final: dict[str, Any] | None = None

    async def run(self, stop: asyncio.Event) -> None:
        import websockets

        url = f"{self.web.replace('http', 'ws', 1)}/ws/tables/{self.game}/"
        headers = {"X-Seat-Token": self.token} if self.token else {}  # a seat's credential, never in the URL
        while True:
            try:
                ws = await websockets.connect(
                    url, origin=self.web, open_timeout=10, additional_headers=headers
                )
            except (OSError, websockets.InvalidHandshake) as exc:
                self.refused.append(exc)
                await asyncio.sleep(0.2)
                continue
            self.connects += 1
            try:
                while not stop.is_set():
                    await self._take(ws)
                await ws.send(json.dumps({"type": "resync"}))
                while self.final is None:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    self.final = message if message["type"] == "state" else None
                await ws.close()
                return
            except websockets.ConnectionClosed:
                self.closes.append(ws.close_code)
                await asyncio.sleep(0.2)  # then connect again: the new state is the resync

    async def _take(self, ws: Any) -> None:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
        except TimeoutError:
            return
        if message["type"] == "state" and self.restarted_at is not None:
            self.fresh_states += 1
        if message["type"] == "error":
            self.errors.append(message)
        if self.view.receive(message):
            await ws.send(json.dumps({"type": "resync"}))
        snap = self.view.snap
        if self.plays and snap and not snap["finished"] and self.seat in snap["to_act"]:
            command_id = f"move-{snap['seq']}"  # sent again unchanged after a reconnect: stored once
            if (command_id, self.connects) not in self.moves:
                self.moves.append((command_id, self.connects))
                await asyncio.sleep(THINK)
                action = {"type": "action", "action": snap["legal_actions"][0]}
                await ws.send(json.dumps({**action, "command_id": command_id, "expected_seq": snap["seq"]}))


async def play(clients: list[Client], redis: OwnRedis) -> None:
    stop = asyncio.Event()
    runs = [asyncio.create_task(c.run(stop)) for c in clients]

    async def until(check: Any) -> None:
        while not check():
            for run in runs:
                if run.done():
                    run.result()  # a client that failed says why
            await asyncio.sleep(0.05)

    # Both tables under way, computers included, before Redis goes.
    await until(lambda: all(c.view.applied >= 3 for c in clients))
    for client in clients:
        client.restarted_at = client.view.seq
    redis.restart()
    await until(lambda: all(c.view.snap and c.view.snap["finished"] and c.fresh_states for c in clients))
    stop.set()
    await asyncio.gather(*runs)


def test_tables_play_on_through_a_redis_restart(faults: Processes, own_redis: OwnRedis):
    started = time.monotonic()
    faults.env.update(
        REDIS_URL=own_redis.url,
        BOT_DELAY="0.2",
        TURN_WATCHDOG_INTERVAL="1",
        TURN_WATCHDOG_IDLE="1.5",
    )
    # A person (seat 0, leads) against a computer; four computers, which the beat starts at once.
    person = create_game(
        "dominoes",
        {"players": 2, "target": 30, "first": 0},
        [SeatSpec("Person"), SeatSpec("Computer", bot_level="greedy")],
        seed=2,  # a deal of two hands or so: about a dozen moves by the person
    )
    bots = create_game(
        "dominoes",
        {"players": 4, "target": 20},
        [SeatSpec(f"Computer {n}", bot_level="greedy") for n in range(4)],
        seed=2,
    )
    web = faults.start_web("web")
    faults.start_worker("worker", restart=True)
    faults.start("beat", procfile()["beat"])
    faults.wait_ready(["web", "worker", "beat"])
    token = {(s.game_id, s.number): s.token for s in Seat.objects.filter(game__in=[person, bots])}
    clients = [
        Client(web, person.pk, 0, token[(person.pk, 0)], plays=True),
        Client(web, person.pk),
        Client(web, bots.pk),
        Client(web, bots.pk, 3, token[(bots.pk, 3)]),
    ]
    try:
        asyncio.run(asyncio.wait_for(play(clients, own_redis), TIMEOUT))
    except TimeoutError:
        states = [(c.game, c.seat, c.view.seq, c.view.snap and c.view.snap["finished"], c.fresh_states, c.closes)
                  for c in clients]  # fmt: skip
        raise AssertionError(f"the tables did not play on: {states}\n{faults.tails()}") from None

    for game in (person, bots):
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        check_log(game.pk)
    tables = {g.pk: load_table(g.pk) for g in (person, bots)}
    for client in clients:
        who = f"game {client.game} seat {client.seat}"
        # Closed by the server when Redis went (not by an exception: 1011), back, and given the table.
        assert client.closes and set(client.closes) <= {4503}, f"{who}: closed with {client.closes}"
        # While Redis is away a handshake may time out (Daphne's 5 s) or be closed: the client tries
        # again. None is answered with a server error.
        assert not [e for e in client.refused if isinstance(e, InvalidStatus)], (who, client.refused)
        # stale_seq: the computer confirmed the next round first (a simultaneous choice); the
        # client resyncs and moves again, as the page does.
        assert {e["code"] for e in client.errors} <= {"stale_seq"}, (who, client.errors)
        server = shown(publish.snapshot(tables[client.game], client.seat))
        assert client.view.shown() == server and shown(client.final or {}) == server, who
    moves = [e for e in tables[person.pk].events if e.actor == "seat:0" and e.cmd_index == 0]
    played = [e.command_id for e in moves]
    assert len(played) == len(set(played)) and all(c.startswith("move-") for c in played)
    restarted_at = clients[0].restarted_at or 0
    assert any(e.seq > restarted_at for e in moves), f"no move by the person after seq {restarted_at}"
    assert server_errors(faults) == []

    worker_log = faults.log("worker")
    print(
        f"\nredis restart: {len(clients)} clients reconnected ({sum(c.connects for c in clients)} connections, "
        f"{sum(len(c.refused) for c in clients)} handshakes to try again), "
        f"{len(played)} moves by the person, {sum(len(t.events) for t in tables.values())} events checked, "
        f"worker started {worker_log.count(' ready.')} times, "
        f"watchdog {'rescheduled' if 'scheduled again' in worker_log else 'did not reschedule'} turns, "
        f"{time.monotonic() - started:.1f} s"
    )
