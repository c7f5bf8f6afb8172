"""The cost of one table of the multi-player Swiss (``tables.py``): span, repeats, the first-seat cap,
score spread and first seats, each weighed to outweigh everything below it."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

_EMPTY: Mapping[Any, int] = {}


@dataclass(frozen=True)
class Weights:
    """Each criterion outweighs the most that everything below it can add up to in one round."""

    even: float
    spread: float
    repeat: float
    over: float
    span: float

    @staticmethod
    def of(count: int, tables: int, size: int, score_range: float, most_met: int, rounds: int) -> Weights:
        # Span, then repeats, then the first-seat cap, then the spread (issue #31 puts the cap last but
        # for evenness; below the spread it went unheard wherever scores differ: a player sat first in
        # 4 rounds of 4 at 111 entrants at tables of 3). A table's fewest first seats and its players
        # past the cap are each at most ``rounds`` (docs/tournaments.md has the measurements).
        even = 1e-3 / (tables * (rounds + 1) + 1)
        spread = 1.0
        over = tables * max(score_range, 0.0) + 1.0
        repeat = over * (tables * (rounds + 1) + 1)
        span = repeat * (tables * size * size * max(1, most_met) + 1)
        return Weights(even, spread, repeat, over, span)


@dataclass(frozen=True)
class Objective:
    """The cost of one table (see the module's docstring); the search minimises the sum."""

    scores: Mapping[Any, float]
    met: Mapping[Any, Mapping[Any, int]]
    first: Mapping[Any, int]
    cap: int
    level: Mapping[Any, tuple[int, int]]
    limit: int
    weights: Weights
    leader: Any = None  # in the last round: the leader's table holds the top standings-table only

    def repeats(self, table: Sequence[Hashable]) -> int:
        met = self.met
        return sum(
            met.get(a, _EMPTY).get(b, 0) or met.get(b, _EMPTY).get(a, 0) for a, b in combinations(table, 2)
        )

    def excess(self, table: Sequence[Hashable]) -> int:
        """How far past the span allowed (the leader's table in the last round: past 0 from the top)."""
        top = max(self.level[p][0] for p in table)
        over = max(0, top - min(self.level[p][1] for p in table) - self.limit)
        return over + (top if self.leader is not None and self.leader in table else 0)

    def over_cap(self, table: Sequence[Hashable]) -> int:
        return max(0, min(self.first.get(p, 0) for p in table) + 1 - self.cap)

    def parts(
        self, lo: float, hi: float, top: int, bottom: int, fewest: int, repeats: int, leader: bool
    ) -> float:
        """The cost from a table's figures: lowest and highest score, highest "lowest level", lowest
        "highest level", fewest first seats, repeats, whether the leader sits there."""
        w = self.weights
        excess = max(0, top - bottom - self.limit) + (top if leader else 0)
        over = max(0, fewest + 1 - self.cap)
        return w.span * excess + w.repeat * repeats + w.over * over + w.spread * (hi - lo) + w.even * fewest

    def __call__(self, table: Sequence[Hashable]) -> float:
        values = [self.scores[p] for p in table]
        return self.parts(
            min(values),
            max(values),
            max(self.level[p][0] for p in table),
            min(self.level[p][1] for p in table),
            min(self.first.get(p, 0) for p in table),
            self.repeats(table),
            self.leader is not None and self.leader in table,
        )
