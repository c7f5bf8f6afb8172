"""Skyjo benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_skyjo.py [--seconds 3] [--match 0]

Measures, on this machine:
- random full games per second of the engine alone (default config, 2 and 4 players),
  and the events per second behind them;
- the replay fold in events per second;
- move times of the greedy and strong bots (p50, p95) over a few two-player games against greedy;
- with ``--match N``: win rates of strong against random and greedy over N two-player games
  (seats alternated, target 100), with a 95% Wilson interval.

Rates are per CPU second (``process_time``), which stays comparable when other work
shares the machine, and per wall-clock second. Figures are appended to
``tests/bench/results/skyjo.txt``.
"""

from __future__ import annotations

import platform
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.bots import get as get_bot  # noqa: E402
from games.engines import skyjo as engine  # noqa: E402
from tests.bench import benchlib  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "skyjo.txt"


def engine_rates(seconds: float, tables: tuple[int, ...] = (2, 4)) -> list[dict[str, Any]]:
    """Random full games per second, default options (target 100), for each player count."""
    return [
        {
            **benchlib.games_rate("skyjo", engine.default_config(n), seconds, seed=n),
            "label": f"{n} players, target 100",
        }
        for n in tables
    ]


def replay_logs(games: int = 10, players: int = 4, seed: int = 1) -> list[list[dict[str, Any]]]:
    rng = random.Random(seed)
    return [benchlib.random_game(engine, engine.default_config(players), seed + n, rng) for n in range(games)]


def play(levels: list[str], seed: int, times: dict[str, list[float]] | None = None) -> dict[str, Any]:
    """One two-player game between bot levels (seat 0 plays levels[0]); the outcome."""
    bots = [get_bot("skyjo", level) for level in levels]
    played = benchlib.bot_game(engine, bots, engine.default_config(len(levels)), seed, any_seat=True)
    for level, moved in zip(levels, played.times, strict=True):
        if times is not None:
            times[level] += moved
    return played.outcome


def match(opponent: str, games: int) -> str:
    """Strong against ``opponent``: a shared win counts one half."""
    wins = 0.0
    times: dict[str, list[float]] = {"strong": [], opponent: []}
    for game in range(games):
        levels = ["strong", opponent] if game % 2 == 0 else [opponent, "strong"]
        seat = levels.index("strong")
        result = play(levels, 10_000 + game, times)
        if seat in result["winners"]:
            wins += 1.0 if len(result["winners"]) == 1 else 0.5
    low, high = benchlib.wilson(wins, games)
    return (
        f"strong vs {opponent}: win_rate_a={wins / games:.3f} ci95=[{low:.3f},{high:.3f}] games={games} "
        f"p95_move_ms_a={1000 * benchlib.percentile(times['strong'], 0.95):.0f} "
        f"p95_move_ms_b={1000 * benchlib.percentile(times[opponent], 0.95):.0f}"
    )


def main() -> None:
    args = benchlib.game_bench_parser(
        __doc__, seconds=3.0, moves=200, match_help="games per strong-bot match (0: none)"
    ).parse_args()
    results = benchlib.Results(
        RESULTS,
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.python_version()}, {platform.machine()}",
    )
    lines = results.lines
    for r in engine_rates(args.seconds):
        lines.append(
            f"random games, {r['label']}: {r['cpu_rate']:.1f} games/cpu-s ({r['wall_rate']:.1f}/wall-s), "
            f"{r['cpu_rate'] * r['events_per_game']:,.0f} events/cpu-s, {r['events_per_game']:.0f} events/game"
        )
    fold = benchlib.replay_rate("skyjo", replay_logs(), args.seconds)
    lines.append(f"replay fold: {fold['events_per_cpu_s']:,.0f} events/cpu-s")
    for level in ("greedy", "strong"):
        lines.append(benchlib.move_time_line(benchlib.bot_move_times("skyjo", level, args.moves)))
    if args.match:
        lines.append(match("random", args.match))
        lines.append(match("greedy", args.match))
    print("\n".join(lines))
    results.save()


if __name__ == "__main__":
    main()
