"""Moves/s through the whole command path (bot choice, submit, publish), with and without kept folds.

Run on demand (not collected by pytest):  python tests/bench/bench_service.py [--matches N]
Uses a throwaway SQLite file under var/ (or DATABASE_URL's database, with --keep-db to reuse it).
Plays default Kazino matches (to 160) between greedy bots through games.commands.moves, once with each
process keeping the last fold of each game (the default) and once folding the whole log at every
load (the baseline). With ``--rebuild TARGET``, also the time to rebuild one long game (a Kazino match
to TARGET played at random through moves.submit): ``engine.replay`` alone, ``store.load``, and
``tables.load_table`` with a cold and a warm fold cache. Figures are appended to
tests/bench/results/service.txt.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")

from tests.bench import benchlib  # noqa: E402

os.environ["JOBS"] = "off"
RESULTS = ROOT / "tests" / "bench" / "results" / "service.txt"


def play(matches: int) -> tuple[int, float, float]:
    from games import engines
    from games.commands.create import SeatSpec, create_game
    from games.computers import autoplay
    from games.eventlog import tables

    config = engines.get("kazino").default_config(2)
    seats = [SeatSpec(f"Greedy {n}", bot_level="greedy") for n in (1, 2)]
    moves, wall, cpu = 0, time.perf_counter(), time.process_time()
    for n in range(matches):
        game = create_game("kazino", config, seats, seed=1000 + n)
        while True:
            table = tables.load_table(game.pk)
            if table.outcome() is not None:
                break
            autoplay.play_bot_turn(game.pk, table.seq, table.to_act()[0])
            moves += 1
    return moves, time.perf_counter() - wall, time.process_time() - cpu


def long_game(target: int = 500, seed: int = 7) -> int:
    """A Kazino match to ``target`` points between two players who move at random, every move through
    ``submit`` (as a socket or the API would): a game of thousands of events. Its id."""
    from games import engines
    from games.commands.create import SeatSpec, create_game
    from games.commands.moves import submit
    from games.eventlog import tables
    from games.live import publish

    config = engines.compose("kazino", {"target": target}, 2)
    # Nobody watches this table: the log is what is measured, not publishing it.
    with mock.patch.object(publish, "table_changed", lambda table: None):
        seats = [SeatSpec("R1"), SeatSpec("R2")]
        game = create_game("kazino", config, seats, seed=seed)
        rng = random.Random(seed)
        move = 0
        while (table := tables.load_table(game.pk)).outcome() is None:
            seat = table.to_act()[0]
            action = rng.choice(table.engine.legal_actions(table.state, seat))
            submit(game.pk, seat, action, f"m{move}", table.seq)
            move += 1
    return game.pk


def rebuild(game_id: int, repeats: int = 5) -> dict[str, float]:
    """Seconds (median of ``repeats``) to rebuild a game: ``engine.replay`` of its engine events alone,
    reading its log from the store, and ``tables.load_table`` with no kept fold (a cold process), and
    with its last fold kept (the usual case)."""
    from games import engines
    from games.eventlog import store, tables, timeline

    events = store.load(game_id)
    engine = engines.get(tables.get_game(game_id).engine)
    rows = [timeline.Row(e.seq, e.type, e.data, e.actor, e.command_id) for e in events]
    engine_events = timeline.fold(rows).engine_events()

    def cold_load() -> object:
        tables.forget_all()  # forget this process's kept fold: as after a restart
        return tables.load_table(game_id)

    cold = benchlib.median_time(cold_load, repeats)
    tables.load_table(game_id)
    return {
        "events": len(events),
        "engine_events": len(engine_events),
        "replay_s": benchlib.median_time(lambda: engine.replay(engine_events), repeats),
        "store_load_s": benchlib.median_time(lambda: store.load(game_id), repeats),
        "cold_s": cold,
        "warm_s": benchlib.median_time(lambda: tables.load_table(game_id), repeats),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument(
        "--rebuild", type=int, default=0, metavar="TARGET", help="also time rebuilding a match to TARGET"
    )
    args = parser.parse_args()
    benchlib.migrated_django("bench-service")
    from games.eventlog import tables

    kept = tables.FOLDS_KEPT
    tables.FOLDS_KEPT = 0  # the baseline: every load folds the whole log
    base = play(args.matches)
    tables.FOLDS_KEPT = kept
    fast = play(args.matches)
    lines = [
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f},"
        f" {args.matches} Kazino matches to 160, greedy bots, {os.environ['DATABASE_URL'].split(':')[0]}",
        f"whole-log fold (baseline): {base[0]} moves, {base[0] / base[2]:.0f} moves/cpu-s, {base[0] / base[1]:.0f}/wall-s",
        f"kept folds:                {fast[0]} moves, {fast[0] / fast[2]:.0f} moves/cpu-s, {fast[0] / fast[1]:.0f}/wall-s",
        f"ratio (cpu): {base[2] / base[0] / (fast[2] / fast[0]):.2f}x faster per move",
    ]
    if args.rebuild:
        r = rebuild(long_game(args.rebuild))
        lines.append(
            f"rebuild a Kazino match to {args.rebuild} ({r['events']} events): engine.replay "
            f"{1000 * r['replay_s']:.0f} ms, store.load {1000 * r['store_load_s']:.0f} ms, load_table cold "
            f"{1000 * r['cold_s']:.0f} ms, kept fold {1000 * r['warm_s']:.1f} ms"
        )
    with RESULTS.open("a") as out:
        out.write("\n".join(lines) + "\n\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
