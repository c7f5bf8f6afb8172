"""Swiss pairing: two-player boards and multi-player tables.

Players come ranked (best first); ``met`` says who already met whom. Two-player rounds pair within
score groups, top half against bottom half (the Dutch way), float to the nearest group when needed,
never repeat a pairing while one can be avoided, and give the bye to the lowest-ranked player who has
not had one. Multi-player rounds cut the ranking into tables balanced within one seat, then swap
players between neighbouring tables of equal score to meet as few old opponents as possible.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations

Pair = tuple[Hashable, Hashable]
SEARCH_BUDGET = 200_000


def pick_bye(ranked: Sequence[Hashable], had_bye: set[Hashable]) -> Hashable | None:
    """The bye of an odd round: the lowest-ranked player without one (everyone had one: the lowest)."""
    if len(ranked) % 2 == 0:
        return None
    for player in reversed(ranked):
        if player not in had_bye:
            return player
    return ranked[-1]


def _preferences(
    ranked: Sequence[Hashable], scores: Mapping[Hashable, float]
) -> dict[Hashable, list[Hashable]]:
    """For each player, everyone else in the order the Dutch system prefers them as opponents."""
    groups: dict[float, list[Hashable]] = {}
    for player in ranked:
        groups.setdefault(scores.get(player, 0), []).append(player)
    place = {}
    for members in groups.values():
        half = len(members) / 2
        for i, player in enumerate(members):
            place[player] = (i, half)
    rank = {p: i for i, p in enumerate(ranked)}

    def key(p: Hashable, q: Hashable) -> tuple[float, float, int]:
        same = scores.get(p, 0) == scores.get(q, 0)
        i, half = place[p]
        j, _ = place[q]
        ideal = i + half if i < half else i - half
        return (abs(scores.get(p, 0) - scores.get(q, 0)), abs(j - ideal) if same else 0, rank[q])

    return {p: sorted((q for q in ranked if q != p), key=lambda q: key(p, q)) for p in ranked}


def pair_round(
    ranked: Sequence[Hashable],
    scores: Mapping[Hashable, float],
    met: Mapping[Hashable, set[Hashable]],
    had_bye: set[Hashable] | None = None,
) -> tuple[list[Pair], Hashable | None]:
    """Pairs for one two-player round and the bye (None when the count is even)."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("players must be distinct")
    bye = pick_bye(ranked, had_bye or set())
    players = [p for p in ranked if p != bye]
    prefs = _preferences(players, scores)
    for allow_repeats in (False, True):
        pairs = _search(players, prefs, met, allow_repeats)
        if pairs is not None:
            return pairs, bye
    raise AssertionError("a pairing allowing repeats always exists")


def _search(
    players: list[Hashable],
    prefs: dict[Hashable, list[Hashable]],
    met: Mapping[Hashable, set[Hashable]],
    allow: bool,
) -> list[Pair] | None:
    """Depth-first: pair the highest-ranked unpaired player with its most preferred available opponent,
    backtracking when the rest cannot be paired (without repeats, unless ``allow``)."""
    result: list[Pair] = []
    ok = _solve_with_set(list(players), set(players), prefs, met, allow, result, [SEARCH_BUDGET])
    return result if ok else None


def _solve_with_set(
    unpaired: list[Hashable],
    available: set[Hashable],
    prefs: dict[Hashable, list[Hashable]],
    met: Mapping[Hashable, set[Hashable]],
    allow: bool,
    result: list[Pair],
    budget: list[int],
) -> bool:
    if not unpaired:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return False
    p = unpaired[0]
    rest = unpaired[1:]
    available.discard(p)
    candidates = [q for q in prefs[p] if q in available]
    if allow:
        candidates.sort(key=lambda q: q in met.get(p, set()))
    for q in candidates:
        if not allow and q in met.get(p, set()):
            continue
        available.discard(q)
        result.append((p, q))
        if _solve_with_set([x for x in rest if x != q], available, prefs, met, allow, result, budget):
            return True
        result.pop()
        available.add(q)
    available.add(p)
    return False


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


def _repeats(table: Sequence[Hashable], met: Mapping[Hashable, Mapping[Hashable, int]]) -> int:
    return sum(met.get(a, {}).get(b, 0) for a, b in combinations(table, 2))


def seat_tables(
    ranked: Sequence[Hashable],
    size: int,
    scores: Mapping[Hashable, float],
    met: Mapping[Hashable, Mapping[Hashable, int]],
    smallest: int = 2,
) -> list[list[Hashable]]:
    """Tables for one multi-player Swiss round: the ranking cut into balanced tables, then players of
    equal score swapped between tables while that lowers the number of repeat meetings."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("players must be distinct")
    tables: list[list[Hashable]] = []
    start = 0
    for n in table_sizes(len(ranked), size, smallest):
        tables.append(list(ranked[start : start + n]))
        start += n
    improved = True
    passes = 0
    while improved and passes < 20:
        improved, passes = False, passes + 1
        for i in range(len(tables)):
            # Equal scores sit in neighbouring tables: looking a few tables away is enough.
            for j in range(i + 1, min(i + 4, len(tables))):
                for a in range(len(tables[i])):
                    for b in range(len(tables[j])):
                        x, y = tables[i][a], tables[j][b]
                        if scores.get(x, 0) != scores.get(y, 0):
                            continue
                        before = _repeats(tables[i], met) + _repeats(tables[j], met)
                        tables[i][a], tables[j][b] = y, x
                        after = _repeats(tables[i], met) + _repeats(tables[j], met)
                        if after < before:
                            improved = True
                        else:
                            tables[i][a], tables[j][b] = x, y
    return tables
