"""Today's multi-player Swiss, frozen as the benchmark's baseline ("today"): NOT used by the platform.

A verbatim copy of ``tournaments.pairing.swiss.seat_tables`` (with ``table_sizes``, ``_repeats`` and
``_share``) as it was before issue #19 (commit f592fb7): the ranking cut into balanced tables, bigger
tables first, then players of equal score swapped between tables at most three apart while that lowers
the number of repeat meetings; each table seated in ranking order (the best-ranked player at seat 0).
``tests/bench/pairing_tables.py`` measures the new seating beside it. Do not improve it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import Any, TypeVar

P = TypeVar("P", bound=Hashable)


def table_sizes(count: int, size: int, smallest: int = 2) -> list[int]:
    """Table sizes for ``count`` players at tables of at most ``size``: as few tables as possible,
    sizes within one seat of each other, bigger tables first."""
    if count < smallest or size < smallest:
        raise ValueError(f"{count} players cannot fill tables of {smallest} to {size}")
    tables = -(-count // size)
    base, extra = divmod(count, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if min(sizes) < smallest:
        raise ValueError(f"{count} players cannot be seated at tables of {smallest} to {size}")
    return sizes


def _repeats(table: Sequence[Hashable], met: Mapping[Any, Mapping[Any, int]]) -> int:
    return sum(met.get(a, {}).get(b, 0) for a, b in combinations(table, 2))


def _share(table: Sequence[Hashable], seat: int, who: Hashable, met: Mapping[Any, Mapping[Any, int]]) -> int:
    """Repeats ``who`` would have sitting at ``seat`` of ``table`` (pairs are read in seat order, as
    ``_repeats`` reads them, so a one-sided ``met`` counts the same)."""
    own = met.get(who, {})
    before = sum(met.get(other, {}).get(who, 0) for other in table[:seat])
    return before + sum(own.get(other, 0) for other in table[seat + 1 :])


def seat_tables(
    ranked: Sequence[P],
    size: int,
    scores: Mapping[Any, float],
    met: Mapping[Any, Mapping[Any, int]],
    smallest: int = 2,
) -> list[list[P]]:
    """Tables for one multi-player Swiss round: the ranking cut into balanced tables, then players of
    equal score swapped between tables while that lowers the number of repeat meetings."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("players must be distinct")
    tables: list[list[P]] = []
    start = 0
    for n in table_sizes(len(ranked), size, smallest):
        tables.append(list(ranked[start : start + n]))
        start += n
    score = {p: scores.get(p, 0) for p in ranked}
    repeats = [_repeats(t, met) for t in tables]
    improved = True
    passes = 0
    while improved and passes < 20:
        improved, passes = False, passes + 1
        for i, first in enumerate(tables):
            # Equal scores sit in neighbouring tables: looking a few tables away is enough.
            for j in range(i + 1, min(i + 4, len(tables))):
                second = tables[j]
                for a in range(len(first)):
                    if not repeats[i] and not repeats[j]:
                        break  # a swap can only lower repeats where there are some
                    for b in range(len(second)):
                        x, y = first[a], second[b]
                        if score[x] != score[y]:
                            continue
                        # Only the pairs through the two swapped seats change.
                        now = _share(first, a, x, met) + _share(second, b, y, met)
                        if not now:
                            continue
                        then = _share(first, a, y, met) + _share(second, b, x, met)
                        if then < now:
                            first[a], second[b] = y, x
                            repeats[i] = _repeats(first, met)
                            repeats[j] = _repeats(second, met)
                            improved = True
    return tables
