"""Capacity: live tables of computer players at human pace, watched by spectators, on the production
topology of this machine, until a move is late or lost.

Run on demand (not collected by pytest):
    eval "$(bin/services)" && python tests/bench/bench_capacity.py [--tables 100 250 500 1000 …]
        [--window 30] [--pace 3] [--spectators 2] [--spectators-on edge|daphne]
        [--worker-options …]

Starts the Procfile's processes (``tests/processes.py``: two Daphne, the spectator edge, two Celery
workers whose turn chains play the computer seats, games/background/dueturns.py) on a PostgreSQL database of
its own (``<name>_capacity``, created and dropped). (The A/B against the old turn runner, docs/BENCHMARKS.md,
was measured with ``--turns celery runner`` at commit a2dcd03, before the runner was deleted.) The Redis
of REDIS_URL: a queue of the run's own. Each table is a casual Kazino match to 160
between two greedy computer players, moving at human pace: ``BOT_DELAY`` = ``--pace`` seconds between
a move and the next (the first moves spread at random over one period). Each table has ``--spectators``
spectators, spread over both web processes and over the client processes (asyncio, ``websockets``),
connected before its first move. As in production (docs/deploying.md: ``SPECTATOR_SOCKET``, nginx), the
spectators watch through the edge's ``/ws/watch/ID/``; ``--spectators-on daphne`` measures the topology
before the edge (no ``SPECTATOR_SOCKET``, spectators spread over both web processes' ``/ws/tables/ID/``).

The number of tables is raised step by step. At each step, after the new tables' spectators are
connected and two periods have passed, a window of ``--window`` seconds is measured: every command
stored in the window (its events' ``created_at``, taken by the worker just before the INSERT) and, for
each of its table's spectators, when the update arrived (``time.time()`` in the client; one clock).
Move-to-spectator latency is the difference; a move not received ``GRACE`` seconds after the window is
lost. The pace kept is the moves stored over the moves the tables should have made (one per period
each; a table's period is BOT_DELAY plus the time a turn takes, so even an idle machine keeps a little
less than 1). The run stops at the first step whose p99 passes 250 ms, that loses a move, or that
falls behind (keeps less than ``MIN_PACE`` of the first step's pace); that step is the knee.

Where the time goes: the CPU seconds each part spent in the window (web processes, workers with their
pool processes, the spectator edge, the PostgreSQL and Redis servers — both shared with whatever else uses them — the
spectator clients and this process), per move; and, when py-spy is installed, a profile of one
worker pool process, one worker's main process and the process serving the spectators (the edge, or
a web process) over each window (the knee's is kept; ``BENCH_PYSPY_GIL=1``: only while holding the GIL,
nearer CPU time; ``BENCH_PYSPY_RATE``: samples a second, 50). A run of the default
steps takes about 10–15 minutes. Figures are appended to tests/bench/results/capacity.txt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import shutil
import subprocess
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
os.environ["JOBS"] = "off"  # this process creates the tables; the workers play them

from tests.bench.benchlib import doc_parser, load, percentile, scratch_database  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "capacity.txt"
LOGS = ROOT / "var" / "bench-capacity"
STEPS = [100, 250, 500, 750, 1000, 1250, 1500, 2000]
GRACE = 10.0  # seconds after the window for an update to arrive before it counts as lost
MIN_PACE = 0.9
SETTLE_PERIODS = 2
WATCH = "/ws/watch/"  # SPECTATOR_SOCKET, as in infra/deploy/tablehall.env.example


# --- the spectators (client processes) ------------------------------------------------------------


def client_process(conn: Any) -> None:
    try:
        import uvloop
    except ImportError:
        asyncio.run(_client(conn))
    else:
        uvloop.run(_client(conn))


async def _client(conn: Any) -> None:
    """Spectators added on request (``("add", [(url, game), …])``), each recording when every update
    of its table arrived; ``("report", since)`` sends back every (game, seq, arrival) after ``since``
    for every spectator and forgets older ones; ``("stop",)`` ends."""
    import websockets

    received: list[list[tuple[int, float]]] = []  # per spectator: (seq, arrival)
    games: list[int] = []
    closed: list[str] = []
    gate = asyncio.Semaphore(50)
    tasks: list[asyncio.Task[None]] = []

    async def watch(index: int, url: str, ready: asyncio.Future[None]) -> None:
        origin = "http://" + url.split("//", 1)[1].split("/", 1)[0]
        try:
            async with gate:
                ws = await websockets.connect(url, origin=origin, max_size=2**22, open_timeout=120)
                first = json.loads(await ws.recv())
                if first.get("type") != "state":
                    raise RuntimeError(f"the first message was not the state: {str(first)[:200]}")
            ready.set_result(None)
            inbox = received[index]
            async for raw in ws:
                now = time.time()
                if raw[:20].replace(" ", "").startswith('{"type":"update"'):
                    head = raw[: raw.find(',"since"')] + "}" if ',"since"' in raw else raw
                    inbox.append((int(json.loads(head)["seq"]), now))
            closed.append(f"closed {ws.close_code}")
        except Exception as exc:  # noqa: BLE001 - reported
            if not ready.done():
                ready.set_exception(exc)
            else:
                closed.append(repr(exc)[:200])

    loop = asyncio.get_running_loop()
    while True:
        message = await asyncio.to_thread(conn.recv)
        if message[0] == "add":
            futures = []
            for url, game in message[1]:
                received.append([])
                games.append(game)
                future: asyncio.Future[None] = loop.create_future()
                tasks.append(asyncio.create_task(watch(len(received) - 1, url, future)))
                futures.append(future)
            try:
                await asyncio.gather(*futures)
            except Exception as exc:  # noqa: BLE001
                conn.send(("failed", repr(exc)[:500]))
                continue
            conn.send(("ready", len(futures)))
        elif message[0] == "report":
            since = message[1]
            out = []
            for index, inbox in enumerate(received):
                out.append((games[index], [(seq, at) for seq, at in inbox if at >= since]))
                inbox[:] = [
                    (seq, at) for seq, at in inbox if at >= since
                ]  # in place: its watcher appends to it
            conn.send(("report", out, list(closed), time.process_time()))
        else:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            conn.send(("stopped",))
            return


# --- CPU accounting -------------------------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu(pid: int, children: bool = False) -> float:
    """User + system CPU seconds of a process; with ``children``, also of its children that ended (a
    PostgreSQL backend that closed is counted in its postmaster)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def postgres_cpu(postmaster: int | None) -> float:
    """The whole PostgreSQL server's CPU seconds so far (its postmaster, the backends that ended, and
    the live ones): connections come and go (CONN_MAX_AGE), so counting backends by pid would lose
    the ones that closed in the window. Shared with every other database on the server."""
    if postmaster is None:
        return 0.0
    return cpu(postmaster, children=True) + sum(cpu(p) for p in tree(postmaster) if p != postmaster)


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it (a Celery worker's pool processes)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def redis_pid() -> int | None:
    import redis

    try:
        return int(redis.Redis.from_url(os.environ["REDIS_URL"]).info("server")["process_id"])
    except Exception:  # noqa: BLE001
        return None


def postmaster_pid() -> int | None:
    """The PostgreSQL server's main process: the parent of this connection's backend."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    fields = _stat(backend)
    return int(fields[1]) if fields is not None else None


# --- profiles -------------------------------------------------------------------------------------


def start_profile(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        return None
    return subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(int(seconds)),
            "--rate",
            os.environ.get("BENCH_PYSPY_RATE", "50"),
            "--nonblocking",
        ]
        + ["--format", "raw", "--output", str(out)]
        + (["--gil"] if os.environ.get("BENCH_PYSPY_GIL") else []),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def summarize(path: Path, top: int = 12) -> dict[str, Any]:
    """Self and inclusive shares of the sampled frames (py-spy's raw, collapsed stacks)."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    if not path.exists():
        return {}
    for line in path.read_text().splitlines():
        stack, _sep, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_frame(f) for f in stack.split(";")]
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
    if not total:
        return {}
    return {
        "samples": total,
        "self": [(f, n / total) for f, n in own.most_common(top)],
        # The frames below which most samples sit (the process's main loop, Celery's and billiard's
        # start-up) say nothing: the inclusive list starts under them.
        "inclusive": [(f, n / total) for f, n in inclusive.most_common() if n / total < 0.6][: top + 4],
    }


def _frame(frame: str) -> str:
    """``function (…/package/module.py:line)`` as ``function (package/module.py)``."""
    name, _sep, where = frame.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    return f"{name} ({'/'.join(path.split('/')[-2:])})" if where else name


# --- one run --------------------------------------------------------------------------------------


def measure(
    steps: list[int],
    window: float = 30.0,
    pace: float = 3.0,
    spectators: int = 2,
    clients: int = 2,
    limit_ms: float = 250.0,
    concurrency: int = 0,
    spectators_on: str = "edge",
    worker_options: str = "",
    edge_processes: int = 1,
    chains: int = 4,
) -> dict[str, Any]:
    if not os.environ.get("REDIS_URL"):
        raise RuntimeError("REDIS_URL is not set: the capacity run needs Redis")
    # The Procfile's defaults: a Celery worker's 3 pool processes, 4 turn chains over the two workers.
    # (more pool processes than chains in all).
    concurrency = concurrency or max(3, chains // 2 + 1)
    queue = f"bench-capacity-{uuid.uuid4().hex[:8]}"
    results: dict[str, Any] = {
        "steps": [],
        "window": window,
        "pace": pace,
        "spectators": spectators,
        "limit_ms": limit_ms,
        "spectators_on": spectators_on,
        "worker_options": worker_options,
        "turns": "celery",
        "concurrency": concurrency,
    }
    with scratch_database("capacity"):
        from django.conf import settings

        from tests.processes import Processes, app_env

        settings.CELERY_TASK_DEFAULT_QUEUE = queue
        settings.TURN_CHAINS = chains  # this process starts the chains with the first turns
        settings.TURN_SLICE = 2.0
        watch = WATCH if spectators_on == "edge" else ""
        settings.SPECTATOR_SOCKET = watch  # this process creates the tables: they publish for the edge too
        env = app_env(
            SPECTATOR_SOCKET=watch,
            BOT_DELAY=str(pace),
            CELERY_QUEUE=queue,
            WORKER_CONCURRENCY=str(concurrency),  # the Procfile's default is 3
            TURN_CHAINS=str(chains),
            TURN_SLICE="2",
            WORKER_LOG_LEVEL=os.environ.get("BENCH_WORKER_LOG_LEVEL", "warning"),
            LOG_LEVEL="WARNING",
            TURN_WATCHDOG_INTERVAL="0",
            # Every table's fold kept in every process, as docs/deploying.md asks of a site this size.
            FOLDS_KEPT=str(max(256, 2 * max(steps))),
        )
        LOGS.mkdir(parents=True, exist_ok=True)
        procs = Processes(LOGS, env)
        ctx = mp.get_context("spawn")
        pipes, clients_procs = [], []
        try:
            webs = [procs.start_web("web1", "web1"), procs.start_web("web2", "web2")]
            if spectators_on == "edge":
                # The browser of a spectator is sent to the edge's path (nginx routes it there).
                webs = [procs.start_edge("edge", processes=edge_processes) + WATCH]
            else:
                webs = [f"{web}/ws/tables/" for web in webs]
            procs.start_worker("worker1", "worker1", extra=worker_options)
            procs.start_worker("worker2", "worker2", extra=worker_options)
            procs.wait_ready([name for name in ("web1", "web2", "edge") if name in procs.urls], timeout=120)
            _wait_for_workers(["worker1", "worker2"], procs)
            for _ in range(clients):
                here, there = ctx.Pipe()
                proc = ctx.Process(target=client_process, args=(there,), daemon=True)
                proc.start()
                pipes.append(here)
                clients_procs.append(proc)
            games: list[int] = []
            rng = random.Random(21)
            knee_profile: dict[str, Any] = {}
            for target in steps:
                step = _step(target, games, webs, pipes, procs, clients_procs, rng, window, pace, spectators)
                step["load"] = load()
                step["setup"] = f"spectators-on={spectators_on} turns={chains} chains" + (
                    f" worker-options='{worker_options}'" if worker_options else ""
                )
                first = results["steps"][0]["pace_kept"] if results["steps"] else step["pace_kept"]
                step["behind"] = step["pace_kept"] < MIN_PACE * first
                results["steps"].append(step)
                print(f"  {line(step)}", flush=True)
                # Kept at once: whatever happens after (a clean-up that fails), the step's figures stay.
                RESULTS.parent.mkdir(parents=True, exist_ok=True)
                with RESULTS.open("a") as kept:
                    kept.write(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC {line(step)}\n")
                knee_profile = step.pop("profile", {})
                if step["p99"] > limit_ms or step["lost"] > 0 or step["behind"]:
                    step["knee"] = True
                    break
            results["profile"] = knee_profile
        finally:
            for pipe in pipes:
                with contextlib.suppress(OSError):
                    pipe.send(("stop",))
            for proc in clients_procs:
                proc.join(20)
                if proc.is_alive():
                    proc.kill()
            procs.stop()
            import redis

            from games.background.dueturns import keys

            redis.Redis.from_url(os.environ["REDIS_URL"]).delete(
                queue, f"_kombu.binding.{queue}", *keys(queue)
            )
    passed = [s for s in results["steps"] if not s.get("knee")]
    results["capacity"] = max((s["tables"] for s in passed), default=0)
    return results


def _wait_for_workers(names: list[str], procs: Any, timeout: float = 120.0) -> None:
    """The workers answer a ping (at log level warning they do not log " ready.")."""
    from celery import current_app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = current_app.control.ping(timeout=1.0) or []
        if {
            name for reply in replies for node in reply for name in names if node.startswith(f"{name}@")
        } == set(names):
            return
    raise RuntimeError(f"the workers did not answer within {timeout:.0f} s:\n{procs.tails()}")


def _step(
    target: int,
    games: list[int],
    webs: list[str],
    pipes: list[Any],
    procs: Any,
    clients_procs: list[Any],
    rng: random.Random,
    window: float,
    pace: float,
    spectators: int,
) -> dict[str, Any]:
    from games import engines
    from games.background import dueturns
    from games.commands.create import SeatSpec, create_game
    from games.computers import worker
    from games.eventlog import tables

    config = engines.get("kazino").default_config(2)
    seats = [
        SeatSpec("Greedy 1", bot_level="greedy"),
        SeatSpec("Greedy 2", bot_level="greedy"),
    ]
    started = time.perf_counter()
    new = [create_game("kazino", config, seats).pk for _ in range(target - len(games))]
    games.extend(new)
    # The new tables' spectators, spread over the web processes and the client processes.
    wanted: list[list[tuple[str, int]]] = [[] for _ in pipes]
    n = 0
    for game in new:
        for _ in range(spectators):
            base = webs[n % len(webs)].replace("http://", "ws://")
            wanted[n % len(pipes)].append((f"{base}{game}/", game))
            n += 1
    for pipe, some in zip(pipes, wanted, strict=True):
        pipe.send(("add", some))
    for pipe in pipes:
        if not pipe.poll(600):
            raise RuntimeError("the spectators did not connect within 600 s")
        answer = pipe.recv()
        if answer[0] != "ready":
            raise RuntimeError(f"a spectator could not connect: {answer[1]}")
    connect_s = time.perf_counter() - started
    for game in new:  # the first computer turn, somewhere in the next period
        table = tables.load_table(game)
        dueturns.schedule(worker.PLAY_BOT_TURN, (game, table.seq, table.to_act()[0]), rng.uniform(0, pace))
    players = ["worker1", "worker2"]
    time.sleep(SETTLE_PERIODS * pace)
    # The window.
    groups = {
        "web": [p for name in ("web1", "web2") for p in tree(procs.processes[name].pid)],
        "workers": [p for name in players for p in tree(procs.processes[name].pid)],
        "edge": tree(procs.processes["edge"].pid) if "edge" in procs.processes else [],
        "redis (shared)": [pid] if (pid := redis_pid()) else [],
        "bench": [os.getpid()],
    }
    # Of the workers' CPU, what their main processes spent (Celery's: the broker, the ETA timers, the
    # pool's IPC): the rest is the pool processes' (the turns themselves).
    worker_mains = [procs.processes[name].pid for name in players]
    mains0 = sum(cpu(p) for p in worker_mains)
    profiles = []
    worker_children = [
        p for p in tree(procs.processes[players[0]].pid) if p != procs.processes[players[0]].pid
    ]
    # The process that serves the spectators: the edge (its last child when it has several), or Daphne.
    web_pids = tree(procs.processes["edge" if "edge" in procs.processes else "web1"].pid)
    for label, pid in (
        ("worker pool process", worker_children[0] if worker_children else None),
        ("worker main process", procs.processes[players[0]].pid),
        ("edge process" if "edge" in procs.processes else "web process", web_pids[-1]),
    ):
        if pid is not None:
            out = LOGS / f"profile-{label.replace(' ', '-')}-{target}.txt"
            spy = start_profile(pid, window, out)
            if spy is not None:
                profiles.append((label, spy, out))
    postmaster = postmaster_pid()
    before = {name: sum(cpu(p) for p in pids) for name, pids in groups.items()}
    postgres0 = postgres_cpu(postmaster)
    clients_before = [p.pid for p in clients_procs]
    clients_cpu0 = sum(cpu(p) for p in clients_before)
    t0 = time.time()
    time.sleep(window)
    t1 = time.time()
    spent = {name: sum(cpu(p) for p in pids) - before[name] for name, pids in groups.items()}
    spent["postgres (shared)"] = postgres_cpu(postmaster) - postgres0
    spent["spectator clients"] = sum(cpu(p) for p in clients_before) - clients_cpu0
    mains_spent = sum(cpu(p) for p in worker_mains) - mains0
    time.sleep(GRACE)
    # What was stored in the window, and what the spectators received.
    commands = _commands(games, t0, t1)
    arrivals: dict[int, list[dict[int, float]]] = {}
    closed: list[str] = []
    for pipe in pipes:
        pipe.send(("report", t0 - 5))
    for pipe in pipes:
        if not pipe.poll(120):
            raise RuntimeError("a client process did not report")
        _kind, out, gone, _cpu = pipe.recv()
        closed += gone
        for game, seen in out:
            arrivals.setdefault(game, []).append(dict(seen))
    latencies: list[float] = []
    lost = 0
    for game, seq, at in commands:
        for inbox in arrivals.get(game, []):
            got = inbox.get(seq)
            if got is None or got > t1 + GRACE:
                lost += 1
            else:
                latencies.append(1000 * (got - at))
    expected = target * window / pace
    moves = len(commands)
    profile = {}
    for label, spy, out in profiles:
        spy.wait(30)
        profile[label] = summarize(out)
    return {
        "tables": target,
        "spectators": target * spectators,
        "moves": moves,
        "moves_per_s": moves / window,
        "pace_kept": moves / expected if expected else 0.0,
        "deliveries": len(latencies),
        "p50": percentile(latencies, 0.5),
        "p90": percentile(latencies, 0.9),
        "p99": percentile(latencies, 0.99),
        "max": max(latencies, default=float("nan")),
        "lost": lost,
        "closed": len(closed),
        "cpu_s": spent,
        "processes": {name: len(pids) for name, pids in groups.items()},
        "cpu_ms_per_move": {name: 1000 * s / moves for name, s in spent.items()} if moves else {},
        "worker_main_ms_per_move": 1000 * mains_spent / moves if moves else 0.0,
        "connect_s": connect_s,
        "profile": profile,
    }


def _commands(games: list[int], t0: float, t1: float) -> list[tuple[int, int, float]]:
    """(game, last seq, when) of every command of these games stored between t0 and t1."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT game_id, max(seq), extract(epoch from min(created_at)) FROM games_event"
            " WHERE game_id = ANY(%s) AND created_at >= to_timestamp(%s) AND created_at < to_timestamp(%s)"
            " GROUP BY game_id, command_id",
            [games, t0, t1],
        )
        return [(g, s, float(at)) for g, s, at in cursor.fetchall()]


def line(s: dict[str, Any]) -> str:
    cpu_line = " ".join(f"{k}={v:.2f}" for k, v in s["cpu_ms_per_move"].items())
    return (
        f"tables={s['tables']} spectators={s['spectators']} moves/s={s['moves_per_s']:.1f} "
        f"pace_kept={s['pace_kept']:.2f} p50_ms={s['p50']:.1f} p99_ms={s['p99']:.1f} max_ms={s['max']:.1f} "
        f"lost={s['lost']}/{s['deliveries'] + s['lost']} closed={s['closed']} load={s['load'][0]:.1f} "
        f"cpu_ms_per_move: {cpu_line} (workers' main processes: {s.get('worker_main_ms_per_move', 0):.2f})"
        + (f" ({s['setup']})" if s.get("setup") else "")
    )


def main() -> None:
    parser = doc_parser(__doc__)
    parser.add_argument("--tables", type=int, nargs="+", default=STEPS)
    parser.add_argument("--window", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a table's moves")
    parser.add_argument("--spectators", type=int, default=2, help="spectators per table")
    parser.add_argument("--clients", type=int, default=2, help="spectator client processes")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=0,
        help="pool processes per Celery worker (Procfile: 3)",
    )
    parser.add_argument(
        "--spectators-on",
        choices=["edge", "daphne"],
        default="edge",
        help="where spectators watch: the spectator edge (production) or the web processes (before it)",
    )
    parser.add_argument("--edge-processes", type=int, default=1, help="the edge's processes (Procfile: 1)")
    parser.add_argument("--chains", type=int, default=4, help="turn chains (TURN_CHAINS, default 4)")
    parser.add_argument(
        "--worker-options", default="", help="added to the Procfile's worker line (e.g. '--pool threads')"
    )
    args = parser.parse_args()
    results = measure(
        args.tables,
        args.window,
        args.pace,
        args.spectators,
        args.clients,
        concurrency=args.concurrency,
        spectators_on=args.spectators_on,
        worker_options=args.worker_options,
        edge_processes=args.edge_processes,
        chains=args.chains,
    )
    stamp = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:  # each step's line was written as it was measured
        out.write(f"{stamp} capacity {results['capacity']} tables\n")
    if os.environ.get("BENCH_PROFILE"):
        print(json.dumps(results["profile"], indent=1)[:12000])


if __name__ == "__main__":
    main()
