"""The local search of the multi-player Swiss above the exact search's reach (``tables.py``): swaps,
three-way rotations and regroupings of nearby tables, each taken while it lowers the objective."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any, TypeVar

from tournaments.pairing.objective import Objective

P = TypeVar("P")

#: How far apart in the ranking two players may be and still be swapped (each side).
WINDOW = 64
#: Fields up to this many players also try three-way rotations after the swaps.
ROTATIONS_UP_TO = 48
#: Passes of the regrouping in one round (a guard; the fields measured settle within a few).
REGROUP_PASSES = 50
#: Tables are regrouped only if together they seat at most this many players.
REGROUP_PLAYERS = 12
#: How many tables apart (in ranking order) two tables of a regrouping may be.
REGROUP_REACH = 3
#: Improving moves the local search may make in one round (a guard).
MOVES = 20_000

_EMPTY: Mapping[Any, int] = {}


class Search:
    """Swaps (and on small fields three-way rotations) of players between tables, lowering the cost.

    A swap's effect is worked out from each table without the player leaving it (``_without``: its
    lowest and highest score, levels, fewest first seats, the repeats the player has there), kept per
    player until the table changes, so trying a partner costs a few look-ups.
    """

    def __init__(self, ranked: Sequence[Any], tables: list[list[Any]], objective: Objective) -> None:
        self.ranked = list(ranked)
        self.place = {p: i for i, p in enumerate(ranked)}
        self.tables = tables
        self.cost = objective
        self.score = objective.scores
        self.first = objective.first
        self.met = objective.met
        self.level = objective.level
        self.where = {p: k for k, t in enumerate(tables) for p in t}
        self.costs = [objective(t) for t in tables]
        self.repeats = [objective.repeats(t) for t in tables]
        self.without: dict[Any, tuple[list[Any], float, float, int, int, int, int, bool]] = {}
        for table in tables:
            self._index(table)
        self.moves = MOVES

    def _index(self, table: list[Any]) -> None:
        """For each player of ``table``: the others and their figures, and the player's repeats there."""
        leader = self.cost.leader
        for p in table:
            rest = [q for q in table if q != p]
            values = [self.score[q] for q in rest]
            self.without[p] = (
                rest,
                min(values),
                max(values),
                max(self.level[q][0] for q in rest),
                min(self.level[q][1] for q in rest),
                min(self.first.get(q, 0) for q in rest),
                _share(p, rest, self.met),
                leader is not None and leader in rest,
            )

    def troubled(self, k: int) -> bool:
        table = self.tables[k]
        return bool(self.repeats[k] or self.cost.over_cap(table) or self.cost.excess(table))

    def run(self) -> None:
        queue = [k for k in range(len(self.tables)) if self.troubled(k)]
        self._descend(queue)
        if len(self.ranked) <= ROTATIONS_UP_TO:
            while self.moves > 0 and self._rotate():
                self._descend([k for k in range(len(self.tables)) if self.troubled(k)])

    def _with(self, k: int, out: Any, into: Any) -> list[Any]:
        return [into if p == out else p for p in self.tables[k]]

    def _descend(self, queue: list[int]) -> None:
        """Best swap for each player of a queued table; a table changed goes back in the queue."""
        queued = set(queue)
        while queue and self.moves > 0:
            a = queue.pop(0)
            queued.discard(a)
            for x in list(self.tables[a]):
                best = self._best_swap(a, x)
                if best is None:
                    continue
                y, b = best
                self._apply({a: self._with(a, x, y), b: self._with(b, y, x)})
                for k in (a, b):
                    if k not in queued:
                        queue.append(k)
                        queued.add(k)
                break  # table a changed: look at it again from the queue

    def _after(
        self, joining: Any, figures: tuple[list[Any], float, float, int, int, int, int, bool]
    ) -> float:
        """The cost of a table made of the rest in ``figures`` and ``joining``."""
        rest, lo, hi, top, bottom, fewest, repeats, leader = figures
        s = self.score[joining]
        jl = self.level[joining]
        return self.cost.parts(
            min(lo, s),
            max(hi, s),
            max(top, jl[0]),
            min(bottom, jl[1]),
            min(fewest, self.first.get(joining, 0)),
            repeats + _share(joining, rest, self.met),
            leader or joining == self.cost.leader and self.cost.leader is not None,
        )

    def _best_swap(self, a: int, x: Any) -> tuple[Any, int] | None:
        i = self.place[x]
        lo, hi = max(0, i - WINDOW), min(len(self.ranked), i + WINDOW + 1)
        fig_a = self.without[x]
        base_a = (*fig_a[:6], self.repeats[a] - fig_a[6], fig_a[7])
        w = self.cost.weights
        limit = self.cost.limit
        level = self.level
        best: tuple[Any, int] | None = None
        gain = 1e-9
        a_within = self.costs[a] < w.span
        lx = level[x]
        for y in self.ranked[lo:hi]:
            b = self.where[y]
            if b == a:
                continue
            # A swap that takes a table within the span past it is never better (the span outweighs
            # everything else): most candidates stop here.
            ly = level[y]
            if a_within and max(base_a[3], ly[0]) - min(base_a[4], ly[1]) > limit:
                continue
            fig_b = self.without[y]
            if max(fig_b[3], lx[0]) - min(fig_b[4], lx[1]) > limit and self.costs[b] < w.span:
                continue
            base_b = (*fig_b[:6], self.repeats[b] - fig_b[6], fig_b[7])
            delta = self.costs[a] + self.costs[b] - self._after(y, base_a) - self._after(x, base_b)
            if delta > gain:
                gain, best = delta, (y, b)
        return best

    def _apply(self, changes: Mapping[int, list[Any]]) -> None:
        for k, table in changes.items():
            self.tables[k][:] = table
            self.costs[k] = self.cost(table)
            self.repeats[k] = self.cost.repeats(table)
            for p in table:
                self.where[p] = k
            self._index(self.tables[k])
        self.moves -= 1

    def _fits(self, joining: Any, leaving: Any) -> bool:
        """Whether ``joining`` may take ``leaving``'s place within the span (a table already past it
        may take anyone: the cost decides)."""
        rest = self.without[leaving]
        level = self.level[joining]
        if max(rest[3], level[0]) - min(rest[4], level[1]) <= self.cost.limit:
            return True
        return self.costs[self.where[leaving]] >= self.cost.weights.span

    def _rotate(self) -> bool:
        """The first three-way rotation that lowers the cost, applied; False when there is none.
        x (at a troubled table a) goes to y's table b, y to z's table c, z to a."""
        n = len(self.tables)
        for a in range(n):
            if not self.troubled(a):
                continue
            for x in self.tables[a]:
                for b in range(n):
                    if b == a:
                        continue
                    for y in self.tables[b]:
                        if not self._fits(x, y):
                            continue
                        for c in range(n):
                            if c in (a, b):
                                continue
                            for z in self.tables[c]:
                                if not (self._fits(y, z) and self._fits(z, x)):
                                    continue
                                after = {
                                    a: self._with(a, x, z),
                                    b: self._with(b, y, x),
                                    c: self._with(c, z, y),
                                }
                                before = self.costs[a] + self.costs[b] + self.costs[c]
                                if sum(self.cost(t) for t in after.values()) < before - 1e-9:
                                    self._apply(after)
                                    return True
        return False


def _share(p: Any, others: Sequence[Any], met: Mapping[Any, Mapping[Any, int]]) -> int:
    """The repeats ``p`` has with ``others`` (pairs read as ``Objective.repeats`` reads them: both ways
    round, so a one-sided ``met`` counts the same)."""
    mine = met.get(p, _EMPTY)
    return sum(mine.get(q, 0) or met.get(q, _EMPTY).get(p, 0) for q in others)


def regroup(ranked: Sequence[P], tables: list[list[P]], cost: Objective) -> None:
    """Large-neighbourhood descent after the swaps: the players of two (then three) tables near each
    other are cut again into tables of the same sizes in the cheapest way, until no such regrouping
    lowers the cost. Swaps move one player each way; a better seating often needs several to move at
    once (a chain down the score groups), which is what leaves the swaps' spread high at tables of 3."""
    place = {p: i for i, p in enumerate(ranked)}
    costs = [cost(t) for t in tables]
    known: dict[tuple[P, ...], float] = {}  # the same groups come up again pass after pass

    def priced(group: tuple[P, ...]) -> float:
        if group not in known:
            known[group] = cost(group)
        return known[group]

    improved, passes = True, 0
    while improved and passes < REGROUP_PASSES:
        improved, passes = False, passes + 1
        lead = [min(place[p] for p in t) for t in tables]
        order = sorted(range(len(tables)), key=lead.__getitem__)
        for k in (2, 3):
            for chosen in combinations(range(len(order)), k):
                slots = [order[i] for i in chosen]
                if (
                    chosen[-1] - chosen[0] > REGROUP_REACH
                    or sum(len(tables[i]) for i in slots) > REGROUP_PLAYERS
                ):
                    continue
                players = sorted((p for i in slots for p in tables[i]), key=place.__getitem__)
                before = sum(costs[i] for i in slots)
                best = _cheapest_cut(players, [len(tables[i]) for i in slots], priced, before - 1e-9)
                if best is None:
                    continue
                # Each table keeps its slot and size; of equal sizes the better-ranked group takes the
                # better-ranked slot, so the tables stay in ranking order.
                by_size: dict[int, list[list[P]]] = {}
                for g in sorted(best, key=lambda g: place[g[0]]):
                    by_size.setdefault(len(g), []).append(g)
                for i in sorted(slots, key=lead.__getitem__):
                    tables[i][:] = by_size[len(tables[i])].pop(0)
                    costs[i] = cost(tables[i])
                    lead[i] = place[tables[i][0]]
                improved = True


def _cheapest_cut(
    players: list[P], sizes: list[int], cost: Callable[[tuple[P, ...]], float], bound: float
) -> list[list[P]] | None:
    """The cheapest way to cut ``players`` (in ranking order) into groups of ``sizes`` if it costs less
    than ``bound``, else None: each group is led by its best-ranked player, so every cut is seen once,
    and a partial cut is dropped as soon as it costs ``bound`` (costs are never negative)."""
    best: list[list[P]] | None = None
    chosen: list[list[P]] = []

    def branch(left: list[P], sizes_left: list[int], spent: float) -> None:
        nonlocal best, bound
        if not left:
            best, bound = [list(g) for g in chosen], spent
            return
        head, rest = left[0], left[1:]
        for n in sorted(set(sizes_left), reverse=True):
            remaining = list(sizes_left)
            remaining.remove(n)
            for others in combinations(rest, n - 1):
                group = (head, *others)
                c = spent + cost(group)
                if c >= bound:
                    continue
                chosen.append(list(group))
                taken = set(others)
                branch([p for p in rest if p not in taken], remaining, c)
                chosen.pop()

    branch(players, sizes, 0.0)
    return best
