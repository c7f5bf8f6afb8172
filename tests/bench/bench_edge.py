"""Spectators through the spectator edge (infra/edge/) beside today's Daphne path, in the same run.

Run on demand (bin/bench runs it as the ``edge`` section):
    eval "$(bin/services)" && python tests/bench/bench_edge.py [--edge 1000 3000 5000] [--daphne 1000 3000 5000]
        [--moves 40] [--rate 2]

The web processes of bench_fanout.py (two Daphne, channels-redis, a database of their own) run with
``SPECTATOR_SOCKET`` set, so every public update is also published for the edge, and one edge process
(``python -m infra.edge``, 127.0.0.1 only) serves the spectators. For each count a fresh table of the
tiny engine: the players play through Daphne as before (``--moves`` at ``--rate`` a second), the
spectators watch through the edge, then (for the ``--daphne`` counts) through Daphne as today, on the
same processes. Latency and loss are measured as in bench_fanout.py. CPU per delivered message: the CPU
seconds the processes serving the spectators spent while the moves were played and delivered, divided
by the updates delivered (spectators × moves): the edge's alone on its path (the web processes still
handle the moves, which costs the same on both paths and is shown apart), the web processes' on
Daphne's. Bounded: every count connects within 300 s and a lost update is given 30 s. Figures are
appended to tests/bench/results/edge.txt.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import bench_fanout as fanout  # noqa: E402
from tests.bench import benchlib  # noqa: E402
from tests.processes import stop  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "edge.txt"
WATCH = "/ws/watch/"


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


@contextmanager
def edge_process(db_url: str, processes: int = 1) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m infra.edge`` on a free loopback port (``.port``), as the Procfile runs it; with
    ``processes`` > 1, that many processes share the port (``.pids``: every one, for their CPU)."""
    port = fanout.free_port()
    env = {**os.environ, "DATABASE_URL": db_url, "DJANGO_DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1"}
    with open(ROOT / "var" / "bench-edge.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "infra.edge", "--host", "127.0.0.1", "--port", str(port)]
            + ["--processes", str(processes)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        proc.port = port  # type: ignore[attr-defined]
        try:
            deadline = time.monotonic() + 60
            while (ROOT / "var" / "bench-edge.log").read_text().count(" ready.") < processes:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the spectator edge did not start: see var/bench-edge.log")
                time.sleep(0.1)
            proc.pids = [proc.pid, *children(proc.pid)]  # type: ignore[attr-defined]
            yield proc
        finally:
            stop(proc, 15)


def sweep(
    edge_counts: list[int],
    daphne_counts: list[int],
    moves: int = 40,
    rate: float = 2.0,
    clients: int = 2,
    processes: int = 1,
) -> list[dict[str, Any]]:
    """Each count through the edge, and the ``daphne_counts`` through Daphne, on the same processes."""
    if not os.environ.get("REDIS_URL"):
        raise RuntimeError("REDIS_URL is not set: the edge hears the tables through Redis")
    os.environ["SPECTATOR_SOCKET"] = WATCH  # the web processes publish for the edge
    rows = []
    with (
        fanout.fanout_database() as url,
        fanout.web_processes(2, url) as web,
        edge_process(url, processes) as edge,
    ):
        port = edge.port  # type: ignore[attr-defined]

        def watch(game: int) -> list[str]:
            return [f"ws://127.0.0.1:{port}{WATCH}{game}/"]

        for count in sorted(set(edge_counts) | set(daphne_counts)):
            if count in edge_counts:
                pids = edge.pids  # type: ignore[attr-defined]
                run = partial(fanout.measure, web, count, moves, rate, clients, watch=watch, others=pids)
                path = "edge" if processes == 1 else f"edge ×{processes}"
                rows.append(_one(path, count, moves, rate, run))
            if count in daphne_counts:
                rows.append(
                    _one(
                        "daphne",
                        count,
                        moves,
                        rate,
                        partial(fanout.measure, web, count, moves, rate, clients),
                    )
                )
    return rows


def _one(path: str, count: int, moves: int, rate: float, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """One measurement; one that could not be made (spectators refused, a client that did not report)
    is a row that says why, so the other paths and counts are still measured."""
    try:
        f = run()
    except RuntimeError as exc:
        nan = float("nan")
        row = {"path": path, "spectators": count, "moves": moves, "rate": rate, "messages": count * moves}
        row |= {
            key: nan
            for key in (
                "p50",
                "p90",
                "p99",
                "max",
                "us_per_message",
                "fanout_cpu",
                "server_cpu",
                "client_cpu",
                "wall",
            )
        }
        row |= {"lost": None, "closed": 0, "error": str(exc)[:300]}
        print(f"path={path} spectators={count}: failed: {exc}", flush=True)
        return row
    row = _per_message({**f, "path": path}, f["server_cpu"] if path == "daphne" else f["other_cpu"])
    print(line(row), flush=True)
    return row


def _per_message(f: dict[str, Any], spent: float) -> dict[str, Any]:
    delivered = f["messages"] - f["lost"]
    return {
        **f,
        "fanout_cpu": spent,
        "us_per_message": 1e6 * spent / delivered if delivered else float("nan"),
    }


def line(f: dict[str, Any]) -> str:
    return (
        f"path={f['path']} spectators={f['spectators']} moves={f['moves']} rate={f['rate']}/s "
        f"p50_ms={f['p50']:.1f} p99_ms={f['p99']:.1f} max_ms={f['max']:.1f} lost={f['lost']}/{f['messages']} "
        f"closed={f['closed']} cpu_us_per_message={f['us_per_message']:.1f} "
        f"cpu_s fanout={f['fanout_cpu']:.1f} web={f['server_cpu']:.1f} clients={f['client_cpu']:.1f} "
        f"over {f['wall']:.1f} s"
    )


def main() -> None:
    parser = benchlib.doc_parser(__doc__)
    parser.add_argument("--edge", type=int, nargs="+", default=[1000, 3000, 5000])
    parser.add_argument("--daphne", type=int, nargs="*", default=[1000, 3000, 5000])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rate", type=float, default=2.0, help="moves per second")
    parser.add_argument("--clients", type=int, default=2, help="spectator client processes")
    parser.add_argument("--processes", type=int, default=1, help="edge processes sharing its port")
    args = parser.parse_args()
    rows = sweep(args.edge, args.daphne, args.moves, args.rate, args.clients, args.processes)
    load = os.getloadavg()[0]
    lines = [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC load={load:.1f} "
        + (
            line(f)
            if "error" not in f
            else f"path={f['path']} spectators={f['spectators']} failed: {f['error']}"
        )
        for f in rows
    ]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
