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

import argparse
import math
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.bots import get as get_bot  # noqa: E402
from games.engines import dominoes as engine  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "dominoes.txt"


def random_game(config: dict[str, Any], seed: int, rng: random.Random) -> int:
    """One random game through the public contract; the number of actions taken."""
    state = engine.replay(engine.start(config, seed))
    steps = 0
    while True:
        seats = engine.to_act(state)
        if not seats:
            return steps
        seat = seats[0]
        action = rng.choice(engine.legal_actions(state, seat))
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
        steps += 1


def rate(run_one: Callable[[int], object], seconds: float) -> tuple[float, float, int]:
    """(runs per CPU second, runs per wall second, runs) over about ``seconds`` of wall clock."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    n = 0
    while time.perf_counter() - wall0 < seconds:
        run_one(n)
        n += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return n / max(cpu, 1e-9), n / wall, n


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


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


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
        state = engine.replay(engine.start(config, 10_000 + i))
        while engine.to_act(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            t0 = time.perf_counter()
            action = bots[seat].choose(engine.view(state, seat), legal, rng)
            (times_a if seat == seat_a else times_b).append(time.perf_counter() - t0)
            for event in engine.decide(state, seat, action):
                state = engine.apply(state, event)
        result = engine.outcome(state)
        assert result is not None
        wins += seat_a in result["winners"]
        print(
            f"  {variant} {a} vs {b}: {i + 1}/{games} games, {wins} won by {a}", file=sys.stderr, flush=True
        )
    return wins, times_a, times_b


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="wall-clock seconds per measurement")
    parser.add_argument("--match", type=int, default=0, help="games per bot match (0: skip the matches)")
    parser.add_argument("--variant", default="block", choices=["block", "draw", "all_fives"])
    args = parser.parse_args()
    lines = [
        f"== dominoes bench {datetime.now(UTC).isoformat(timespec='seconds')} "
        f"python {platform.python_version()} cpus {os.cpu_count()} load {os.getloadavg()[0]:.1f}"
    ]

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    rng = random.Random(1)
    for variant in ("block", "draw", "all_fives"):
        for players, partnerships in ((2, False), (3, False), (4, False), (4, True)):
            config = engine.validate_config(
                {"players": players, "variant": variant, "partnerships": partnerships}
            )
            cpu_rate, wall_rate, n = rate(lambda i, c=config: random_game(c, i, rng), args.seconds)
            label = f"{variant} {players}p{' teams' if partnerships else ''}"
            say(
                f"random full games/s  {label:<18} {cpu_rate:8.1f} per CPU s  {wall_rate:8.1f} per wall s  ({n} games)"
            )

    # Replay fold.
    logs = []
    for variant in ("block", "draw", "all_fives"):
        config = engine.validate_config({"players": 4, "variant": variant})
        for seed in range(15):
            events = engine.start(config, seed)
            state = engine.replay(events)
            while engine.to_act(state):
                seat = engine.to_act(state)[0]
                new = engine.decide(state, seat, rng.choice(engine.legal_actions(state, seat)))
                for event in new:
                    state = engine.apply(state, event)
                events += new
            logs.append(events)
    total = sum(len(log) for log in logs)
    cpu0 = time.process_time()
    for log in logs:
        engine.replay(log)
    say(f"replay fold          {total / (time.process_time() - cpu0):,.0f} events per CPU s ({total} events)")

    # One Block round, two players: the same game as OpenSpiel's python_block_dominoes.
    one_round = engine.validate_config({"players": 2, "variant": "block", "target": 1})
    ours_runner: Callable[[int], object] = lambda i: random_game(one_round, i, rng)  # noqa: E731
    theirs_runner = openspiel_runner()
    ours_best = theirs_best = 0.0
    for _ in range(5):
        ours_best = max(ours_best, rate(ours_runner, args.seconds / 2)[0])
        if theirs_runner is not None:
            theirs_best = max(theirs_best, rate(theirs_runner, args.seconds / 2)[0])
    say(f"one Block round 2p   ours {ours_best:8.1f} games per CPU s (best of 5)")
    if theirs_runner is None:
        say("one Block round 2p   OpenSpiel python_block_dominoes: not installed (pip install open_spiel)")
    else:
        say(
            f"one Block round 2p   OpenSpiel python_block_dominoes {theirs_best:8.1f} games per CPU s "
            f"(best of 5): ours is {ours_best / theirs_best:.2f}x"
        )

    # Bot move times.
    for level in ("greedy", "strong"):
        _wins, times, _other = match(args.variant, level, "greedy", 4, seed=3)
        times_ms = [1000 * t for t in times]
        say(
            f"{level:<6} move ms ({args.variant}, {len(times_ms)} moves) "
            f"p50 {percentile(times_ms, 0.5):.1f}  p95 {percentile(times_ms, 0.95):.1f}  "
            f"max {max(times_ms):.1f}"
        )

    if args.match:
        for opponent in ("random", "greedy"):
            wins, times_a, times_b = match(args.variant, "strong", opponent, args.match)
            low, high = wilson(wins, args.match)
            say(
                f"{args.variant} strong vs {opponent}: win_rate_a={wins / args.match:.3f} "
                f"ci95=[{low:.3f},{high:.3f}] games={args.match} "
                f"p95_move_ms_a={percentile([1000 * t for t in times_a], 0.95):.0f} "
                f"p95_move_ms_b={percentile([1000 * t for t in times_b], 0.95):.0f}"
            )

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n\n")
    print(f"appended to {RESULTS}")


if __name__ == "__main__":
    main()
