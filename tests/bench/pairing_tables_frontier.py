"""Multi-player Swiss (issue #19): how far any per-round seating rule can get, for the evidence in
docs/BENCHMARKS.md. NOT used by the platform.

    python tests/bench/pairing_tables_frontier.py [--fields 16@4,18@3] [--weights 0.35,0.5,0.75,1,1.5]

Each round is seated by the exact optimum of the documented objective (``tables.Objective``, repeat
weight ``w`` rounds' worth of points), found by dynamic programming over the subsets of the field
(the lowest unseated player's table first), instead of the platform's search; the events are played
as in ``pairing_tables.py`` (10 seeds × 5 rounds, random results). Since a round's repeats and spread
are both sums over its tables, the cheapest seating for some weight is the best any per-round rule can
do in that round; sweeping the weight traces that frontier. Minutes per field: fields of 16–18 only.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import pairing_tables  # noqa: E402
from tournaments.pairing import tables  # noqa: E402


def cheapest(ranked: Sequence[Hashable], sizes: list[int], cost: tables.Objective) -> list[list[Hashable]]:
    """The cheapest cut of ``ranked`` into tables of ``sizes`` (any order)."""
    by_low: list[list[tuple[int, int, float, tuple[int, ...]]]] = [[] for _ in ranked]
    for n in set(sizes):
        for combo in combinations(range(len(ranked)), n):
            mask = sum(1 << i for i in combo)
            by_low[combo[0]].append((mask, n, cost([ranked[i] for i in combo]), combo))
    memo: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[float, Any]] = {}

    def best(mask: int, left: tuple[tuple[int, int], ...]) -> float:
        if not mask:
            return 0.0
        if (mask, left) in memo:
            return memo[mask, left][0]
        low = (mask & -mask).bit_length() - 1
        counts = dict(left)
        found: tuple[float, Any] = (float("inf"), None)
        for table, n, c, combo in by_low[low]:
            if not counts.get(n) or table & mask != table or c >= found[0]:
                continue
            rest = dict(counts)
            rest[n] -= 1
            after = tuple(sorted(rest.items()))
            total = c + best(mask & ~table, after)
            if total < found[0]:
                found = (total, (combo, mask & ~table, after))
        memo[mask, left] = found
        return found[0]

    mask, left = (1 << len(ranked)) - 1, tuple(sorted(Counter(sizes).items()))
    best(mask, left)
    out = []
    while mask:
        combo, mask, left = memo[mask, left][1]
        out.append([ranked[i] for i in combo])
    return out


def exact_seater(weight: float) -> Any:
    def seat(
        ranked: Sequence[Hashable],
        size: int,
        scores: Mapping[Any, float],
        met: Mapping[Any, Mapping[Any, int]],
        smallest: int = 2,
        history: tables.History | None = None,
        unit: float | None = None,
    ) -> list[list[Hashable]]:
        history = history or tables.History()
        score = {p: float(scores.get(p, 0)) for p in ranked}
        cost = tables.Objective(
            score,
            met,
            history.first,
            weight * (unit if unit is not None else size - 1),
            tables.first_seat_cap(history.round, size),
        )
        seated = cheapest(ranked, tables.layout(len(ranked), size, history.round, smallest), cost)
        number = {p: history.number.get(p, i) for i, p in enumerate(ranked)}
        return [tables.seat_order(t, history, number) for t in seated]

    return seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fields", default="16@4,18@3")
    parser.add_argument("--weights", default="0.35,0.5,0.75,1,1.25,1.5")
    args = parser.parse_args()
    fields = tuple(tuple(int(x) for x in f.split("@")) for f in args.fields.split(","))
    platform = tables.seat_tables
    try:
        for weight in (float(w) for w in args.weights.split(",")):
            tables.seat_tables = exact_seater(weight)  # formats.next_round looks it up at each call
            for row in pairing_tables.compare(10, 5, fields):  # type: ignore[arg-type]
                today, new = row["today"], row["new"]
                print(
                    f"per-round optimum w={weight} {row['players']}@{row['size']}: repeats {new['repeats']:.1f} "
                    f"(goal ≤ {row['goal_repeats']}), spread {new['spread']:.2f} (goal ≤ {2 * today['spread']:.2f})",
                    flush=True,
                )
    finally:
        tables.seat_tables = platform


if __name__ == "__main__":
    main()
