"""Moves per second through the whole command path, 1 and 8 tables driven at once, beside raw INSERT+COMMIT.

Run on demand (not collected by pytest):
    eval "$(bin/services)" && python tests/bench/bench_command.py [--moves 600] [--writers 1 8]

Creates and drops its own PostgreSQL database (``<name>_command``). Each driver is a process with the
production settings (PostgreSQL, the channels-redis layer of REDIS_URL, ``JOBS=celery``) playing
Kazino matches to 160 between greedy bots, one table per driver: it runs each computer turn the
previous move scheduled (``games.computers.autoplay.play_bot_turn``: load, choose, append, commit, publish on
Redis, add the next turn to the due turns on Redis, as in production:
``games/background/dueturns.py``), at once rather than after ``BOT_DELAY``. The queue is one of the run's own,
deleted afterwards; nothing consumes it. The
spectators watch as in production (``SPECTATOR_SOCKET``: who listens is asked of Redis and the
spectators' frame PUBLISHed on the table's edge channel, in one pipelined round trip), and a thread of
the driver reads that channel as the spectator edge would: the public picture is computed, published
and received for every move (the run fails if a frame is missing). With ``--spectators-on daphne``
(the topology before the edge) the table's spectators' group on the channel layer has one member, read
by the driver itself as a web process's shared spectators' member would be. The computer seats' groups
have none, as in production. Raw INSERT
+ COMMIT (``bench_store.raw_writer``: psycopg, one row per transaction) is measured with as many
writers in the same database, in turn with the moves, the median of ``--repeats`` runs each.

Queries per move are counted as Django logs them (transaction statements included) over the first
moves of the one-table run, after its warm-up. Figures are appended to tests/bench/results/command.txt.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import statistics
import sys
import time
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")

from tests.bench import bench_store  # noqa: E402
from tests.bench.benchlib import doc_parser, load, scratch_database  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "command.txt"
WARM_UP = 20  # moves each driver plays before the clock starts (connections, kept fold, imports)
COUNTED = 50  # moves whose queries are counted (one-table run)


def _driver(
    db_name: str,
    queue: str,
    moves: int,
    seed: int,
    count_queries: bool,
    barrier: Any,
    out: Any,
    spectators_on: str = "edge",
) -> None:
    if spectators_on == "edge":
        os.environ["SPECTATOR_SOCKET"] = "/ws/watch/"  # the production topology (docs/deploying.md)
    os.environ["JOBS"] = "celery"
    os.environ["BOT_DELAY"] = "0"
    os.environ["CELERY_QUEUE"] = queue
    bench_store._setup(db_name)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import engines
    from games.commands.create import SeatSpec, create_game
    from games.computers import autoplay, worker

    turns: list[tuple[int, int, int]] = []
    send = worker.schedule_bot_turn

    def schedule(game_id: int, seq: int, seat: int) -> None:
        send(game_id, seq, seat)  # to Redis, as in production
        turns.append((game_id, seq, seat))  # and played here at once

    worker.schedule_bot_turn = schedule
    config = engines.get("kazino").default_config(2)
    seats = [
        SeatSpec("Greedy 1", bot_level="greedy"),
        SeatSpec("Greedy 2", bot_level="greedy"),
    ]
    games = [0]

    received = [0]

    def one_move() -> bool:
        if not turns:
            games[0] += 1
            game = create_game("kazino", config, seats, seed=seed * 1000 + games[0])
            (_watch_edge if spectators_on == "edge" else _watch)(game.pk, received)
        game_id, seq, seat = turns.pop(0)
        return autoplay.play_bot_turn(game_id, seq, seat) == "played"

    played = 0
    while played < WARM_UP:
        played += one_move()
    queries: dict[str, float] = {}
    if count_queries:
        kinds: Counter[str] = Counter()
        with CaptureQueriesContext(connection) as ctx:
            counted = 0
            while counted < COUNTED:
                counted += one_move()
        for q in ctx.captured_queries:
            kinds[q["sql"].split(None, 1)[0].upper()] += 1
        queries = {
            "per_move": len(ctx.captured_queries) / counted,
            **{k: v / counted for k, v in kinds.items()},
        }
    barrier.wait()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    played = 0
    while played < moves:
        played += one_move()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    deadline = time.monotonic() + 10
    while received[0] < WARM_UP + moves and time.monotonic() < deadline:
        time.sleep(0.01)  # the last frames on their way to the reader
    out.put((played, wall, cpu, queries, received[0]))


def _watch(game_id: int, received: list[int]) -> None:
    """One member of the table's public group, read in this process on the publishing loop."""
    import asyncio

    from channels.layers import get_channel_layer

    from games.live import publish
    from games.live.groups import public_group

    layer = get_channel_layer()
    loop = publish._Loop.get()

    async def join() -> str:
        channel = await layer.new_channel()
        await layer.group_add(public_group(game_id), channel)
        return channel

    async def drain(channel: str) -> None:
        while True:
            await layer.receive(channel)
            received[0] += 1

    channel = loop.run(join())
    asyncio.run_coroutine_threadsafe(drain(channel), loop.loop)


def _watch_edge(game_id: int, received: list[int]) -> None:
    """A reader of the table's edge channel, as the spectator edge subscribes to it, on a thread."""
    import threading

    import redis

    from games.live.groups import edge_channel

    pubsub = redis.Redis.from_url(os.environ["REDIS_URL"]).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(edge_channel(game_id))

    def drain() -> None:
        for message in pubsub.listen():
            if message["type"] == "message":
                received[0] += 1

    threading.Thread(target=drain, daemon=True).start()


def run_moves(
    db_name: str, writers: int, moves: int, count_queries: bool = False, spectators_on: str = "edge"
) -> dict[str, Any]:
    """``writers`` driver processes, one table each, ``moves`` moves each: moves per wall second (all
    drivers' moves over the slowest driver's time) and per CPU second of the drivers."""
    queue = f"bench-command-{uuid.uuid4().hex[:8]}"
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(writers), ctx.Queue()
    procs = [
        ctx.Process(
            target=_driver,
            args=(db_name, queue, moves, n + 1, count_queries and n == 0, barrier, out, spectators_on),
        )
        for n in range(writers)
    ]
    try:
        for p in procs:
            p.start()
        results = [out.get(timeout=900) for _ in procs]
        for p in procs:
            p.join(60)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
        _drop_queue(queue)
    total = sum(r[0] for r in results)
    wall = max(r[1] for r in results)
    cpu = sum(r[2] for r in results)
    queries = next((r[3] for r in results if r[3]), {})
    received = sum(r[4] for r in results)
    if received < total:
        raise RuntimeError(f"the spectators' reader got {received} frames for {total} moves")
    return {
        "moves": total,
        "wall": wall,
        "cpu": cpu,
        "rate": total / wall,
        "cpu_rate": total / cpu,
        "queries": queries,
    }


def _drop_queue(queue: str) -> None:
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    from games.background.dueturns import keys

    client.delete(queue, *(f"{queue}\x06\x16{n}" for n in (3, 6, 9)), f"_kombu.binding.{queue}", *keys(queue))


def measure(
    moves: int = 600,
    writers: tuple[int, ...] = (1, 8),
    repeats: int = 3,
    raw_appends: int = 1500,
    spectators_on: str = "edge",
) -> list[dict[str, Any]]:
    """For each number of tables driven at once: moves per second through the command path and raw
    INSERT+COMMIT per second with as many writers, measured in turn ``repeats`` times (medians)."""
    if not os.environ.get("REDIS_URL"):
        raise RuntimeError("REDIS_URL is not set: the command path publishes on channels-redis")
    figures = []
    with scratch_database("command") as db:
        for n in writers:
            raws, runs = [], []
            for attempt in range(repeats):
                raws.append(bench_store.run("raw", db, n, raw_appends))
                runs.append(
                    run_moves(
                        db,
                        n,
                        moves,
                        count_queries=attempt == 0,
                        spectators_on=spectators_on,
                    )
                )
            raw = statistics.median(raws)
            rate = statistics.median(r["rate"] for r in runs)
            figures.append(
                {
                    "writers": n,
                    "moves": runs[0]["moves"],
                    "rate": rate,
                    "cpu_rate": statistics.median(r["cpu_rate"] for r in runs),
                    "raw": raw,
                    "ratio": rate / raw,
                    "queries": runs[0]["queries"],
                    "repeats": repeats,
                    "spectators_on": spectators_on,
                    "load": load(),
                }
            )
            print(f"  {line(figures[-1])}", flush=True)
    return figures


def line(f: dict[str, Any]) -> str:
    q = f["queries"]
    per = f" queries/move={q['per_move']:.2f}" if q else ""
    return (
        f"tables={f['writers']} moves/s={f['rate']:.0f} (per driver CPU s {f['cpu_rate']:.0f}) "
        f"raw_insert_commit/s={f['raw']:.0f} ratio={f['ratio']:.3f}{per} load={f['load'][0]:.1f} "
        f"spectators-on={f.get('spectators_on', 'daphne')}"
    )


def main() -> None:
    parser = doc_parser(__doc__)
    parser.add_argument("--moves", type=int, default=600, help="moves each table plays in a run")
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--spectators-on",
        choices=["edge", "daphne"],
        default="edge",
        help="the spectators' frame PUBLISHed for the edge (production), or sent to a channel-layer group",
    )
    args = parser.parse_args()
    figures = measure(args.moves, tuple(args.writers), args.repeats, spectators_on=args.spectators_on)
    stamp = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write("".join(f"{stamp} {line(f)}\n" for f in figures))


if __name__ == "__main__":
    main()
