"""The spectator edge's Redis subscriptions (games/live/pubsub.py), in the test's process: an edge
(its own event loop, a stand-in for the database's picture) on a Redis of the test's own, reached through
a gate that can hold what the edge writes, so that Redis answers it late, in one go.

Only a failure of the connection makes the edge close its sockets (4503). A confirmation that arrives
late, for a table left and watched again meanwhile, answers the request it was sent for: it is not a
renewed connection, and the spectators of other tables keep watching.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
import redis.asyncio

from games.live.groups import edge_channel
from infra.edge import server
from infra.edge.server import Edge

from .conftest import OwnRedis

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

WATCH = "/ws/watch/"
ORIGIN = "http://127.0.0.1"
TIMEOUT = 60.0
SUBSCRIBE = b"$9\r\nSUBSCRIBE\r\n"  # the command's name as the edge writes it (RESP)
UNSUBSCRIBE = b"$11\r\nUNSUBSCRIBE\r\n"


class Gate:
    """A TCP proxy to Redis whose client-to-Redis direction can be held, then let go in one write."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.shut_ = False
        self.held = b""  # what the edge wrote while the gate was shut
        self.wrote = asyncio.Condition()
        self.waiting: dict[asyncio.StreamWriter, bytearray] = {}  # per upstream connection
        self.tasks: set[asyncio.Task[None]] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/0"

    def shut(self) -> None:
        self.held, self.shut_ = b"", True

    def let_go(self) -> None:
        self.shut_ = False
        for upstream, waiting in self.waiting.items():
            upstream.write(bytes(waiting))
            waiting.clear()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream = await asyncio.open_connection("127.0.0.1", self.port)
        self.waiting[upstream] = bytearray()
        for pump in (self._up(reader, upstream), _pump(upstream_reader, writer)):
            task = asyncio.create_task(pump)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _up(self, reader: asyncio.StreamReader, upstream: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            if self.shut_:
                self.waiting[upstream] += data
                async with self.wrote:
                    self.held += data
                    self.wrote.notify_all()
                continue
            upstream.write(data)
            await upstream.drain()
        upstream.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()
    writer.close()


def picture(game_id: int, language: str) -> dict[str, Any]:
    """The database's picture, as read_state gives it: a table at seq 0 with no seats."""
    return {"game": game_id, "seq": 0, "since": 0, "seat": None, "view": {}, "seats": [], "finished": False}


async def watch(port: int, game_id: int) -> Any:
    import websockets

    return await websockets.connect(f"ws://127.0.0.1:{port}{WATCH}{game_id}/", origin=ORIGIN, open_timeout=10)


async def _stop(running: asyncio.Task[None], gate: Gate) -> None:
    """The edge's server and whatever tasks it left (its Redis reader), then the gate."""
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await running
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and t not in gate.tasks]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)
    await gate.close()


def update(seq: int) -> str:
    return json.dumps({"type": "update", "seq": seq, "since": seq - 1, "view": {"n": seq}})


def test_a_late_confirmation_for_a_table_watched_again_is_no_lost_redis(own_redis: OwnRedis, monkeypatch):
    """A table's subscription unanswered until its spectator gave up, then the table left (unsubscribe)
    and watched again (subscribe): Redis answers the three at once. The first confirmation is the old
    request's; the table's new subscription is confirmed by the third. Before the subscriptions had one
    owner, the third was taken for a reconnection and every socket of the edge was closed (4503)."""
    kept, again = 101, 102

    async def scenario() -> tuple[list[str], list[str]]:
        import websockets

        gate = Gate(own_redis.port)
        edge = Edge(await gate.start(), WATCH, reader=picture)
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        running = asyncio.create_task(edge.run("127.0.0.1", 0, ready))
        port = await ready
        publisher = redis.asyncio.Redis.from_url(own_redis.url)
        try:
            keeper = await watch(port, kept)
            kept_frames = [json.loads(await keeper.recv())["type"]]

            gate.shut()
            # Nothing reaches Redis now: the next subscription cannot be confirmed in time.
            monkeypatch.setattr(server, "SUBSCRIBE_TIMEOUT", 0.2)
            gave_up = await watch(port, again)
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(gave_up.recv(), TIMEOUT)
            assert gave_up.close_code == 4503
            monkeypatch.setattr(server, "SUBSCRIBE_TIMEOUT", TIMEOUT)
            watcher = await watch(port, again)
            async with gate.wrote:  # subscribe, unsubscribe, subscribe: all written, none answered
                await asyncio.wait_for(
                    gate.wrote.wait_for(
                        lambda: gate.held.count(SUBSCRIBE) == 2 and gate.held.count(UNSUBSCRIBE) == 1
                    ),
                    TIMEOUT,
                )
            gate.let_go()

            again_frames = [json.loads(await asyncio.wait_for(watcher.recv(), TIMEOUT))["type"]]
            await publisher.publish(edge_channel(kept), update(1))
            await publisher.publish(edge_channel(again), update(1))
            kept_frames.append(json.loads(await asyncio.wait_for(keeper.recv(), TIMEOUT))["type"])
            again_frames.append(json.loads(await asyncio.wait_for(watcher.recv(), TIMEOUT))["type"])
            for ws, frames in ((keeper, kept_frames), (watcher, again_frames)):
                await ws.send(json.dumps({"type": "resync"}))  # still open: answered
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))["type"])
                await ws.close()
            return kept_frames, again_frames
        finally:
            await publisher.aclose()
            await _stop(running, gate)

    kept_frames, again_frames = asyncio.run(scenario())
    assert kept_frames == ["state", "update", "state"]
    assert again_frames == ["state", "update", "state"]
