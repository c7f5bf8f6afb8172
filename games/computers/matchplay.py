"""Bots against bots without the database: the engine and the bots alone (botmatch, benchmarks)."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from games import bots, engines


@dataclass
class MatchStats:
    games: int = 0
    points_a: float = 0.0  # a win counts 1, a shared win 1/(number of winners)
    move_ms: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})

    @property
    def win_rate_a(self) -> float:
        return self.points_a / self.games if self.games else 0.0

    def ci95(self) -> tuple[float, float]:
        """Wilson score interval of the win rate."""
        n, p, z = self.games, self.win_rate_a, 1.96
        if n == 0:
            return (0.0, 1.0)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def p95(self, side: str) -> float:
        times = sorted(self.move_ms[side])
        return times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0

    def summary(self) -> str:
        low, high = self.ci95()
        return (
            f"win_rate_a={self.win_rate_a:.3f} ci95=[{low:.3f},{high:.3f}] games={self.games} "
            f"p95_move_ms_a={self.p95('a'):.0f} p95_move_ms_b={self.p95('b'):.0f}"
        )


def play_game(
    engine_name: str,
    config: dict[str, Any],
    levels: list[str],
    seed: int,
    timings: list[list[float]] | None = None,
) -> dict[str, Any]:
    """One game between bots (one level per seat); returns the engine's outcome."""
    engine = engines.get(engine_name)
    players = [bots.get(engine_name, level) for level in levels]
    rng = random.Random(seed)
    state = engine.replay(engine.start(config, seed))
    while True:
        seats = engine.to_act(state)
        if not seats:
            result = engine.outcome(state)
            assert result is not None
            return result
        seat = seats[0]
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        started = time.perf_counter()
        action = players[seat].choose(view, legal, rng)
        if timings is not None:
            timings[seat].append((time.perf_counter() - started) * 1000)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)


def _one(args: tuple[str, dict[str, Any], str, str, int, int]) -> tuple[float, list[float], list[float]]:
    """Game ``i`` of a match: A sits in seat 0 in even games and seat 1 in odd ones."""
    engine_name, config, level_a, level_b, seed, i = args
    a_seat = i % 2
    levels = [level_a, level_b] if a_seat == 0 else [level_b, level_a]
    timings: list[list[float]] = [[], []]
    winners = play_game(engine_name, config, levels, seed + i, timings)["winners"]
    points = 1 / len(winners) if a_seat in winners else 0.0
    return points, timings[a_seat], timings[1 - a_seat]


def botmatch(
    engine_name: str,
    level_a: str,
    level_b: str,
    games: int,
    seed: int,
    options: dict[str, Any],
    progress: Any = None,
    jobs: int = 1,
) -> MatchStats:
    """Two-player games with seats swapped every other game, over ``jobs`` processes."""
    config = engines.compose(engine_name, options, 2)
    stats = MatchStats()
    work = [(engine_name, config, level_a, level_b, seed, i) for i in range(games)]
    pool = None
    if jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(jobs)
    try:
        results = pool.imap_unordered(_one, work) if pool is not None else map(_one, work)
        for points, mine, theirs in results:
            stats.points_a += points
            stats.games += 1
            stats.move_ms["a"] += mine
            stats.move_ms["b"] += theirs
            if progress is not None and stats.games % max(1, games // 10) == 0:
                progress(f"{stats.games}/{games} games: {stats.summary()}")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return stats
