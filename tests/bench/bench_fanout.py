"""Move-to-spectator latency and loss through Daphne and channels-redis, on this machine.

Run on demand:  eval "$(bin/services)" && python tests/bench/bench_fanout.py [--spectators 100] [--moves 100] [--rate 10]
Starts Daphne (REDIS_URL layer, its own SQLite file under var/), seats two players by their tokens,
connects N spectators, plays the moves at the given rate and reports p50/p99 latency from the
moment a player sends a move to the moment each spectator receives it, and how many messages were
lost. Figures are appended to tests/bench/results/fanout.txt.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "tests" / "bench" / "results" / "fanout.txt"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def origin_of(url: str) -> str:
    """Browsers send an Origin; the socket checks it against ALLOWED_HOSTS, so a script sends one too."""
    return "http://" + url.split("//", 1)[1].split("/", 1)[0]


def prepare(db: Path) -> tuple[int, list[str]]:
    """A fresh database with one table of the tiny engine (two human seats); its id and seat tokens."""
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ["EXTRA_ENGINES"] = "tiny=tests.games.tiny_engine"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games import service

    seats = [service.SeatSpec("A"), service.SeatSpec("B")]
    game = service.create_game("tiny", {"players": 2, "goal": 1000}, seats)
    return game.pk, [s.token for s in game.seats.order_by("number")]


async def spectator(
    url: str, received: dict[int, float], ready: asyncio.Event, count: list[int], total: int
) -> None:
    import websockets

    async with websockets.connect(url, max_size=2**22, origin=origin_of(url)) as ws:
        await ws.recv()  # the state
        count[0] += 1
        if count[0] == total:
            ready.set()
        async for raw in ws:
            message = json.loads(raw)
            if message.get("type") == "update":
                received.setdefault(message["seq"], time.perf_counter())


async def run(
    base: str, game: int, tokens: list[str], spectators: int, moves: int, rate: float
) -> dict[str, float]:
    import websockets

    url = f"{base}/ws/tables/{game}/"
    ready, count = asyncio.Event(), [0]
    inboxes: list[dict[int, float]] = [{} for _ in range(spectators)]
    tasks = [asyncio.create_task(spectator(url, inbox, ready, count, spectators)) for inbox in inboxes]
    await asyncio.wait_for(ready.wait(), 60)
    players = [await websockets.connect(f"{url}?token={t}", origin=origin_of(url)) for t in tokens]
    seq = json.loads(await players[0].recv())["seq"]
    await players[1].recv()
    sent: dict[int, float] = {}
    for move in range(moves):
        ws = players[move % 2]
        started = time.perf_counter()
        await ws.send(
            json.dumps(
                {
                    "type": "action",
                    "action": {"type": "add", "n": 1},
                    "command_id": f"m{move}",
                    "expected_seq": seq,
                }
            )
        )
        while True:
            reply = json.loads(await ws.recv())
            if reply["type"] == "ack":
                break
            if reply["type"] == "error":
                raise RuntimeError(reply)
        seq = reply["seq"]
        sent[seq] = started
        await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - started)))
    deadline = time.perf_counter() + 30  # late is measured as late; only what never comes is lost
    while time.perf_counter() < deadline and any(len(inbox) < len(sent) for inbox in inboxes):
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    for ws in players:
        await ws.close()
    latencies = sorted((inbox[s] - t) * 1000 for inbox in inboxes for s, t in sent.items() if s in inbox)
    lost = spectators * len(sent) - len(latencies)

    def pick(q):
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")  # noqa: E731

    return {"p50": pick(0.5), "p99": pick(0.99), "lost": lost, "messages": spectators * len(sent)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0, help="moves per second")
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        sys.exit("set REDIS_URL (bin/services prints one): this measures channels-redis")
    db = ROOT / "var" / "bench-fanout.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    game, tokens = prepare(db)
    port = free_port()
    env = {**os.environ, "AI_WORKER": "off", "DJANGO_DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1"}
    log = open(ROOT / "var" / "bench-fanout-daphne.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "infra.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        figures = asyncio.run(
            run(f"ws://127.0.0.1:{port}", game, tokens, args.spectators, args.moves, args.rate)
        )
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    line = (
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC spectators={args.spectators} moves={args.moves} rate={args.rate}/s "
        f"p50_ms={figures['p50']:.1f} p99_ms={figures['p99']:.1f} lost={figures['lost']}/{figures['messages']}"
    )
    print(line)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as f:
        f.write(line + "\n")


if __name__ == "__main__":
    main()
