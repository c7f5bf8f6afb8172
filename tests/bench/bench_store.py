"""Appends/s through the event store against raw psycopg INSERT+COMMIT of the same rows, on PostgreSQL.

Run on demand (not collected by pytest):  DATABASE_URL=postgres://... python tests/bench/bench_store.py
Creates and drops its own database (<name>_store). Writers are processes (like Daphne and Celery
workers), each appending to its own game. Figures are appended to tests/bench/results/store.txt.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")

from tests.bench.benchlib import scratch_database  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "store.txt"


def _setup(db_name: str) -> None:
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = db_name
    from django.db import connections

    connections.close_all()


def _rows(game_id: int, n: int) -> list[tuple]:
    from games.eventlog.store import GENESIS, chain_hash

    rows, previous = [], GENESIS
    for seq in range(1, n + 1):
        data = {"n": seq % 2 + 1}
        h = chain_hash(previous, seq, "added", data, "seat:0", f"c{seq}", 1)
        rows.append((game_id, seq, "added", data, "seat:0", f"c{seq}", h))
        previous = h
    return rows


def raw_writer(db_name: str, game_id: int, n: int, barrier, out) -> None:
    _setup(db_name)
    import json

    import psycopg
    from django.db import connection

    s = connection.settings_dict
    rows = _rows(game_id, n)
    with psycopg.connect(
        host=s["HOST"], port=s["PORT"], user=s["USER"], password=s["PASSWORD"], dbname=db_name
    ) as conn:
        barrier.wait()
        start = time.perf_counter()
        for game, seq, type_, data, actor, command, h in rows:
            conn.execute(
                "INSERT INTO games_event (game_id, seq, type, data, actor, command_id, cmd_index, created_at,"
                " schema_version, hash) VALUES (%s, %s, %s, %s, %s, %s, 0, now(), 1, %s)",
                (game, seq, type_, json.dumps(data), actor, command, h),
            )
            conn.commit()
        out.put(time.perf_counter() - start)


def store_writer(db_name: str, game_id: int, n: int, barrier, out) -> None:
    _setup(db_name)
    from games.eventlog import store

    barrier.wait()
    start = time.perf_counter()
    head_hash = None  # like the service, each append passes the hash of the head it knows
    for seq in range(n):
        done = store.append(
            game_id,
            seq,
            [{"type": "added", "n": seq % 2 + 1}],
            command_id=f"c{seq + 1}",
            actor="seat:0",
            head_hash=head_hash,
        )
        head_hash = done.events[-1].hash
    out.put(time.perf_counter() - start)


def run(kind: str, db_name: str, writers: int, n: int) -> float:
    _setup(db_name)
    from games.models import Game

    games = [
        Game.objects.create(engine="tiny", engine_version=1, config={"players": 2}).pk for _ in range(writers)
    ]
    from django.db import connections

    connections.close_all()
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(writers), ctx.Queue()
    target = raw_writer if kind == "raw" else store_writer
    procs = [ctx.Process(target=target, args=(db_name, g, n, barrier, out)) for g in games]
    for p in procs:
        p.start()
    elapsed = max(out.get() for _ in procs)
    for p in procs:
        p.join()
    return writers * n / elapsed


def measure(
    appends: int = 1500, writers: tuple[int, ...] = (1, 8), repeats: int = 3
) -> list[dict[str, float]]:
    """Raw INSERT+COMMIT and store appends per second, for each number of writers, on a database of
    its own (``<name>_store``, created and dropped): the two measured in turn ``repeats`` times (the
    database's commit latency drifts when other work shares the machine), the median of each."""
    figures = []
    with scratch_database("store") as db:
        for n in writers:
            raws, ours = [], []
            for _ in range(repeats):
                raws.append(run("raw", db, n, appends))
                ours.append(run("store", db, n, appends))
            raw, store = statistics.median(raws), statistics.median(ours)
            figures.append(
                {
                    "writers": n,
                    "appends": appends,
                    "raw": raw,
                    "store": store,
                    "ratio": store / raw,
                    "repeats": repeats,
                }
            )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--appends", type=int, default=1500, help="appends per writer")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each kind (the median is kept)")
    args = parser.parse_args()
    lines = [
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {args.appends} appends per writer, median of "
        f"{args.repeats}, PostgreSQL"
    ]
    for f in measure(args.appends, repeats=args.repeats):
        lines.append(
            f"writers={f['writers']} raw_insert_commit={f['raw']:.0f}/s store_append={f['store']:.0f}/s "
            f"ratio={f['ratio']:.2f}"
        )
        print(lines[-1], flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
