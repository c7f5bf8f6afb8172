"""Dominoes benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_dominoes.py [--seconds 2] [--match 0] [--variant block]

Measures, on this machine:
- random full games per second of the engine alone, per variant and player count;
- the replay fold in events per second;
- random single-round Block games per second against OpenSpiel's ``python_block_dominoes``
  (when ``open_spiel`` is installed), measured in the same run, interleaved, best of 5;
- move times of the greedy and strong bots (p50, p95);
- with ``--match N``: win rates of strong against random and greedy over N two-player games
  (seats alternated), with a 95% Wilson interval.

Rates are given per CPU second (``process_time``), which stays comparable when other work
shares the machine, and per wall-clock second. Figures are appended to
``tests/bench/results/dominoes.txt``.
"""

from __future__ import annotations

import os
import platform
import random
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.bots import get as get_bot  # noqa: E402
from games.engines import dominoes as engine  # noqa: E402
from tests.bench import benchlib  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "dominoes.txt"
TABLES = [(2, False), (3, False), (4, False), (4, True)]
# One Block round, two players: the same game as OpenSpiel's python_block_dominoes.
ONE_ROUND = {"players": 2, "variant": "block", "target": 1}


def label(config: dict[str, Any]) -> str:
    return f"{config['variant']} {config['players']}p{' teams' if config.get('partnerships') else ''}"


def engine_rates(
    seconds: float,
    variants: tuple[str, ...] = ("block", "draw", "all_fives"),
    tables: list[tuple[int, bool]] = TABLES,
) -> list[dict[str, Any]]:
    """Random full games per second for each variant and table."""
    configs = [{"players": n, "variant": v, "partnerships": teams} for v in variants for n, teams in tables]
    return [
        {**benchlib.games_rate("dominoes", config, seconds), "label": label(config)} for config in configs
    ]


def replay_logs(seed: int = 1, per_variant: int = 15) -> list[list[dict[str, Any]]]:
    """Whole random four-player games of each variant, as event logs."""
    rng = random.Random(seed)
    logs = []
    for variant in ("block", "draw", "all_fives"):
        config = engine.validate_config({"players": 4, "variant": variant})
        logs += [benchlib.random_game(engine, config, s, rng) for s in range(per_variant)]
    return logs


def openspiel_runner() -> Callable[[int], object] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python.games import block_dominoes  # type: ignore[import-not-found]  # noqa: F401
    except Exception:  # noqa: BLE001 - any import failure means "not available here"
        return None
    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(7)

    def run(_n: int) -> object:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return state

    return run


def block_vs_openspiel(seconds: float, rounds: int = 5) -> dict[str, Any]:
    """Random one-round two-player Block games per CPU second, ours and OpenSpiel's, measured in turn
    (``rounds`` times ``seconds / 2`` each) in this process; the best of each."""
    config = engine.validate_config(ONE_ROUND)
    rng = random.Random(1)
    theirs_runner = openspiel_runner()
    ours = theirs = 0.0
    for _ in range(rounds):
        ours = max(
            ours, benchlib.rate(lambda i: benchlib.random_game(engine, config, i, rng), seconds / 2)[0]
        )
        if theirs_runner is not None:
            theirs = max(theirs, benchlib.rate(theirs_runner, seconds / 2)[0])
    version = None
    if theirs_runner is not None:
        from importlib.metadata import version as dist_version

        version = dist_version("open_spiel")
    return {
        "ours": ours,
        "openspiel": theirs if theirs_runner is not None else None,
        "ratio": ours / theirs if theirs_runner is not None and theirs else None,
        "openspiel_version": version,
        "rounds": rounds,
    }


def match(variant: str, a: str, b: str, games: int, seed: int = 1) -> tuple[int, list[float], list[float]]:
    """Bot ``a`` against bot ``b``, two players, seats alternated; (wins of a, a's move times, b's)."""
    config = engine.validate_config({"players": 2, "variant": variant})
    rng = random.Random(seed)
    wins = 0
    times_a: list[float] = []
    times_b: list[float] = []
    for i in range(games):
        bot_a, bot_b = get_bot("dominoes", a), get_bot("dominoes", b)
        seat_a = i % 2
        bots = [bot_a, bot_b] if seat_a == 0 else [bot_b, bot_a]
        played = benchlib.bot_game(engine, bots, config, 10_000 + i, rng)
        times_a += played.times[seat_a]
        times_b += played.times[1 - seat_a]
        wins += seat_a in played.outcome["winners"]
        print(
            f"  {variant} {a} vs {b}: {i + 1}/{games} games, {wins} won by {a}", file=sys.stderr, flush=True
        )
    return wins, times_a, times_b


def main() -> None:
    parser = benchlib.game_bench_parser(
        __doc__, seconds=2.0, moves=200, match_help="games per bot match (0: none)"
    )
    parser.add_argument("--variant", default="block", choices=["block", "draw", "all_fives"])
    args = parser.parse_args()
    results = benchlib.Results(
        RESULTS,
        f"== dominoes bench {datetime.now(UTC).isoformat(timespec='seconds')} "
        f"python {platform.python_version()} cpus {os.cpu_count()} load {os.getloadavg()[0]:.1f}",
    )
    say = results.say
    for r in engine_rates(args.seconds):
        say(
            f"random full games/s  {r['label']:<18} {r['cpu_rate']:8.1f} per CPU s  "
            f"{r['wall_rate']:8.1f} per wall s  ({r['games']} games)"
        )
    fold = benchlib.replay_rate("dominoes", replay_logs(), args.seconds)
    say(f"replay fold          {fold['events_per_cpu_s']:,.0f} events per CPU s ({fold['events']} events)")

    block = block_vs_openspiel(args.seconds)
    say(f"one Block round 2p   ours {block['ours']:8.1f} games per CPU s (best of 5)")
    if block["openspiel"] is None:
        say("one Block round 2p   OpenSpiel python_block_dominoes: not installed (pip install open_spiel)")
    else:
        say(
            f"one Block round 2p   OpenSpiel python_block_dominoes {block['openspiel']:8.1f} games per CPU s "
            f"(best of 5): ours is {block['ratio']:.2f}x"
        )

    config = {"players": 2, "variant": args.variant}
    for level in ("greedy", "strong"):
        say(
            benchlib.move_time_line(
                benchlib.bot_move_times("dominoes", level, args.moves, config=config, seed=3)
            )
        )

    if args.match:
        for opponent in ("random", "greedy"):
            wins, times_a, times_b = match(args.variant, "strong", opponent, args.match)
            low, high = benchlib.wilson(wins, args.match)
            say(
                f"{args.variant} strong vs {opponent}: win_rate_a={wins / args.match:.3f} "
                f"ci95=[{low:.3f},{high:.3f}] games={args.match} "
                f"p95_move_ms_a={benchlib.percentile([1000 * t for t in times_a], 0.95):.0f} "
                f"p95_move_ms_b={benchlib.percentile([1000 * t for t in times_b], 0.95):.0f}"
            )

    results.save()
    print(f"appended to {RESULTS}")


if __name__ == "__main__":
    main()
