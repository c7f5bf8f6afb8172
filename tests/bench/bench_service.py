"""Moves/s through the whole command path (bot choice, submit, publish), with and without kept folds.

Run on demand (not collected by pytest):  python tests/bench/bench_service.py [--matches N]
Uses a throwaway SQLite file under var/ (or DATABASE_URL's database, with --keep-db to reuse it).
Plays default Kazino matches (to 160) between greedy bots through games.service, once with each
process keeping the last fold of each game (the default) and once folding the whole log at every
load (the baseline). Figures are appended to tests/bench/results/service.txt.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
os.environ["AI_WORKER"] = "off"
RESULTS = ROOT / "tests" / "bench" / "results" / "service.txt"


def play(matches: int) -> tuple[int, float, float]:
    from games import autoplay, engines, service

    config = engines.get("kazino").default_config(2)
    seats = [service.SeatSpec(f"Greedy {n}", bot_level="greedy") for n in (1, 2)]
    moves, wall, cpu = 0, time.perf_counter(), time.process_time()
    for n in range(matches):
        game = service.create_game("kazino", config, seats, seed=1000 + n)
        while True:
            table = service.load_table(game.pk)
            if table.outcome() is not None:
                break
            autoplay.play_bot_turn(game.pk, table.seq, table.to_act()[0])
            moves += 1
    return moves, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=4)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        db = ROOT / "var" / "bench-service.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    import django

    django.setup()
    from django.core.management import call_command

    from games import service

    call_command("migrate", verbosity=0)
    kept = service.FOLDS_KEPT
    service.FOLDS_KEPT = 0  # the baseline: every load folds the whole log
    base = play(args.matches)
    service.FOLDS_KEPT = kept
    fast = play(args.matches)
    lines = [
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f},"
        f" {args.matches} Kazino matches to 160, greedy bots, {os.environ['DATABASE_URL'].split(':')[0]}",
        f"whole-log fold (baseline): {base[0]} moves, {base[0] / base[2]:.0f} moves/cpu-s, {base[0] / base[1]:.0f}/wall-s",
        f"kept folds:                {fast[0]} moves, {fast[0] / fast[2]:.0f} moves/cpu-s, {fast[0] / fast[1]:.0f}/wall-s",
        f"ratio (cpu): {base[2] / base[0] / (fast[2] / fast[0]):.2f}x faster per move",
    ]
    with RESULTS.open("a") as out:
        out.write("\n".join(lines) + "\n\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
