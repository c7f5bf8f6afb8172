"""The spectator edge (infra/edge/) beside a Daphne process of the Procfile, on a Redis of the test's own.

A spectator on the edge gets what a spectator on Daphne gets; nothing a seat may hide ever reaches the
edge; restarting the edge or Redis makes its spectators reconnect and resume with nothing lost or
applied twice.
"""

from __future__ import annotations

import ast
import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
from django.utils import translation

from games.commands.create import SeatSpec, create_game
from games.eventlog import tables
from games.eventlog.tables import load_table
from games.live import publish
from games.live.groups import edge_channel, seat_channel
from games.models import Event, Game, Seat
from games.words import names
from tests.processes import ROOT, Processes, free_port, http_get, procfile

from .clients import View, shown
from .conftest import OwnRedis, server_errors

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

TIMEOUT = 60.0
WATCH = "/ws/watch/"


@dataclass
class Site:
    processes: Processes
    redis: OwnRedis
    web: str
    edge_port: int

    @property
    def edge(self) -> str:
        return f"ws://127.0.0.1:{self.edge_port}{WATCH}"

    def start_edge(self, processes: int = 1) -> None:
        name = f"edge-{sum(n.startswith('edge') for n in self.processes.processes) + 1}"
        self.processes.start(
            name, procfile()["edge"], EDGE_PORT=str(self.edge_port), EDGE_PROCESSES=str(processes)
        )
        deadline = time.monotonic() + TIMEOUT
        while self.processes.log(name).count(" ready.") < processes:
            assert self.processes.processes[name].poll() is None, self.processes.tails()
            assert time.monotonic() < deadline, self.processes.tails()
            time.sleep(0.05)

    def stop_edge(self) -> None:
        names = [n for n in self.processes.processes if n.startswith("edge")]
        self.processes.stop([names[-1]])


@pytest.fixture
def site(faults: Processes, own_redis: OwnRedis) -> Site:
    faults.env.update(
        REDIS_URL=own_redis.url,
        SPECTATOR_SOCKET=WATCH,
        EXTRA_ENGINES="tiny=tests.games.tiny_engine",
        JOBS="off",
        SOCKET_RATE="0",
    )
    web = faults.start_web("web")
    faults.wait_ready(["web"])
    result = Site(faults, own_redis, web, free_port())
    result.start_edge()
    return result


def table(goal: int = 10, delay: int = 0) -> tuple[Game, list[str]]:
    game = create_game("tiny", {"players": 2, "goal": goal}, [SeatSpec("A"), SeatSpec("B")])
    if delay:
        Game.objects.filter(pk=game.pk).update(spectator_delay=delay)
        tables.invalidate(game.pk)
    return game, [s.token for s in Seat.objects.filter(game=game).order_by("number")]


def move(web: str, game: Game, seat: int, token: str, command_id: str, seq: int) -> dict[str, Any]:
    body = {"seat": seat, "action": {"type": "add", "n": 1}, "command_id": command_id, "expected_seq": seq}
    request = urllib.request.Request(
        f"{web}/api/games/{game.pk}/actions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Seat-Token": token},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=20) as response:  # noqa: S310 - loopback only
        return dict(json.loads(response.read()))


async def play(web: str, game: Game, tokens: list[str], moves: int, between: float = 0.0) -> int:
    """``moves`` moves, seats in turn, through the API of the Daphne process: the last seq."""
    seq = await asyncio.to_thread(game.events.count)
    for n in range(moves):
        seat = n % 2
        result = await asyncio.to_thread(move, web, game, seat, tokens[seat], f"m{n}", seq)
        seq = result["seq"]
        await asyncio.sleep(between)
    return seq


@dataclass
class Watcher:
    """A spectator as the page keeps one (tests/faults/clients.py), reconnecting after any close."""

    url: str
    origin: str
    view: View = field(default_factory=View)
    frames: list[str] = field(default_factory=list)
    closes: list[int | None] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)  # the picture's seq after each message that changed it
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)  # a seq or a close noted

    async def _changed(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def run(
        self, done: Callable[[Watcher], bool] = lambda w: bool(w.view.snap and w.view.snap["finished"])
    ) -> None:
        import websockets

        while True:
            try:
                ws = await websockets.connect(self.url, origin=self.origin, open_timeout=10)
            except (OSError, websockets.InvalidHandshake):
                await asyncio.sleep(0.1)  # back off, then try again (the edge may be restarting)
                continue
            try:
                async for raw in ws:
                    assert isinstance(raw, str)
                    self.frames.append(raw)
                    before = self.view.seq
                    if self.view.receive(json.loads(raw)):
                        await ws.send(json.dumps({"type": "resync"}))
                    if self.view.seq != before:
                        self.seqs.append(self.view.seq)
                        await self._changed()
                    self.connected.set()
                    if done(self):
                        await ws.close()
                        return
                self.closes.append(ws.close_code)
            except websockets.ConnectionClosed:
                self.closes.append(ws.close_code)
            await self._changed()
            await asyncio.sleep(0.1)  # a page's back-off before it reconnects


def updates(frames: list[str]) -> list[str]:
    return [f for f in frames if f.startswith('{"type":"update"')]


def test_a_spectator_on_the_edge_gets_what_one_on_daphne_gets(site: Site):
    game, tokens = table(goal=12, delay=2)

    async def scenario() -> tuple[Watcher, Watcher]:
        on_daphne = Watcher(f"{site.web.replace('http', 'ws', 1)}/ws/tables/{game.pk}/", site.web)
        on_edge = Watcher(f"{site.edge}{game.pk}/", site.web)
        runs = [
            asyncio.create_task(w.run(lambda w: len(updates(w.frames)) == 12)) for w in (on_daphne, on_edge)
        ]
        await asyncio.wait_for(asyncio.gather(on_daphne.connected.wait(), on_edge.connected.wait()), TIMEOUT)
        await play(site.web, game, tokens, 12)
        await asyncio.wait_for(asyncio.gather(*runs), TIMEOUT)
        return on_daphne, on_edge

    on_daphne, on_edge = asyncio.run(scenario())
    assert json.loads(on_edge.frames[0]) == json.loads(on_daphne.frames[0])  # the state on connect
    assert updates(on_edge.frames) == updates(on_daphne.frames)  # byte for byte, in order
    assert len(updates(on_edge.frames)) == 12
    final = publish.snapshot(load_table(game.pk), None)
    assert on_edge.view.shown() == shown(final) == on_daphne.view.shown()
    # The delay held while the game was played (spectators two moves behind), and its end came at once.
    totals = [json.loads(f)["view"]["total"] for f in updates(on_edge.frames)]
    assert totals == [0, 0, *range(1, 10), 12]
    assert final["seq"] == game.events.count() and final["finished"]
    assert on_edge.closes == [] and server_errors(site.processes) == []


def test_the_edge_never_hears_a_seat(site: Site):
    """By construction (it reads no channel layer, only its tables' edge channels, on which games.live.publish
    puts the public text alone), and in fact: everything published for it during a whole game played by
    two seats on sockets, and everything it sent, holds no seat's secret card."""
    source = "\n".join(path.read_text() for path in (ROOT / "infra" / "edge").glob("*.py"))
    names = {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Name | ast.Attribute)
    }
    assert not names & {
        "get_channel_layer",
        "group_add",
        "channel_layer",
        "psubscribe",
        "seat_group",
        "seat_channel",
        "feed_channel",
    }
    game, tokens = table(goal=10)
    heard: list[tuple[str, str]] = []
    listener = redis.Redis.from_url(site.redis.url).pubsub()
    listener.psubscribe("*")  # every PUBLISH on this Redis, whatever its channel

    async def scenario() -> Watcher:
        import websockets

        seats = [
            await websockets.connect(
                f"{site.web.replace('http', 'ws', 1)}/ws/tables/{game.pk}/",
                origin=site.web,
                additional_headers={"X-Seat-Token": token},
            )
            for token in tokens
        ]
        on_edge = Watcher(f"{site.edge}{game.pk}/", site.web)
        run = asyncio.create_task(on_edge.run())
        await asyncio.wait_for(on_edge.connected.wait(), TIMEOUT)
        await play(site.web, game, tokens, 10)
        await asyncio.wait_for(run, TIMEOUT)
        for ws in seats:
            hello = json.loads(await ws.recv())
            assert hello["view"]["secret"]  # the seats do see their card
            await ws.close()
        return on_edge

    on_edge = asyncio.run(scenario())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        message = listener.get_message(timeout=0.2)
        if message and message["type"] == "pmessage":
            heard.append((message["channel"].decode(), message["data"].decode()))
    listener.close()
    deal = Event.objects.get(game_id=game.pk, type="deal")
    secrets = deal.data["secrets"]
    # Everything PUBLISHed: the seats' updates on their own channels (their web processes' feeds) and the
    # public ones on the one channel the edge subscribes to.
    channels = {channel for channel, _text in heard}
    assert channels <= {edge_channel(game.pk), seat_channel(game.pk, 0), seat_channel(game.pk, 1)}
    heard = [(channel, text) for channel, text in heard if channel == edge_channel(game.pk)]
    assert len(heard) == 10
    for text in [t for _c, t in heard] + on_edge.frames:
        message = json.loads(text)
        assert message["seat"] is None and message["legal_actions"] == []
        assert message["view"]["secret"] is None
        assert not any(f'"{card}"' in text for card in secrets), text


def test_spectators_resume_after_the_edge_or_redis_restarts(site: Site):
    game, tokens = table(goal=30)
    seq, made = game.events.count(), 0

    async def moves(count: int) -> None:
        nonlocal seq, made
        for _ in range(count):
            seat = made % 2
            seq = (await asyncio.to_thread(move, site.web, game, seat, tokens[seat], f"m{made}", seq))["seq"]
            made += 1

    async def scenario() -> list[Watcher]:
        watchers = [Watcher(f"{site.edge}{game.pk}/", site.web) for _ in range(5)]
        runs = [asyncio.create_task(w.run()) for w in watchers]
        await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), TIMEOUT)
        await moves(10)
        await asyncio.to_thread(site.stop_edge)  # SIGTERM: every socket closed with 4503
        await moves(3)  # made while no edge runs
        await asyncio.to_thread(site.start_edge)
        await asyncio.wait_for(_reached(watchers, seq), TIMEOUT)
        await moves(7)
        await asyncio.wait_for(_reached(watchers, seq), TIMEOUT)
        await asyncio.to_thread(site.redis.restart)  # every subscription gone with it
        await asyncio.wait_for(_closed(watchers, 2), TIMEOUT)
        await moves(10)
        await asyncio.wait_for(asyncio.gather(*runs), TIMEOUT)
        return watchers

    watchers = asyncio.run(scenario())
    final = shown(publish.snapshot(load_table(game.pk), None))
    assert final["finished"]
    for watcher in watchers:
        assert len(watcher.closes) >= 2 and set(watcher.closes) == {4503}, watcher.closes
        assert watcher.view.shown() == final
        assert watcher.seqs == sorted(set(watcher.seqs))  # never went back, nothing applied twice
    assert server_errors(site.processes) == []


async def _until(watchers: list[Watcher], check: Callable[[Watcher], bool]) -> None:
    for watcher in watchers:
        async with watcher.changed:
            await watcher.changed.wait_for(lambda watcher=watcher: check(watcher))


async def _reached(watchers: list[Watcher], seq: int) -> None:
    await _until(watchers, lambda w: w.view.seq >= seq)


async def _closed(watchers: list[Watcher], closes: int) -> None:
    await _until(watchers, lambda w: len(w.closes) >= closes)


def test_the_edge_refuses_what_daphne_refuses(site: Site):
    game, _tokens = table()

    async def scenario() -> list[Any]:
        import websockets

        out: list[Any] = []
        base = f"{site.edge}{game.pk}/"
        for url, headers in [
            (base + "?seat=0", {}),
            (base, {"X-Seat-Token": "whatever"}),
            (base + "?token=abc", {}),
            (f"{site.edge}99999999/", {}),
            (f"ws://127.0.0.1:{site.edge_port}/elsewhere/", {}),
        ]:
            async with websockets.connect(url, origin=site.web, additional_headers=headers) as ws:
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        out.append(json.loads(await ws.recv()).get("code"))
                out.append(ws.close_code)
        async with websockets.connect(base, origin=site.web) as ws:
            assert json.loads(await ws.recv())["type"] == "state"
            await ws.send(json.dumps({"type": "action", "action": {}, "command_id": "c1"}))
            out.append(json.loads(await ws.recv()))
            await ws.send("{")
            out.append(json.loads(await ws.recv())["code"])
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(base, origin="http://evil.example")
        return out

    out = asyncio.run(scenario())
    assert http_get(f"http://127.0.0.1:{site.edge_port}/healthz") == (200, "ok\n")  # compose's check
    assert out[:9] == [
        "not_your_seat",
        4403,
        "not_your_seat",
        4403,
        "token_in_address",
        4400,
        4404,
        4404,
        out[8],
    ]
    assert out[8]["code"] == "spectator" and out[8]["command_id"] == "c1"
    assert out[9] == "bad_json"


def test_a_spectator_resumes_from_a_seq_with_the_updates_it_missed(site: Site):
    game, tokens = table(goal=10)

    async def scenario() -> tuple[Watcher, list[dict[str, Any]]]:
        import websockets

        # The edge keeps a table's updates while someone watches it: this one does throughout.
        keeper = await websockets.connect(f"{site.edge}{game.pk}/", origin=site.web)
        watcher = Watcher(f"{site.edge}{game.pk}/", site.web)
        run = asyncio.create_task(watcher.run(lambda w: len(updates(w.frames)) == 6))
        await asyncio.wait_for(watcher.connected.wait(), TIMEOUT)
        await play(site.web, game, tokens, 6)
        await asyncio.wait_for(run, TIMEOUT)
        middle = json.loads(updates(watcher.frames)[2])["seq"]
        got = []
        for since in (middle, 10**9):
            async with websockets.connect(f"{site.edge}{game.pk}/?since={since}", origin=site.web) as ws:
                await ws.send(json.dumps({"type": "resync"}))  # answered after whatever the resume sent
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    got.append(message)
                    if message["type"] == "state":
                        break
        await keeper.close()
        return watcher, got

    watcher, got = asyncio.run(scenario())
    after = [json.loads(f) for f in updates(watcher.frames)[3:]]
    # From a seq the edge still holds: the three updates after it, then (the resync) the state.
    assert got[:3] == after and got[3]["type"] == "state" and got[3]["seq"] == after[-1]["seq"]
    # From a seq it never had: the state at once.
    assert [m["type"] for m in got[4:]] == ["state"]


def test_edge_processes_sharing_a_port_each_serve_their_spectators(site: Site):
    site.stop_edge()
    site.start_edge(processes=2)
    game, tokens = table(goal=10)

    async def scenario() -> list[Watcher]:
        watchers = [Watcher(f"{site.edge}{game.pk}/", site.web) for _ in range(8)]
        runs = [asyncio.create_task(w.run()) for w in watchers]
        await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), TIMEOUT)
        await play(site.web, game, tokens, 10)
        await asyncio.wait_for(asyncio.gather(*runs), TIMEOUT)
        return watchers

    watchers = asyncio.run(scenario())
    final = shown(publish.snapshot(load_table(game.pk), None))
    assert all(w.view.shown() == final and w.view.applied == 10 for w in watchers)
    log = "".join(site.processes.log(name) for name in site.processes.processes if name.startswith("edge"))
    assert log.count(" ready.") == 3  # the first edge, then two processes on one port
    site.stop_edge()  # SIGTERM reaches both
    assert all(p.poll() is not None for n, p in site.processes.processes.items() if n.startswith("edge"))


def test_many_tables_left_at_once_leave_the_other_tables_watching(site: Site):
    """The end of a many-table benchmark: the spectators of 50 tables all gone in the same instant (half
    of them with no closing handshake, as when their process ends), three times, while a table watched on
    goes on moving. Its spectators keep their sockets and every update; the edge never thinks Redis was
    lost."""
    kept, tokens = table(goal=10)
    others = [table()[0] for _ in range(50)]

    async def scenario() -> list[Watcher]:
        import websockets

        watchers = [Watcher(f"{site.edge}{kept.pk}/", site.web) for _ in range(3)]
        runs = [asyncio.create_task(w.run()) for w in watchers]
        await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), TIMEOUT)

        async def leaver(game: Game) -> Any:
            ws = await websockets.connect(f"{site.edge}{game.pk}/", origin=site.web, open_timeout=TIMEOUT)
            assert json.loads(await ws.recv())["type"] == "state"
            return ws

        moves = asyncio.create_task(play(site.web, kept, tokens, 10, between=0.1))
        for _round in range(3):  # each time every table left, then watched again
            leavers = await asyncio.gather(*(leaver(game) for game in others for _ in range(4)))
            for ws in leavers[::2]:
                ws.transport.abort()  # gone with its process: no closing handshake
            await asyncio.gather(*(ws.close() for ws in leavers[1::2]))
        await moves
        await asyncio.wait_for(asyncio.gather(*runs), TIMEOUT)
        return watchers

    watchers = asyncio.run(scenario())
    final = shown(publish.snapshot(load_table(kept.pk), None))
    assert final["finished"]
    for watcher in watchers:
        assert watcher.closes == [] and watcher.view.shown() == final
    log = "".join(site.processes.log(n) for n in site.processes.processes if n.startswith("edge"))
    assert "lost Redis" not in log
    assert server_errors(site.processes) == []


def test_spectators_on_the_edge_read_the_seats_in_their_language_as_on_daphne(site: Site):
    """Seats without a name of their own are named in the reader's language: the edge's state for a
    Kreyòl page (its language cookie) and a Tagalog one (its browser's Accept-Language) is the one
    Daphne's table socket sends the same page, before and after a move; the update is the same for both."""
    game = create_game(
        "tiny",
        {"players": 3, "goal": 10},
        [
            SeatSpec("Guest 1", name_role="guest"),
            SeatSpec("Computer 2 (Easy)", bot_level="greedy"),
            SeatSpec("Player 3", name_role="player"),
        ],
    )
    token = Seat.objects.get(game=game, number=0).token
    pages = {"ht": {"Cookie": "django_language=ht"}, "tl": {"Accept-Language": "tl,en;q=0.5"}, "en": {}}
    expected = {}
    for language in pages:
        with translation.override(language):
            expected[language] = [names.seat_name(s) for s in game.seats.order_by("number")]
    assert len({tuple(n) for n in expected.values()}) == 3  # the test means something: three languages

    async def scenario() -> dict[tuple[str, str], list[dict[str, Any]]]:
        import websockets

        daphne = f"{site.web.replace('http', 'ws', 1)}/ws/tables/{game.pk}/"
        sockets = {
            (where, language): await websockets.connect(url, origin=site.web, additional_headers=headers)
            for language, headers in pages.items()
            for where, url in (("daphne", daphne), ("edge", f"{site.edge}{game.pk}/"))
        }
        got = {key: [json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))] for key, ws in sockets.items()}
        await asyncio.to_thread(move, site.web, game, 0, token, "m0", got["daphne", "en"][0]["seq"])
        for key, ws in sockets.items():
            got[key].append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))  # the update
            await ws.send(json.dumps({"type": "resync"}))
            got[key].append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))  # the state again
            await ws.close()
        return got

    got = asyncio.run(scenario())
    for language in pages:
        daphne, edge = got["daphne", language], got["edge", language]
        assert [m["type"] for m in edge] == ["state", "update", "state"]
        assert [s["name"] for s in edge[0]["seats"]] == expected[language]
        assert edge == daphne
        assert edge[1] == got["edge", "en"][1]  # one update for every language
    assert server_errors(site.processes) == []


def test_stopping_the_edge_closes_its_sockets_once_and_loses_no_redis(site: Site):
    """SIGTERM with many tables watched (the end of a benchmark): every socket is closed with 4503 as the
    edge stops, and its own closing of the Redis connection is not taken for a lost Redis."""
    games = [table()[0] for _ in range(20)]

    async def scenario() -> list[int | None]:
        import websockets

        async def watch(game: Game) -> Any:
            ws = await websockets.connect(f"{site.edge}{game.pk}/", origin=site.web, open_timeout=TIMEOUT)
            assert json.loads(await ws.recv())["type"] == "state"
            return ws

        sockets = await asyncio.gather(*(watch(game) for game in games for _ in range(3)))
        await asyncio.to_thread(site.stop_edge)
        await asyncio.wait_for(asyncio.gather(*(ws.wait_closed() for ws in sockets)), TIMEOUT)
        return [ws.close_code for ws in sockets]

    codes = asyncio.run(scenario())
    assert codes == [4503] * len(codes)
    log = "".join(site.processes.log(n) for n in site.processes.processes if n.startswith("edge"))
    assert "lost Redis" not in log and server_errors(site.processes) == []
