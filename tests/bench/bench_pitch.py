"""Pitch benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_pitch.py [--seconds 2] [--match 0] [--players 2]

Measures, on this machine:
- random full games per second of the engine alone, through the public contract, for each
  player count (default options with a hand limit of 100 hands, as random bids may never end a game;
  and the short-hand-limit tables of ``sample_configs``);
- the replay fold in events per second;
- move times of the greedy and strong bots (p50, p95, max) at four-player tables against greedy;
- with ``--match N``: win rates of strong against random and greedy over N games (seats
  alternated, a shared win counts as a share), with a 95% Wilson interval.

Rates are per CPU second (``process_time``, comparable when other work shares the machine) and
per wall-clock second. Figures are appended to ``tests/bench/results/pitch.txt``.
"""

from __future__ import annotations

import os
import platform
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.bots import get as get_bot  # noqa: E402
from games.engines import compose  # noqa: E402
from games.engines import pitch as engine  # noqa: E402
from tests.bench import benchlib  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "pitch.txt"
# Random moves need never end a Pitch game: it ends only when a pitcher makes the target, and random
# bids mostly fail and push every score down (2 players: still under -100 after 200 hands). So the
# random games here stop at a hand limit, as an organiser may set one (the engine's default was 100
# until issue #23 took it off): without it a benchmark runs forever.
RANDOM_HANDS = 100


def random_config(players: int) -> dict[str, Any]:
    """The default options for ``players``, with a hand limit (``RANDOM_HANDS``) for random play."""
    return compose(engine, {"max_hands": RANDOM_HANDS}, players)


def label(config: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items())


def engine_rates(seconds: float, configs: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Random full games per second for each configuration (default: 2 to 7 players with default
    options and a hand limit, ``random_config``, then the engine's ``sample_configs``)."""
    if configs is None:
        configs = [random_config(n) for n in range(2, 8)] + engine.sample_configs()
    return [{**benchlib.games_rate("pitch", c, seconds), "label": label(c)} for c in configs]


def replay_logs(games: int = 5, players: int = 4, seed: int = 1) -> list[list[dict[str, Any]]]:
    rng = random.Random(seed)
    return [benchlib.random_game(engine, random_config(players), n, rng) for n in range(games)]


def play(
    levels: list[str], config: dict[str, Any], seed: int, times: dict[str, list[float]]
) -> dict[str, Any]:
    played = benchlib.bot_game(engine, [get_bot("pitch", level) for level in levels], config, seed)
    for level, moved in zip(levels, played.times, strict=True):
        times.setdefault(level, []).extend(moved)
    return played.outcome


def match(a: str, b: str, games: int, players: int) -> str:
    times: dict[str, list[float]] = {}
    share = 0.0
    for game in range(games):
        levels = ([a, b] * players)[game % 2 : game % 2 + players]
        result = play(levels, engine.default_config(players), 10_000 + game, times)
        share += sum(1 for s in result["winners"] if levels[s] == a) / len(result["winners"])
    p = share / games
    low, high = benchlib.wilson(share, games)
    ms = {level: 1000 * benchlib.percentile(times.get(level, []), 0.95) for level in (a, b)}
    return (
        f"match {a} vs {b} ({players} players): win_rate_a={p:.3f} ci95=[{low:.3f},{high:.3f}] games={games} "
        f"p95_move_ms_a={ms[a]:.0f} p95_move_ms_b={ms[b]:.0f}"
    )


def main() -> None:
    parser = benchlib.game_bench_parser(
        __doc__, seconds=2.0, moves=200, match_help="games per strong-vs-X match (0: none)"
    )
    parser.add_argument("--players", type=int, default=2, help="players in the matches")
    args = parser.parse_args()
    results = benchlib.Results(
        RESULTS,
        f"# {datetime.now(UTC).isoformat(timespec='seconds')} python {platform.python_version()} "
        f"cpus={os.cpu_count()} load={os.getloadavg()[0]:.1f}",
    )
    say = results.say

    for r in engine_rates(args.seconds):
        say(
            f"random games/s [{r['label']}]: {r['cpu_rate']:.1f} per CPU s, {r['wall_rate']:.1f} per wall s "
            f"({r['games']} games)"
        )
    fold = benchlib.replay_rate("pitch", replay_logs(), args.seconds)
    say(
        f"replay fold: {fold['events_per_cpu_s']:,.0f} events per CPU s, "
        f"{fold['events_per_wall_s']:,.0f} per wall s"
    )
    for level in ("greedy", "strong"):
        say(benchlib.move_time_line(benchlib.bot_move_times("pitch", level, args.moves, players=4)))

    if args.match:
        for other in ("random", "greedy"):
            say(match("strong", other, args.match, args.players))

    results.save()


if __name__ == "__main__":
    main()
