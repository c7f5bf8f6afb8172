"""Pitch benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_pitch.py [--seconds 2] [--match 0] [--players 2]

Measures, on this machine:
- random full games per second of the engine alone, through the public contract, for each
  player count (default options, and the short-hand-limit tables of ``sample_configs``);
- the replay fold in events per second;
- move times of the greedy and strong bots (p50, p95, max) in greedy-played games;
- with ``--match N``: win rates of strong against random and greedy over N games (seats
  alternated, a shared win counts as a share), with a 95% Wilson interval.

Rates are per CPU second (``process_time``, comparable when other work shares the machine) and
per wall-clock second. Figures are appended to ``tests/bench/results/pitch.txt``.
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
from games.engines import pitch as engine  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "pitch.txt"


def random_game(config: dict[str, Any], seed: int, rng: random.Random) -> list[dict[str, Any]]:
    """One random game through the public contract; its events."""
    events = engine.start(config, seed)
    state = engine.replay(events)
    while seats := engine.to_act(state):
        seat = seats[0]
        new = engine.decide(state, seat, rng.choice(engine.legal_actions(state, seat)))
        events += new
        for event in new:
            state = engine.apply(state, event)
    return events


def rate(run_one: Callable[[int], object], seconds: float) -> tuple[float, float, int]:
    """(runs per CPU second, runs per wall second, runs) over about ``seconds`` of wall clock."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    n = 0
    while time.perf_counter() - wall0 < seconds or n < 3:
        run_one(n)
        n += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return n / max(cpu, 1e-9), n / wall, n


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def play(
    levels: list[str], config: dict[str, Any], seed: int, times: dict[str, list[float]]
) -> dict[str, Any]:
    rng = random.Random(seed)
    bots = [get_bot("pitch", level) for level in levels]
    state = engine.replay(engine.start(config, seed))
    while seats := engine.to_act(state):
        seat = seats[0]
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        start = time.perf_counter()
        action = bots[seat].choose(view, legal, rng)
        times.setdefault(levels[seat], []).append(time.perf_counter() - start)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
    result = engine.outcome(state)
    assert result is not None
    return result


def wilson(p: float, n: int) -> tuple[float, float]:
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def match(a: str, b: str, games: int, players: int) -> str:
    times: dict[str, list[float]] = {}
    share = 0.0
    for game in range(games):
        levels = ([a, b] * players)[game % 2 : game % 2 + players]
        result = play(levels, engine.default_config(players), 10_000 + game, times)
        share += sum(1 for s in result["winners"] if levels[s] == a) / len(result["winners"])
    p = share / games
    low, high = wilson(p, games)
    ms = {level: 1000 * percentile(times.get(level, []), 0.95) for level in (a, b)}
    return (
        f"match {a} vs {b} ({players} players): win_rate_a={p:.3f} ci95=[{low:.3f},{high:.3f}] games={games} "
        f"p95_move_ms_a={ms[a]:.0f} p95_move_ms_b={ms[b]:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="wall-clock seconds per measured rate")
    parser.add_argument("--match", type=int, default=0, help="games per strong-vs-X match (0: none)")
    parser.add_argument("--players", type=int, default=2, help="players in the matches")
    args = parser.parse_args()
    lines = [
        f"# {datetime.now(UTC).isoformat(timespec='seconds')} python {platform.python_version()} "
        f"cpus={os.cpu_count()} load={os.getloadavg()[0]:.1f}"
    ]

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    rng = random.Random(1)
    for config in [engine.default_config(n) for n in range(2, 8)] + engine.sample_configs():
        cpu_rate, wall_rate, n = rate(lambda i, c=config: random_game(c, i, rng), args.seconds)
        label = ",".join(f"{k}={v}" for k, v in config.items())
        say(f"random games/s [{label}]: {cpu_rate:.1f} per CPU s, {wall_rate:.1f} per wall s ({n} games)")

    logs = [random_game(engine.default_config(4), i, rng) for i in range(5)]
    events = sum(len(log) for log in logs)
    cpu_rate, wall_rate, _n = rate(lambda i: engine.replay(logs[i % 5]), args.seconds)
    say(
        f"replay fold: {cpu_rate * events / 5:,.0f} events per CPU s, {wall_rate * events / 5:,.0f} per wall s"
    )

    times: dict[str, list[float]] = {}
    for game in range(4):
        play(["strong", "greedy", "strong", "greedy"], engine.default_config(4), game, times)
    for level, values in times.items():
        say(
            f"{level} move ms (4 players, {len(values)} moves): p50={1000 * percentile(values, 0.5):.1f} "
            f"p95={1000 * percentile(values, 0.95):.1f} max={1000 * max(values):.1f}"
        )

    if args.match:
        for other in ("random", "greedy"):
            say(match("strong", other, args.match, args.players))

    with RESULTS.open("a") as out:
        out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
