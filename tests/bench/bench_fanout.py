"""Move-to-spectator latency and loss through Daphne and channels-redis, on this machine.

Run on demand:
    eval "$(bin/services)" && python tests/bench/bench_fanout.py [--spectators 100 1000] [--moves 100]
        [--rate 10] [--web 2] [--clients 2]

Starts ``--web`` Daphne processes the way infra/deploy/Procfile does (``daphne -v 0 --proxy-headers``,
the channels-redis layer of REDIS_URL) on a database of its own: ``<name>_fanout``, created and dropped,
when DATABASE_URL is PostgreSQL, else a SQLite file under var/. For each spectator count, a fresh table
of the tiny engine with two human seats: the spectators connect, spread evenly over the web processes
and over ``--clients`` client processes (one asyncio loop each, the ``websockets`` library), then the
two players (one on each web process) play ``--moves`` moves at ``--rate`` a second, each waiting for
its ``ack``.

Latency runs from the moment a player sends a move (``time.time()`` in this process) to the moment
each spectator's socket hands the update to its client (``time.time()`` in that client's process: the
same wall clock, one machine): every (spectator, move) pair counts. An update that has not arrived 30 s
after the last move is lost (late ones are measured as late). The CPU seconds the web processes, the
clients and this process spent while the moves were played are reported beside the figures, since
on a small machine the clients compete with the server. Figures are appended to
tests/bench/results/fanout.txt.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import multiprocessing as mp
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import benchlib  # noqa: E402
from tests.bench.benchlib import database_url, django_setup, far_game_ids, percentile, scratch_database  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "fanout.txt"
TINY = "tiny=tests.games.tiny_engine"
LOST_AFTER = 30.0  # seconds after the last move


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def origin_of(url: str) -> str:
    """Browsers send an Origin; the socket checks it against ALLOWED_HOSTS, so a script sends one too."""
    return "http://" + url.split("//", 1)[1].split("/", 1)[0]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc); NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


# --- the server side ------------------------------------------------------------------------------


@contextmanager
def fanout_database() -> Iterator[str]:
    """A database for the web processes, migrated, with this process's Django connected to it: its URL."""
    os.environ.setdefault("EXTRA_ENGINES", TINY)
    if TINY not in os.environ["EXTRA_ENGINES"]:
        os.environ["EXTRA_ENGINES"] += "," + TINY
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        with scratch_database("fanout") as name:
            yield database_url(name)
        return
    db = ROOT / "var" / "bench-fanout.sqlite3"
    db.parent.mkdir(exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    django_setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    far_game_ids()
    yield os.environ["DATABASE_URL"]


def new_table() -> tuple[int, list[str]]:
    """A table of the tiny engine with two human seats: its id and the seat tokens."""
    from games import engines
    from games.commands.create import SeatSpec, create_game

    engines.register("tiny", "tests.games.tiny_engine")  # the web processes have it from EXTRA_ENGINES
    seats = [SeatSpec("A"), SeatSpec("B")]
    game = create_game("tiny", {"players": 2, "goal": 1000}, seats)
    return game.pk, [s.token for s in game.seats.order_by("number")]


@contextmanager
def web_processes(count: int, db_url: str) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` Daphne processes as in infra/deploy/Procfile, each on a port of its own (``.port``)."""
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "JOBS": "off",
        "DJANGO_DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    procs: list[subprocess.Popen[bytes]] = []
    logs = []
    try:
        for n in range(count):
            port = free_port()
            log = open(ROOT / "var" / f"bench-fanout-web{n + 1}.log", "w")  # noqa: SIM115
            logs.append(log)
            proc = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-v", "0", "--proxy-headers", "-b", "127.0.0.1"]
                + ["-p", str(port), "infra.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            proc.port = port  # type: ignore[attr-defined]
            procs.append(proc)
        for proc in procs:
            for _ in range(150):
                try:
                    socket.create_connection(("127.0.0.1", proc.port), 0.5).close()  # type: ignore[attr-defined]
                    break
                except OSError:
                    if proc.poll() is not None:
                        raise RuntimeError("a Daphne process exited: see var/bench-fanout-web*.log") from None
                    time.sleep(0.2)
        yield procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()


# --- the spectators (client processes) ------------------------------------------------------------


def client_process(urls: list[str], first: int, count: int, conn: Any) -> None:
    """Spectators ``first`` .. ``first + count - 1`` (spectator i watches through ``urls[i % len]``).

    On uvloop when it is installed (the ``bench`` extra): the clients share the machine with the
    server, and every CPU second they save is one the server can use."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(_client(urls, first, count, conn))
    else:
        uvloop.run(_client(urls, first, count, conn))


async def _client(urls: list[str], first: int, count: int, conn: Any) -> None:
    import websockets

    inboxes: list[dict[int, float]] = [{} for _ in range(count)]
    closed: list[object] = []
    gate = asyncio.Semaphore(50)  # handshakes in flight: a burst of 1,000 overflows the listen backlog

    async def watch(index: int, connected: asyncio.Future[None]) -> None:
        url = urls[(first + index) % len(urls)]
        inbox = inboxes[index]
        try:
            async with gate:
                ws = await websockets.connect(url, origin=origin_of(url), max_size=2**22, open_timeout=120)
                hello = await ws.recv()
                if json.loads(hello).get("type") != "state":
                    raise RuntimeError(f"the socket's first message was not the state: {hello[:200]}")
            connected.set_result(None)
            async for raw in ws:
                now = time.time()
                if raw[:20].replace(" ", "").startswith('{"type":"update"'):  # no need to parse the rest
                    inbox.setdefault(json.loads(raw)["seq"], now)
            closed.append(ws.close_code)  # the server closed it: what it missed counts as lost
        except Exception as exc:  # noqa: BLE001 - reported: a spectator that cannot connect fails the run
            if not connected.done():
                connected.set_exception(exc)
            else:
                closed.append(repr(exc))

    loop = asyncio.get_running_loop()
    connected = [loop.create_future() for _ in range(count)]
    tasks = [asyncio.create_task(watch(i, fut)) for i, fut in enumerate(connected)]
    try:
        await asyncio.gather(*connected)
    except Exception as exc:  # noqa: BLE001
        conn.send(("failed", repr(exc)))
        return
    conn.send(("ready", count))
    cpu0 = time.process_time()
    sent: dict[int, float] = await asyncio.to_thread(conn.recv)
    deadline = time.time() + LOST_AFTER
    while time.time() < deadline and any(len(inbox) < len(sent) for inbox in inboxes):
        await asyncio.sleep(0.05)
    cpu = time.process_time() - cpu0
    latencies = [1000 * (inbox[s] - t) for inbox in inboxes for s, t in sent.items() if s in inbox]
    conn.send(("done", latencies, count * len(sent) - len(latencies), cpu, closed))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# --- the players and one measurement --------------------------------------------------------------


async def one_move(ws: Any, seq: int, command_id: str) -> int:
    """A tiny-engine move on a player's socket, waited for until its ack: the new seq."""
    action = {"type": "add", "n": 1}
    await ws.send(
        json.dumps({"type": "action", "action": action, "command_id": command_id, "expected_seq": seq})
    )
    while True:
        reply = json.loads(await ws.recv())
        if reply["type"] == "ack":
            return int(reply["seq"])
        if reply["type"] == "error":
            raise RuntimeError(reply)


async def play(urls: list[str], tokens: list[str], moves: int, rate: float) -> dict[int, float]:
    """Play ``moves`` moves, alternating seats, ``rate`` a second; {seq of each move: time it was sent}."""
    import websockets

    players = []
    for n, token in enumerate(tokens):
        url = urls[n % len(urls)]
        players.append(
            await websockets.connect(url, origin=origin_of(url), additional_headers={"X-Seat-Token": token})
        )
    seq = json.loads(await players[0].recv())["seq"]
    await players[1].recv()
    sent: dict[int, float] = {}
    for move in range(moves):
        ws = players[move % 2]
        started = time.perf_counter()
        at = time.time()
        seq = await one_move(ws, seq, f"m{move}")
        sent[seq] = at
        await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - started)))
    for ws in players:
        await ws.close()
    return sent


def measure(
    web: list[subprocess.Popen[bytes]],
    spectators: int,
    moves: int = 100,
    rate: float = 10.0,
    clients: int = 2,
    table: Callable[[], tuple[int, list[str]]] = new_table,
    watch: Callable[[int], list[str]] | None = None,
    others: list[int] | None = None,
) -> dict[str, Any]:
    """One table, ``spectators`` watching it, ``moves`` moves: latency percentiles (ms) and losses.

    ``watch``: the spectators' socket URLs for a game (the spectator edge's, tests/bench/bench_edge.py;
    by default the web processes'); ``others``: more server processes whose CPU is counted apart."""
    game, tokens = table()
    urls = [f"ws://127.0.0.1:{proc.port}/ws/tables/{game}/" for proc in web]  # type: ignore[attr-defined]
    spectator_urls = watch(game) if watch is not None else urls
    others = others or []
    clients = max(1, min(clients, spectators))
    shares = [spectators // clients + (1 if i < spectators % clients else 0) for i in range(clients)]
    ctx = mp.get_context("spawn")
    pipes, procs = [], []
    first = 0
    for share in shares:
        here, there = ctx.Pipe()
        proc = ctx.Process(target=client_process, args=(spectator_urls, first, share, there), daemon=True)
        proc.start()
        pipes.append(here)
        procs.append(proc)
        first += share
    try:
        for pipe in pipes:
            if not pipe.poll(300):
                raise RuntimeError("the spectators did not connect within 300 s")
            answer = pipe.recv()
            if answer[0] != "ready":
                raise RuntimeError(f"a spectator could not connect: {answer[1]}")
        server_cpu0 = sum(cpu_seconds(p.pid) for p in web)
        other_cpu0 = sum(cpu_seconds(pid) for pid in others)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        sent = asyncio.run(play(urls, tokens, moves, rate))
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        for pipe in pipes:
            pipe.send(sent)
        latencies: list[float] = []
        lost = 0
        closed: list[object] = []
        client_cpu = 0.0
        for pipe in pipes:
            if not pipe.poll(LOST_AFTER + 120):
                raise RuntimeError("a client process did not report")
            _done, got, missing, spent, gone = pipe.recv()
            latencies += got
            lost += missing
            client_cpu += spent
            closed += gone
        server_cpu = sum(cpu_seconds(p.pid) for p in web) - server_cpu0
        other_cpu = sum(cpu_seconds(pid) for pid in others) - other_cpu0
    finally:
        for proc in procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
    return {
        "spectators": spectators,
        "moves": len(sent),
        "rate": rate,
        "web": len(web),
        "clients": clients,
        "uvloop": importlib.util.find_spec("uvloop") is not None,
        "p50": percentile(latencies, 0.5),
        "p90": percentile(latencies, 0.9),
        "p99": percentile(latencies, 0.99),
        "max": max(latencies, default=float("nan")),
        "lost": lost,
        "messages": spectators * len(sent),
        "closed": len(closed),
        "wall": wall,
        "server_cpu": server_cpu,
        "other_cpu": other_cpu,
        "client_cpu": client_cpu,
        "player_cpu": cpu,
    }


def sweep(
    counts: list[int], moves: int = 100, rate: float = 10.0, web: int = 2, clients: int = 2
) -> list[dict[str, Any]]:
    """``measure`` for each spectator count, on one set of web processes (a fresh table each time)."""
    with fanout_database() as url, web_processes(web, url) as procs:
        return [measure(procs, n, moves, rate, clients) for n in counts]


def line(f: dict[str, Any]) -> str:
    return (
        f"spectators={f['spectators']} moves={f['moves']} rate={f['rate']}/s web={f['web']} "
        f"clients={f['clients']} p50_ms={f['p50']:.1f} p99_ms={f['p99']:.1f} max_ms={f['max']:.1f} "
        f"lost={f['lost']}/{f['messages']} closed={f['closed']} cpu_s web={f['server_cpu']:.1f} clients={f['client_cpu']:.1f} "
        f"over {f['wall']:.1f} s"
    )


def main() -> None:
    parser = benchlib.doc_parser(__doc__)
    parser.add_argument("--spectators", type=int, nargs="+", default=[100])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0, help="moves per second")
    parser.add_argument("--web", type=int, default=2, help="Daphne processes (the Procfile runs 2)")
    parser.add_argument("--clients", type=int, default=2, help="spectator client processes")
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        sys.exit("set REDIS_URL (bin/services prints one): this measures channels-redis")
    figures = sweep(args.spectators, args.moves, args.rate, args.web, args.clients)
    load = os.getloadavg()[0]
    lines = [f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC load={load:.1f} {line(f)}" for f in figures]
    print("\n".join(lines))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
