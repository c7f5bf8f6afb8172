"""Skyjo benchmark (run on demand, not collected by pytest).

    python tests/bench/bench_skyjo.py [--seconds 3] [--match 0]

Measures, on this machine:
- random full games per second of the engine alone (default config, 2 and 4 players),
  and the moves and events per second behind them;
- the replay fold in events per second;
- move times of the greedy and strong bots (p50, p95) over a few two-player games;
- with ``--match N``: win rates of strong against random and greedy over N two-player games
  (seats alternated, target 100), with a 95% Wilson interval.

Rates are per CPU second (``process_time``), which stays comparable when other work
shares the machine, and per wall-clock second. Figures are appended to
``tests/bench/results/skyjo.txt``.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.bots import get as get_bot  # noqa: E402
from games.engines import skyjo as engine  # noqa: E402

RESULTS = ROOT / "tests" / "bench" / "results" / "skyjo.txt"


def random_game(config: dict[str, Any], seed: int, rng: random.Random) -> tuple[int, list[dict[str, Any]]]:
    """One random game through the public contract: (actions taken, events)."""
    events = engine.start(config, seed)
    state = engine.replay(events)
    steps = 0
    while seats := engine.to_act(state):
        seat = rng.choice(seats)
        new = engine.decide(state, seat, rng.choice(engine.legal_actions(state, seat)))
        for event in new:
            state = engine.apply(state, event)
        events.extend(new)
        steps += 1
    return steps, events


def games_per_second(players: int, seconds: float) -> tuple[str, list[dict[str, Any]]]:
    config = engine.default_config(players)
    rng = random.Random(players)
    games = steps = events = 0
    last: list[dict[str, Any]] = []
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        taken, last = random_game(config, rng.randrange(2**31), rng)
        games, steps, events = games + 1, steps + taken, events + len(last)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    line = (
        f"random games, {players} players, target 100: {games / cpu:.1f} games/cpu-s ({games / wall:.1f}/wall-s), "
        f"{steps / cpu:,.0f} moves/cpu-s, {events / cpu:,.0f} events/cpu-s, {events / games:.0f} events/game"
    )
    return line, last


def replay_rate(events: list[dict[str, Any]], seconds: float) -> str:
    folded = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        engine.replay(events)
        folded += len(events)
    return f"replay fold: {folded / (time.process_time() - cpu):,.0f} events/cpu-s"


def play(levels: list[str], seed: int, times: dict[str, list[float]] | None = None) -> dict[str, Any]:
    """One two-player game between bot levels (seat 0 plays levels[0]); the outcome."""
    bots = [get_bot("skyjo", level) for level in levels]
    rng = random.Random(seed)
    state = engine.replay(engine.start(engine.default_config(len(levels)), seed))
    while seats := engine.to_act(state):
        seat = rng.choice(seats)
        started = time.perf_counter()
        action = bots[seat].choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
        if times is not None:
            times[levels[seat]].append(time.perf_counter() - started)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
    result = engine.outcome(state)
    assert result is not None
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def move_times(games: int) -> str:
    times: dict[str, list[float]] = {"greedy": [], "strong": []}
    for seed in range(games):
        play(["strong", "greedy"] if seed % 2 == 0 else ["greedy", "strong"], 500 + seed, times)
    return "; ".join(
        f"{level} move ms p50={1000 * percentile(t, 0.5):.1f} p95={1000 * percentile(t, 0.95):.1f} (n={len(t)})"
        for level, t in times.items()
    )


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


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
    low, high = wilson(wins, games)
    return (
        f"strong vs {opponent}: win_rate_a={wins / games:.3f} ci95=[{low:.3f},{high:.3f}] games={games} "
        f"p95_move_ms_a={1000 * percentile(times['strong'], 0.95):.0f} "
        f"p95_move_ms_b={1000 * percentile(times[opponent], 0.95):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per throughput figure")
    parser.add_argument("--match", type=int, default=0, help="games per strong-bot match (0: none)")
    parser.add_argument("--move-games", type=int, default=4, help="games timed for bot move times")
    args = parser.parse_args()
    lines = [f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.python_version()}, {platform.machine()}"]
    for players in (2, 4):
        line, events = games_per_second(players, args.seconds)
        lines.append(line)
    lines.append(replay_rate(events, args.seconds))
    lines.append(move_times(args.move_games))
    if args.match:
        lines.append(match("random", args.match))
        lines.append(match("greedy", args.match))
    text = "\n".join(lines)
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write(text + "\n\n")


if __name__ == "__main__":
    main()
