"""Kazino benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_kazino.py [--seconds 3] [--match 0]

Measures, on this machine:
- random full games per second of the engine alone (one 52-card game, ``"single"`` mode) and
  random default matches (first to 160) per second, through the public contract;
- the replay fold in events per second;
- move times of the greedy and strong bots (p50, p95, max);
- with ``--match N``: win rates of strong against random and greedy over N single games
  (seats alternated; a draw counts half), with a 95% Wilson interval.

Rates are per CPU second (``process_time``, comparable when other work shares the machine) and
per wall-clock second. Figures are appended to ``tests/bench/results/kazino.txt``.
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
from games.engines import kazino as engine  # noqa: E402
from tests.bench import benchlib  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "kazino.txt"
SINGLE = {"players": 2, "match": "single"}


def engine_rates(seconds: float) -> list[dict[str, Any]]:
    """Random single games (one 52-card deal) and default matches (first to 160) per second."""
    return [
        {**benchlib.games_rate("kazino", SINGLE, seconds), "label": "single game"},
        {**benchlib.games_rate("kazino", engine.default_config(2), seconds), "label": "match to 160"},
    ]


def replay_logs(matches: int = 3, seed: int = 3) -> list[list[dict[str, Any]]]:
    """Whole random default matches (to 160), as event logs."""
    rng = random.Random(seed)
    return [benchlib.random_game(engine, engine.default_config(2), seed + n, rng) for n in range(matches)]


def single_game(levels: dict[int, str], seed: int) -> tuple[float, dict[int, list[float]]]:
    """One single game between bots: seat 0's points (1 win, 0.5 draw) and each seat's move times."""
    played = benchlib.bot_game(engine, [get_bot("kazino", levels[seat]) for seat in (0, 1)], SINGLE, seed)
    winners = played.outcome["winners"]
    return (0.5 if len(winners) == 2 else 1.0 if winners == [0] else 0.0), dict(enumerate(played.times))


def main() -> None:
    parser = benchlib.game_bench_parser(
        __doc__, seconds=3.0, moves=100, match_help="strong vs random/greedy games to play (0: skip)"
    )
    args = parser.parse_args()
    results = benchlib.Results(
        RESULTS,
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  python {platform.python_version()}  {platform.node()}",
    )
    report = results.say

    single, matches = engine_rates(args.seconds)
    report(
        f"random single games/s: {single['cpu_rate']:.1f} per CPU s, {single['wall_rate']:.1f} per wall s "
        f"({single['games']} games)"
    )
    report(
        f"random default matches (target 160)/s: {matches['cpu_rate']:.2f} per CPU s, "
        f"{matches['wall_rate']:.2f} per wall s ({matches['games']} matches)"
    )
    fold = benchlib.replay_rate("kazino", replay_logs(), args.seconds)
    report(
        f"replay fold: {fold['events_per_cpu_s']:,.0f} events per CPU s "
        f"({fold['mean_log']:.0f} events a match, {fold['replays']} replays)"
    )
    for level in ("greedy", "strong"):
        report(
            benchlib.move_time_line(
                benchlib.bot_move_times("kazino", level, args.moves, config=SINGLE, opponent="random")
            )
        )

    for opponent in ("random", "greedy") if args.match else ():
        points = 0.0
        strong_times: list[float] = []
        for i in range(args.match):
            strong = i % 2
            seat0, moved = single_game({strong: "strong", 1 - strong: opponent}, 5000 + i)
            points += seat0 if strong == 0 else 1.0 - seat0
            strong_times.extend(moved[strong])
        low, high = benchlib.wilson(points, args.match)
        report(
            f"strong vs {opponent}: win_rate={points / args.match:.3f} ci95=[{low:.3f},{high:.3f}]"
            f" games={args.match} p95_move_ms_strong={1000 * benchlib.percentile(strong_times, 0.95):.0f}"
        )

    results.save()


if __name__ == "__main__":
    main()
