"""1,000 table sockets dropped and reconnected while computers play: each client's picture of its table
ends equal to the server's, for its audience (each seat by its token, spectators with and without a
spectator delay), with no update lost or applied twice.

Daphne runs the Procfile's web command on Redis (the channel layer). The computers' moves are played
in this process by the product's own turn (``games.computers.autoplay``) and published through the same Redis,
paced, at tables long enough that every drop happens while they play. Clients follow the page's rules
(clients.View), drop their connection abruptly (no close frame) at random moments — before reading
anything, after a few messages, after a while — reconnect, send ``resync`` and go on. When every drop
is done each table plays a few more moves, then each client's picture is compared with the server's.

An update can still miss a live socket when another socket of its process drops at that moment
(channels-redis loses the message its cancelled receive was popping: django/channels#1683): the next
update shows the gap and the client resyncs. The gaps are counted and printed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.layers import channel_layers
from django.db import connections

from games.commands.create import SeatSpec, create_game
from games.computers import autoplay
from games.eventlog.tables import load_table, spectator_cut
from games.live import publish
from games.models import Seat
from tests.processes import Processes

from .clients import View, shown
from .conftest import check_log, server_errors

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

DROPS = 1000
SPECTATORS = 3  # per table, besides one client per seat
PACE = 0.03  # seconds between computer moves while clients drop
AFTER = 3  # moves per table once every drop is done
TABLES = [  # engine, config, spectator delay (in moves): games of well over 150 moves
    ("dominoes", {"players": 4, "target": 150}, 0),
    ("dominoes", {"players": 2, "target": 150}, 1),
    ("pitch", {"players": 4, "target": 21, "max_hands": 30}, 0),
]


@dataclass
class Client:
    game: int
    seat: int | None
    token: str
    quota: int
    view: View = field(default_factory=View)
    drops: int = 0
    connects: int = 0
    refused: list[str] = field(default_factory=list)
    final: dict[str, Any] | None = None  # the answer to the last resync


class Conductor(threading.Thread):
    """Plays the computers' turns in this process (its own database connection), a table at a time."""

    def __init__(self, games: list[int]) -> None:
        super().__init__(name="conductor", daemon=True)
        self.games = games
        self.dropping = threading.Event()
        self.dropping.set()
        self.done = threading.Event()
        self.targets: dict[tuple[int, int | None], int] = {}  # (game, seat) -> the last seq shown
        self.moves = self.during_drops = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while self.dropping.is_set():
                self._round()
                self.during_drops = self.moves
            for _ in range(AFTER):
                self._round()
            for game in self.games:
                table = load_table(game)
                self.targets.update({(game, n): table.seq for n in range(table.game.config["players"])})
                self.targets[(game, None)] = spectator_cut(table)
        except BaseException as exc:  # handed to the test's thread
            self.error = exc
        finally:
            connections.close_all()
            self.done.set()

    def _round(self) -> None:
        for game in self.games:
            table = load_table(game)
            if table.outcome() is None:
                assert autoplay.play_bot_turn(game, table.seq, table.to_act()[0]) == "played"
                self.moves += 1
                if self.dropping.is_set():
                    time.sleep(PACE)


def new_tables() -> list[Client]:
    clients: list[Client] = []
    for seed, (engine, config, delay) in enumerate(TABLES):
        players = config["players"]
        seats = [SeatSpec(f"Computer {n}", bot_level="greedy") for n in range(players)]
        game = create_game(engine, config, seats, seed=seed, spectator_delay=delay)
        tokens = dict(Seat.objects.filter(game=game).values_list("number", "token"))
        clients += [Client(game.pk, n, tokens[n], 0) for n in range(players)]
        clients += [Client(game.pk, None, "", 0) for _ in range(SPECTATORS)]
    for index, client in enumerate(clients):  # DROPS shared out, exactly
        client.quota = DROPS // len(clients) + (index < DROPS % len(clients))
    return clients


async def follow(client: Client, web: str, conductor: Conductor, rng: random.Random) -> None:
    import websockets

    url = f"{web.replace('http', 'ws', 1)}/ws/tables/{client.game}/"
    headers = {"X-Seat-Token": client.token} if client.token else {}  # a seat's credential, never in the URL
    while True:
        last = client.drops == client.quota
        try:
            ws = await websockets.connect(
                url, origin=web, open_timeout=20, max_size=2**22, additional_headers=headers
            )
        except (OSError, websockets.InvalidHandshake) as exc:
            client.refused.append(repr(exc))
            await asyncio.sleep(0.05)
            continue
        client.connects += 1
        await ws.send(json.dumps({"type": "resync"}))
        if last:
            await _to_the_end(client, ws, conductor)
            return
        # A random moment: at once, after a few messages, or after a while.
        moment = rng.random()
        if moment < 0.2:
            pass
        elif moment < 0.6:
            for _ in range(rng.randint(1, 5)):
                if not await _take(client, ws, 0.3):
                    break
        else:
            deadline = time.monotonic() + rng.uniform(0.0, 0.15)
            while (left := deadline - time.monotonic()) > 0 and await _take(client, ws, left):
                pass
        ws.transport.abort()  # no close frame: the connection just ends
        client.drops += 1


async def _take(client: Client, ws: Any, timeout: float) -> bool:
    """Receive and apply one message; False when none came in time."""
    try:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    except TimeoutError:
        return False
    if client.view.receive(message):
        await ws.send(json.dumps({"type": "resync"}))
    return True


async def _to_the_end(client: Client, ws: Any, conductor: Conductor) -> None:
    """Stay connected until the game has ended and this picture has caught up, then ask once more."""
    while not (
        conductor.done.is_set() and client.view.seq == conductor.targets.get((client.game, client.seat))
    ):
        await _take(client, ws, 0.2)
    await ws.send(json.dumps({"type": "resync"}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "state":
            client.final = message
            break
    await ws.close()


async def play(clients: list[Client], web: str, conductor: Conductor) -> None:
    rng = random.Random(1000)
    runs = [asyncio.create_task(follow(c, web, conductor, random.Random(rng.random()))) for c in clients]

    async def drops_done() -> None:
        while any(c.drops < c.quota for c in clients):
            await asyncio.sleep(0.05)
        conductor.dropping.clear()

    await asyncio.wait_for(asyncio.gather(drops_done(), *runs), 150)


def test_a_thousand_dropped_sockets_come_back_to_the_servers_picture(faults: Processes, settings):
    started = time.monotonic()
    # This process publishes the computers' moves to Daphne's channel layer.
    redis_layer = {"hosts": [os.environ["REDIS_URL"]], "capacity": 1000, "expiry": 30}
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": redis_layer}
    }
    channel_layers.backends.clear()
    web = faults.start_web("web")
    faults.wait_ready(["web"])
    clients = new_tables()
    games = sorted({c.game for c in clients})
    conductor = Conductor(games)
    conductor.start()
    try:
        asyncio.run(play(clients, web, conductor))
    finally:
        conductor.dropping.clear()
        conductor.join(60)
    if conductor.error is not None:
        raise conductor.error
    assert not conductor.is_alive()

    assert sum(c.drops for c in clients) == DROPS
    assert [c.refused for c in clients if c.refused] == [], "a handshake failed"
    assert all(c.connects == c.drops + 1 for c in clients)
    # Traffic flowed while the clients dropped: every drop was at a live table.
    assert conductor.during_drops >= 100, conductor.during_drops
    for game in games:
        check_log(game)
    tables = {game: load_table(game) for game in games}
    for client in clients:
        server = shown(publish.snapshot(tables[client.game], client.seat))
        who = f"game {client.game} seat {client.seat}"
        assert client.view.shown() == server, f"{who}: the client's picture is not the server's"
        assert client.final is not None and shown(client.final) == server, f"{who}: resync differs"
    assert server_errors(faults) == []

    updates = sum(c.view.applied for c in clients)
    print(
        f"\nsocket drops: {DROPS} drops and reconnects by {len(clients)} clients at {len(games)} tables, "
        f"{conductor.moves} computer moves ({conductor.during_drops} during the drops), "
        f"{sum(c.view.states for c in clients)} states, {updates} updates applied, "
        f"{sum(c.view.gaps for c in clients)} gaps resynced, {time.monotonic() - started:.1f} s"
    )
