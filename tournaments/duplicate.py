"""Duplicate mode: every table of a round plays the same deal, so each seat is compared with the same
seat at the other tables. Bridge matchpoints: 2 for each table beaten at that seat, 1 for each tie.

Pure and exact (``Fraction``); stdlib only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

Score = Fraction | int
TableId = TypeVar("TableId", bound=Hashable)


def _seats(results: Mapping[Any, Sequence[Score]]) -> int:
    sizes = {len(scores) for scores in results.values()}
    if len(sizes) > 1:
        raise ValueError(f"every table of a duplicate round has the same seats, not {sorted(sizes)}")
    return sizes.pop() if sizes else 0


def matchpoints(
    results: Mapping[TableId, Sequence[Score]], lower_score_wins: bool = False
) -> dict[TableId, list[Fraction]]:
    """Per table, per seat: 2 for every other table whose score at that seat it beats, 1 per equal."""
    seats = _seats(results)
    out: dict[TableId, list[Fraction]] = {table: [] for table in results}
    for seat in range(seats):
        column = [Fraction(scores[seat]) for scores in results.values()]
        if lower_score_wins:
            column = [-s for s in column]
        for table, mine in zip(results, column, strict=True):
            beaten = sum(1 for other in column if other < mine)
            equal = column.count(mine) - 1  # not counting itself
            out[table].append(Fraction(2 * beaten + equal))
    return out


def percentages(
    results: Mapping[TableId, Sequence[Score]], lower_score_wins: bool = False
) -> dict[TableId, list[Fraction]]:
    """Matchpoints as a percentage of the top, 2 x (tables - 1). A lone table has nobody to compare
    with and gets the average, 50."""
    top = 2 * (len(results) - 1)
    points = matchpoints(results, lower_score_wins)
    if not top:
        return {table: [Fraction(50)] * len(mp) for table, mp in points.items()}
    return {table: [p * 100 / top for p in mp] for table, mp in points.items()}
