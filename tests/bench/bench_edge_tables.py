"""Many tables through the spectator edge at human pace (issue #24: 20,000 spectators over 200 tables).

Run on demand (not collected by pytest):
    eval "$(bin/services)" && python tests/bench/bench_edge_tables.py [--tables 250 500 …] [--spectators N]
        [--period 3] [--seconds 30] [--clients 4] [--chart docs/img] [--json out.json]

The processes of tests/bench/bench_edge.py (two Daphne, one spectator edge, PostgreSQL, Redis); ``tables``
tables of the tiny engine, each with two players on Daphne (every player seated first, then each table
moving from its own moment in the period) who make one move every ``period`` seconds, and ``spectators``
(two a table unless given) spread evenly over the tables,
watching through the edge from ``clients`` client processes. Latency: from a move's send to each of its
table's spectators' receipt (one machine, ``time.time()``); lost: not received 30 s after the last move;
CPU per message: the edge's CPU over the updates it delivered. Where the time goes: from the send to the
move stored (its last event's ``created_at``: the command path on Daphne) and from there to each spectator
(publishing, Redis, the edge, the client).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_capacity import cpu, postgres_cpu, postmaster_pid, redis_pid  # noqa: E402
from tests.bench.bench_edge import WATCH, edge_process  # noqa: E402
from tests.bench.bench_fanout import (  # noqa: E402
    cpu_seconds,
    fanout_database,
    new_table,
    one_move,
    origin_of,
    percentile,
    web_processes,
)

LOST_AFTER = 30.0


def client_process(urls: list[str], conn: Any) -> None:
    try:
        import uvloop
    except ImportError:
        asyncio.run(_client(urls, conn))
    else:
        uvloop.run(_client(urls, conn))


async def _client(urls: list[str], conn: Any) -> None:
    """Watch each URL once; report {(game, seq): [receipt times]}."""
    import websockets

    got: dict[tuple[int, int], list[float]] = {}
    gate = asyncio.Semaphore(50)
    ready = [asyncio.get_running_loop().create_future() for _ in urls]
    closed: list[object] = []

    async def watch(url: str, done: asyncio.Future[None]) -> None:
        game = int(url.rstrip("/").rsplit("/", 1)[1])
        try:
            async with gate:
                ws = await websockets.connect(url, origin=origin_of(url), max_size=2**22, open_timeout=300)
                await ws.recv()  # the state
            done.set_result(None)
            async for raw in ws:
                now = time.time()
                if raw[:20].replace(" ", "").startswith('{"type":"update"'):
                    got.setdefault((game, json.loads(raw)["seq"]), []).append(now)
            closed.append(ws.close_code)
        except Exception as exc:  # noqa: BLE001 - reported
            if not done.done():
                done.set_exception(exc)
            else:
                closed.append(repr(exc))

    tasks = [asyncio.create_task(watch(u, f)) for u, f in zip(urls, ready, strict=True)]
    try:
        await asyncio.gather(*ready)
    except Exception as exc:  # noqa: BLE001
        conn.send(("failed", repr(exc)))
        return
    conn.send(("ready", len(urls)))
    cpu0 = time.process_time()
    await asyncio.to_thread(conn.recv)  # the players are done
    await asyncio.sleep(LOST_AFTER)
    conn.send(
        ("done", {f"{g}:{s}": times for (g, s), times in got.items()}, time.process_time() - cpu0, closed)
    )
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


RETRIES: list[int] = [0]  # sockets the server refused or closed while they connected, connected again


async def seated(url: str, game: int, token: str) -> tuple[Any, dict[str, Any]]:
    """A player's socket and its first picture of the table, connected again as a browser does when the
    server refuses the handshake or closes it at once (4503: try again)."""
    import websockets

    for attempt in range(10):
        try:
            ws = await websockets.connect(
                f"{url}/ws/tables/{game}/",
                origin=origin_of(url + "/"),
                additional_headers={"X-Seat-Token": token},
            )
            return ws, json.loads(await ws.recv())
        except (OSError, websockets.exceptions.WebSocketException):
            if attempt == 9:
                raise
            RETRIES[0] += 1
            await asyncio.sleep(1.0)
    raise AssertionError("unreachable")


async def play(
    players: list[Any], seq: int, period: float, seconds: float, offset: float
) -> dict[int, float]:
    """Two seated players of one table: a move every ``period`` s for ``seconds`` s; {seq: time sent}."""
    await asyncio.sleep(offset)
    sent: dict[int, float] = {}
    end = time.monotonic() + seconds
    move = 0
    while time.monotonic() < end:
        started = time.monotonic()
        ws = players[move % 2]
        at = time.time()
        seq = await one_move(ws, seq, f"m{move}")
        sent[seq] = at
        move += 1
        await asyncio.sleep(max(0.0, period - (time.monotonic() - started)))
    for ws in players:
        await ws.close()
    return sent


SEATING: list[float] = [0.0]  # seconds to seat every player before the first move


async def play_all(
    webs: list[str],
    tables: list[tuple[int, list[str]]],
    period: float,
    seconds: float,
    seated_all: Any = lambda: None,
) -> dict[int, dict[int, float]]:
    """Every player seated first (as the spectators are watching first: a club's people sit down over
    minutes, not in the same three seconds as the evening's moves), then every table moving, each at
    its own moment in the period. Seating's time is reported apart."""
    gate = asyncio.Semaphore(50)

    async def seat(url: str, game: int, token: str) -> tuple[Any, dict[str, Any]]:
        async with gate:
            return await seated(url, game, token)

    started = time.monotonic()
    sat = await asyncio.gather(
        *[
            asyncio.gather(*[seat(webs[i % len(webs)], game, t) for t in tokens])
            for i, (game, tokens) in enumerate(tables)
        ]
    )
    SEATING[0] = time.monotonic() - started
    seated_all()
    runs = [
        play(
            [ws for ws, _state in table],
            max(state["seq"] for _ws, state in table),
            period,
            seconds,
            period * i / len(tables),
        )
        for i, table in enumerate(sat)
    ]
    results = await asyncio.gather(*runs)
    return {game: sent for (game, _t), sent in zip(tables, results, strict=True)}


def stored_at(sent: dict[int, dict[int, float]]) -> dict[tuple[int, int], float]:
    """When each move was stored: its last event's ``created_at`` (taken just before the INSERT); a
    move's update carries the seq of its last event."""
    from games.models import Event

    rows = Event.objects.filter(game_id__in=list(sent)).values_list("game_id", "seq", "created_at")
    return {(game, seq): at.timestamp() for game, seq, at in rows if seq in sent[game]}


def measure(
    tables: int,
    spectators: int,
    period: float,
    seconds: float,
    clients: int,
    processes: int = 2,
    webs_count: int = 2,
) -> dict[str, Any]:
    if not os.environ.get("REDIS_URL"):
        raise RuntimeError("REDIS_URL is not set: the edge hears the tables through Redis")
    os.environ["SPECTATOR_SOCKET"] = WATCH
    with fanout_database() as db, web_processes(webs_count, db) as web, edge_process(db, processes) as edge:
        made = [new_table() for _ in range(tables)]
        watch = [f"ws://127.0.0.1:{edge.port}{WATCH}{made[i % tables][0]}/" for i in range(spectators)]  # type: ignore[attr-defined]
        ctx = mp.get_context("spawn")
        pipes, procs = [], []
        for c in range(clients):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=client_process, args=(watch[c::clients], there), daemon=True)
            proc.start()
            pipes.append(here)
            procs.append(proc)
        try:
            for pipe in pipes:
                if not pipe.poll(900):
                    raise RuntimeError("the spectators did not connect within 900 s")
                answer = pipe.recv()
                if answer[0] != "ready":
                    raise RuntimeError(f"a spectator could not connect: {answer[1]}")
            edge_cpu0 = sum(cpu_seconds(p) for p in edge.pids)  # type: ignore[attr-defined]
            web_cpu0 = [0.0]
            postmaster, redis = postmaster_pid(), redis_pid()
            parts0: dict[str, float] = {}

            def parts() -> dict[str, float]:
                """Each part's CPU seconds so far (PostgreSQL's whole server, shared with anything else)."""
                return {
                    "web": sum(cpu(p.pid) for p in web),
                    "edge": sum(cpu(p) for p in edge.pids),  # type: ignore[attr-defined]
                    "postgres": postgres_cpu(postmaster),
                    "redis": cpu(redis) if redis else 0.0,
                    "players (bench)": cpu(os.getpid()),
                    "spectators (bench)": sum(cpu(p.pid) for p in procs),
                }

            def playing() -> None:  # CPU counted from the first move
                web_cpu0[0] = sum(cpu_seconds(p.pid) for p in web)
                parts0.update(parts())

            webs = [f"ws://127.0.0.1:{p.port}" for p in web]  # type: ignore[attr-defined]
            sent = asyncio.run(play_all(webs, made, period, seconds, playing))
            web_cpu = sum(cpu_seconds(p.pid) for p in web) - web_cpu0[0]
            parts_spent = {name: v - parts0[name] for name, v in parts().items()}
            played_s = seconds + period  # the playing's wall time: the last table starts a period late
            for pipe in pipes:
                pipe.send("played")
            received: dict[str, list[float]] = {}
            for pipe in pipes:
                if not pipe.poll(LOST_AFTER + 300):
                    raise RuntimeError("a client process did not report")
                _done, got, _cpu, _closed = pipe.recv()
                for key, times in got.items():
                    received.setdefault(key, []).extend(times)
            edge_cpu = sum(cpu_seconds(p) for p in edge.pids) - edge_cpu0  # type: ignore[attr-defined]
            stored = stored_at(sent)
        finally:
            for proc in procs:
                proc.join(30)
                if proc.is_alive():
                    proc.kill()
    watchers = {game: sum(1 for i in range(spectators) if made[i % tables][0] == game) for game, _t in made}
    latencies, lost, expected = [], 0, 0
    to_store, from_store = [], []  # where the time goes: the command path, then the fan-out
    for game, moves in sent.items():
        for seq, at in moves.items():
            times = received.get(f"{game}:{seq}", [])
            expected += watchers[game]
            lost += watchers[game] - len(times)
            latencies += [1000 * (t - at) for t in times]
            if (game, seq) in stored:
                to_store.append(1000 * (stored[game, seq] - at))
                from_store += [1000 * (t - stored[game, seq]) for t in times]
    if os.environ.get("BENCH_WINDOWS"):  # where in the run the slow moves fall (diagnosis)
        start = min((at for moves in sent.values() for at in moves.values()), default=0.0)
        by_window: dict[int, list[float]] = {}
        for game, moves in sent.items():
            for seq, at in moves.items():
                if (game, seq) in stored:
                    by_window.setdefault(int((at - start) // 5), []).append(1000 * (stored[game, seq] - at))
        for w, values in sorted(by_window.items()):
            print(
                f"  {5 * w:3d}-{5 * w + 5:3d} s: {len(values)} moves, stored p50/p99/max ms "
                f"{percentile(values, 0.5):.1f}/{percentile(values, 0.99):.1f}/{max(values):.1f}"
            )
    return {
        "tables": tables,
        "spectators": spectators,
        "moves": sum(len(m) for m in sent.values()),
        "due": tables * math.ceil(seconds / period),
        "messages": expected,
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "max": max(latencies, default=float("nan")),
        "lost": lost,
        "edge_cpu_us": 1e6 * edge_cpu / max(1, len(latencies)),
        # The web processes' CPU a move (the command path and publishing, both players' sockets), over
        # the playing only: a figure that load on the machine stretches less than latency.
        "web_cpu_ms": 1e3 * web_cpu / max(1, sum(len(m) for m in sent.values())),
        "stored_p50": percentile(to_store, 0.5),
        "stored_p99": percentile(to_store, 0.99),
        "fanout_p50": percentile(from_store, 0.5),
        "fanout_p99": percentile(from_store, 0.99),
        "edge_processes": processes,
        "retries": RETRIES[0],
        "seating_s": SEATING[0],
        # CPU a move of each part, and the share of the machine's cores each part kept busy while playing
        "cpu_ms_per_move": {
            name: 1e3 * v / max(1, sum(len(m) for m in sent.values())) for name, v in parts_spent.items()
        },
        "cores_busy": {name: v / played_s for name, v in parts_spent.items()},
        "load": os.getloadavg(),
    }


def report(f: dict[str, Any]) -> None:
    print(
        f"tables={f['tables']} spectators={f['spectators']} moves={f['moves']} messages={f['messages']} "
        f"p50_ms={f['p50']:.1f} p99_ms={f['p99']:.1f} max_ms={f['max']:.1f} lost={f['lost']} "
        f"edge_cpu_us_per_message={f['edge_cpu_us']:.1f} web_cpu_ms_per_move={f['web_cpu_ms']:.2f} "
        f"load={f['load'][0]:.1f} "
        f"sockets_connected_again={f['retries']} seating_s={f['seating_s']:.1f}",
        flush=True,
    )
    print(
        "  cpu ms/move: "
        + ", ".join(f"{k} {v:.2f}" for k, v in f["cpu_ms_per_move"].items())
        + "; cores busy: "
        + ", ".join(f"{k} {v:.2f}" for k, v in f["cores_busy"].items())
    )
    print(
        f"  send to stored p50/p99 ms {f['stored_p50']:.1f}/{f['stored_p99']:.1f}; "
        f"stored to spectator p50/p99 ms {f['fanout_p50']:.1f}/{f['fanout_p99']:.1f}",
        flush=True,
    )


def sweep(
    steps: list[int],
    period: float = 3.0,
    seconds: float = 30.0,
    clients: int = 2,
    edge_processes: int = 1,
    *,
    spectators: int | None = None,
    web_processes: int = 2,
) -> list[dict[str, Any]]:
    """``measure`` at each number of tables, smallest first, until the first step past the goal's terms
    (report_people.passed): that step is the knee; the larger ones are not run. ``spectators``: in all
    at every step (default: two a table, the goal's)."""
    from tests.bench import report_people

    done = []
    for tables in sorted(steps):
        RETRIES[0] = 0
        watching = spectators if spectators is not None else 2 * tables
        f = measure(tables, watching, period, seconds, clients, edge_processes, web_processes)
        report(f)
        done.append(f)
        if not report_people.passed(f):
            break
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[200])
    parser.add_argument("--spectators", type=int, default=None, help="in all (default: 2 a table)")
    parser.add_argument("--period", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=4)
    # Two edge processes on one port: each process may hold 20,000 open files on this machine.
    parser.add_argument("--edge-processes", type=int, default=2)
    parser.add_argument("--web-processes", type=int, default=2)
    parser.add_argument("--chart", type=Path, help="draw the curve as bench-people.png in this directory")
    parser.add_argument("--json", type=Path, help="write every step's figures into this file")
    args = parser.parse_args()
    steps = sweep(
        args.tables,
        args.period,
        args.seconds,
        args.clients,
        args.edge_processes,
        spectators=args.spectators,
        web_processes=args.web_processes,
    )
    if args.json:
        args.json.write_text(json.dumps(steps, indent=1))
    if args.chart:
        from tests.bench import report as page

        page.charts({"people": steps}, args.chart)
        print(f"chart: {args.chart}/bench-people.png")


if __name__ == "__main__":
    main()
