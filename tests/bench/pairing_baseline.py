"""Today's two-player Swiss pairing, frozen as the benchmark's baseline ("today" in bench_pairing.py).

A verbatim copy of ``tournaments/pairing/swiss.py``'s ``pair_round`` and its helpers, and of the
two-player branch of ``formats.next_round``, as they were at commit f592fb7 (before the Dutch
pairing of tournaments/pairing/dutch.py replaced them). Not used by the application; kept here so that
the benchmark can compare with it however the application's code changes. Do not improve it.
"""

# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

import heapq
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Any, Generic, TypeVar

from tournaments import formats
from tournaments.log import Tournament

P = TypeVar("P", bound=Hashable)
SEARCH_BUDGET = 200_000
_NOBODY: frozenset[Any] = frozenset()


def pick_bye(ranked: Sequence[P], had_bye: Collection[Any]) -> P | None:
    """The bye of an odd round: the lowest-ranked player without one (everyone had one: the lowest)."""
    if len(ranked) % 2 == 0:
        return None
    for player in reversed(ranked):
        if player not in had_bye:
            return player
    return ranked[-1]


class _Preferences(Generic[P]):
    """Everyone else in the order the Dutch system prefers them as opponents of a player: nearest score
    group first; inside one's own group, nearest to the mirror place in the other half; then by rank.

    The order is produced lazily, because the search rarely looks past the first few candidates and
    sorting all n - 1 opponents for each of n players dominated the cost of a 512-player round.
    """

    def __init__(self, ranked: Sequence[P], scores: Mapping[Any, float]) -> None:
        self.score = {p: scores.get(p, 0) for p in ranked}
        self.rank = {p: i for i, p in enumerate(ranked)}
        self.groups: dict[float, list[P]] = {}
        for player in ranked:
            self.groups.setdefault(self.score[player], []).append(player)
        self.levels = sorted(self.groups)
        self.level = {s: i for i, s in enumerate(self.levels)}
        self.place = {p: i for members in self.groups.values() for i, p in enumerate(members)}

    def __call__(self, p: P) -> Iterator[P]:
        s = self.score[p]
        members = self.groups[s]
        i, half = self.place[p], len(members) / 2
        ideal = i + half if i < half else i - half
        # Own group by distance to the ideal place, the better-ranked first on equal distance.
        lo, hi = int(ideal), int(ideal) + 1
        while lo >= 0 or hi < len(members):
            if lo >= 0 and (hi >= len(members) or ideal - lo <= hi - ideal):
                j, lo = lo, lo - 1
            else:
                j, hi = hi, hi + 1
            if j != i:
                yield members[j]
        down, up = self.level[s] - 1, self.level[s] + 1
        while down >= 0 or up < len(self.levels):
            below = abs(s - self.levels[down]) if down >= 0 else float("inf")
            above = abs(s - self.levels[up]) if up < len(self.levels) else float("inf")
            if below < above:
                yield from self.groups[self.levels[down]]
                down -= 1
            elif above < below:
                yield from self.groups[self.levels[up]]
                up += 1
            else:
                yield from heapq.merge(
                    self.groups[self.levels[down]], self.groups[self.levels[up]], key=self.rank.__getitem__
                )
                down, up = down - 1, up + 1


def pair_round(
    ranked: Sequence[P],
    scores: Mapping[Any, float],
    met: Mapping[Any, Collection[Any]],
    had_bye: Collection[Any] | None = None,
) -> tuple[list[tuple[P, P]], P | None]:
    """Pairs for one two-player round and the bye (None when the count is even)."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("players must be distinct")
    bye = pick_bye(ranked, had_bye or set())
    players = [p for p in ranked if p != bye]
    prefs = _Preferences(players, scores)
    for allow_repeats in (False, True):
        pairs = _search(players, prefs, met, allow_repeats)
        if pairs is not None:
            return pairs, bye
    raise AssertionError("a pairing allowing repeats always exists")


class _Completable:
    """Whether a set of players can still all be paired without a repeat.

    Checked exactly (a memoised search, most constrained player first) only where it can fail: if
    nobody met more than R of the others, any A >= 2R + 2 of them can (by Dirac's theorem the
    not-yet-met graph has a Hamiltonian cycle). Without this the search below backtracks
    blindly over the top of the ranking when the bottom players have all met each other.
    """

    WORK = 50_000

    def __init__(self, players: Sequence[Hashable], met: Mapping[Any, Collection[Any]]) -> None:
        index = {p: i for i, p in enumerate(players)}
        everyone = (1 << len(players)) - 1
        self.fresh = [everyone & ~(1 << i) for i in range(len(players))]
        most = 0
        for i, p in enumerate(players):
            seen = [index[q] for q in met.get(p, _NOBODY) if q in index]
            for j in seen:
                self.fresh[i] &= ~(1 << j)
            most = max(most, len(seen))
        self.small = 2 * most + 2
        self.memo: dict[int, bool] = {}
        self.work = self.WORK

    def __call__(self, mask: int) -> bool:
        if mask.bit_count() >= self.small:
            return True
        try:
            return self._solve(mask)
        except _OutOfWork:
            return True  # unknown: let the search find out the slow way

    def _solve(self, mask: int) -> bool:
        if not mask:
            return True
        known = self.memo.get(mask)
        if known is not None:
            return known
        self.work -= 1
        if self.work < 0:
            raise _OutOfWork
        pick, options, rest = -1, 0, mask
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            mine = self.fresh[i] & mask
            if pick < 0 or mine.bit_count() < options.bit_count():
                pick, options = i, mine
            rest ^= low
        found = False
        while options and not found:
            low = options & -options
            found = self._solve(mask & ~low & ~(1 << pick))
            options ^= low
        self.memo[mask] = found
        return found


class _OutOfWork(Exception):
    pass


def _search(
    players: list[P],
    prefs: _Preferences[P],
    met: Mapping[Any, Collection[Any]],
    allow: bool,
) -> list[tuple[P, P]] | None:
    """Depth-first: pair the highest-ranked unpaired player with its most preferred available opponent,
    backtracking when the rest cannot be paired (without repeats, unless ``allow``, and then repeats
    are tried last). None when the search budget runs out first.

    Iterative rather than recursive so that large events stay clear of the recursion limit. Pruning
    only cuts branches with no complete pairing, so the first pairing found is the same as without it.
    """

    def candidates(p: P) -> Iterator[P]:
        old = met.get(p, _NOBODY)
        fresh = (q for q in prefs(p) if q not in old)
        return chain(fresh, (q for q in prefs(p) if q in old)) if allow else fresh

    bit = {p: 1 << i for i, p in enumerate(players)}
    completable = None if allow else _Completable(players, met)
    available = set(players)
    mask = (1 << len(players)) - 1
    result: list[tuple[P, P]] = []
    # One frame per player being paired: its index in ``players`` and its remaining candidates.
    frames: list[tuple[int, Iterator[P]]] = []
    budget = SEARCH_BUDGET
    start = 0
    while True:
        while start < len(players) and players[start] not in available:
            start += 1
        if start == len(players):
            return result
        budget -= 1
        if budget < 0:
            return None
        available.discard(players[start])
        mask ^= bit[players[start]]
        frames.append((start, candidates(players[start])))
        while frames:
            index, options = frames[-1]
            p = players[index]
            if len(result) == len(frames):
                undone = result.pop()[1]
                available.add(undone)
                mask |= bit[undone]
            chosen = next(
                (
                    q
                    for q in options
                    if q in available and (completable is None or completable(mask & ~bit[q]))
                ),
                None,
            )
            if chosen is not None:
                available.discard(chosen)
                mask ^= bit[chosen]
                result.append((p, chosen))
                start = index + 1
                break
            frames.pop()
            available.add(p)
            mask |= bit[p]
        else:
            return None


def ranked_active(t: Tournament) -> list[int]:
    """formats.ranked_active at f592fb7: active entrants by standings once games were played, else by seeding."""
    active = set(t.active())
    seed_pos = {e: i for i, e in enumerate(t.seeding)}
    if not any(rnd.tables for rnd in t.rounds):
        return sorted(active, key=lambda e: seed_pos.get(e, len(seed_pos) + e))
    order = {int(row.entrant): (row.rank, seed_pos.get(int(row.entrant), 0)) for row in formats.standings(t)}
    return sorted(active, key=lambda e: order.get(e, (10**6, e)))


def next_round(t: Tournament) -> formats.Pairing:
    """The two-player Swiss branch of formats.next_round at f592fb7: each pair as the search found it,
    the better-ranked player first (so in seat 0)."""
    number = len(t.rounds) + 1
    ranked = ranked_active(t)
    had_bye = {e for rnd in t.rounds for e in rnd.byes}
    met = {k: set(v) for k, v in formats._met(t).items()}
    first = formats.criteria(t)[0]
    scores = {int(r.entrant): float(r.values[first]) for r in formats.standings(t)}
    pairs, bye = pair_round(ranked, scores, met, had_bye)
    tables = [(f"R{number}-T{i + 1}", [int(a), int(b)]) for i, (a, b) in enumerate(pairs)]
    return formats.Pairing(number, tables, [int(bye)] if bye is not None else [])
