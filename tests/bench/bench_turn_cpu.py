"""CPU per computer move in a worker's pool process: the turn itself, without Celery's consumer.

Run on demand (not collected by pytest):
    eval "$(bin/services)" && python tests/bench/bench_turn_cpu.py [--moves 600] [--tables 50] [--profile]

One process with the production settings (PostgreSQL, channels-redis on REDIS_URL, ``JOBS=celery``,
``SPECTATOR_SOCKET`` set: spectators watch through the edge, so nobody listens on the channel layer)
plays Kazino matches between greedy bots on ``--tables`` tables in turn, each move through
``games.computers.autoplay.play_bot_turn`` as the task runs it (load, choose, append, commit, publish, the
next turn sent to a Celery queue of the run's own, which nothing consumes). Tables are taken in turn, as a
worker sees them. The figure is this process's CPU time per move (``time.process_time``): less
sensitive to the machine's load than the capacity run's, for comparing changes to the turn's path
back to back. ``--profile``: cProfile's top functions. Creates and drops ``<name>_turncpu``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
os.environ["JOBS"] = "celery"
os.environ["BOT_DELAY"] = "3"
os.environ.setdefault("SPECTATOR_SOCKET", "/ws/watch/")

from tests.bench.benchlib import load, scratch_database  # noqa: E402

WARM_UP = 2  # rounds over every table before the clock starts (connections, kept folds, imports)


def measure(moves: int, tables: int, profile: bool = False) -> dict[str, float]:
    if not os.environ.get("REDIS_URL"):
        raise RuntimeError("REDIS_URL is not set: the turn publishes on channels-redis")
    queue = f"bench-turn-{uuid.uuid4().hex[:8]}"
    with scratch_database("turncpu"):
        from django.conf import settings

        from games import engines
        from games.commands.create import SeatSpec, create_game
        from games.computers import autoplay, worker
        from games.eventlog import tables as tables_

        settings.CELERY_TASK_DEFAULT_QUEUE = queue
        turns: dict[int, tuple[int, int, int]] = {}
        send = worker.schedule_bot_turn

        def schedule(game_id: int, seq: int, seat: int) -> None:
            send(game_id, seq, seat)  # to Redis, as in production
            turns[game_id] = (game_id, seq, seat)  # and played here, table after table

        worker.schedule_bot_turn = schedule
        config = engines.get("kazino").default_config(2)
        seats = [
            SeatSpec("Greedy 1", bot_level="greedy"),
            SeatSpec("Greedy 2", bot_level="greedy"),
        ]
        for _ in range(tables):
            game = create_game("kazino", config, seats)
            table = tables_.load_table(game.pk)
            turns[game.pk] = (game.pk, table.seq, table.to_act()[0])

        def play(n: int) -> int:
            played = 0
            while played < n:
                for game_id in list(turns):
                    turn = turns.pop(game_id, None)
                    if turn is not None:
                        played += autoplay.play_bot_turn(*turn) == "played"
                if not turns:
                    raise RuntimeError("every table finished: ask for fewer moves or more tables")
            return played

        play(WARM_UP * tables)
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        played = play(moves)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        if profiler is not None:
            import pstats

            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        import redis

        redis.Redis.from_url(os.environ["REDIS_URL"]).delete(queue, f"_kombu.binding.{queue}")
    return {"moves": played, "cpu_ms": 1000 * cpu / played, "wall_ms": 1000 * wall / played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    load0 = load()
    f = measure(args.moves, args.tables, args.profile)
    print(
        f"moves={f['moves']} tables={args.tables} cpu_ms_per_move={f['cpu_ms']:.3f} "
        f"wall_ms_per_move={f['wall_ms']:.3f} load={load0[0]:.1f}->{load()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
