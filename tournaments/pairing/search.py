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
        # Who met whom, read as ``Objective.repeats`` reads a pair (either way round): pair[p][q].
        self.pair: dict[Any, dict[Any, int]] = {}
        for p, row in objective.met.items():
            for q, n in row.items():
                if n:
                    self.pair.setdefault(p, {})[q] = n
                    self.pair.setdefault(q, {}).setdefault(p, n)
        # The same by the second player: met_by[q][p] = pair[p][q].
        self.met_by: dict[Any, dict[Any, int]] = {}
        for p, row in self.pair.items():
            for q, n in row.items():
                self.met_by.setdefault(q, {})[p] = n
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

    def _best_swap(self, a: int, x: Any) -> tuple[Any, int] | None:
        """The partner within ``WINDOW`` places whose swap with ``x`` lowers the cost most, and its
        table. Each candidate is priced from the figures of both tables without the two players
        (``_index``) and two counts worked out once per call: how often each player met the rest of
        table a, and how often ``x`` met the players of each table. The arithmetic is
        ``Objective.parts``', term for term, so the costs are the same floats."""
        i = self.place[x]
        lo, hi = max(0, i - WINDOW), min(len(self.ranked), i + WINDOW + 1)
        rest_a, lo_a, hi_a, top_a, bottom_a, fewest_a, x_there, leader_a = self.without[x]
        repeats_a = self.repeats[a] - x_there
        where, without = self.where, self.without
        # Repeats a player would have at table a (with its rest); repeats x has at each table.
        with_a: dict[Any, int] = {}
        for q in rest_a:
            for y, n in self.met_by.get(q, _EMPTY).items():
                with_a[y] = with_a.get(y, 0) + n
        x_met = self.pair.get(x, _EMPTY)
        x_at: dict[int, int] = {}
        for q, n in x_met.items():
            k = where.get(q)  # None: not seated this round (withdrawn)
            if k is not None:
                x_at[k] = x_at.get(k, 0) + n
        objective = self.cost
        w = objective.weights
        w_span, w_over, w_repeat, w_spread, w_even = w.span, w.over, w.repeat, w.spread, w.even
        limit, cap, lead = objective.limit, objective.cap, objective.leader
        level, score, first, costs = self.level, self.score, self.first, self.costs
        cost_a = costs[a]
        a_within = cost_a < w_span
        lx0, lx1 = level[x]
        sx = score[x]
        fx = first.get(x, 0)
        x_leads = lead is not None and x == lead
        best: tuple[Any, int] | None = None
        gain = 1e-9
        for y in self.ranked[lo:hi]:
            b = where[y]
            if b == a:
                continue
            # A swap that takes a table within the span past it is never better (the span outweighs
            # everything else): most candidates stop here.
            ly0, ly1 = level[y]
            top = top_a if top_a >= ly0 else ly0
            bottom = bottom_a if bottom_a <= ly1 else ly1
            if a_within and top - bottom > limit:
                continue
            _rest_b, lo_b, hi_b, top_b, bottom_b, fewest_b, y_there, leader_b = without[y]
            top2 = top_b if top_b >= lx0 else lx0
            bottom2 = bottom_b if bottom_b <= lx1 else lx1
            cost_b = costs[b]
            if top2 - bottom2 > limit and cost_b < w_span:
                continue
            # Table a with y for x.
            sy = score[y]
            fy = first.get(y, 0)
            fewest = fewest_a if fewest_a <= fy else fy
            wide = top - bottom - limit
            excess = (wide if wide > 0 else 0) + (top if leader_a or (lead is not None and y == lead) else 0)
            over = fewest + 1 - cap
            after_a = (
                w_span * excess
                + w_over * (over if over > 0 else 0)
                + w_repeat * (repeats_a + with_a.get(y, 0))
                + w_spread * ((hi_a if hi_a >= sy else sy) - (lo_a if lo_a <= sy else sy))
                + w_even * fewest
            )
            # Table b with x for y.
            fewest2 = fewest_b if fewest_b <= fx else fx
            wide = top2 - bottom2 - limit
            excess = (wide if wide > 0 else 0) + (top2 if leader_b or x_leads else 0)
            over = fewest2 + 1 - cap
            after_b = (
                w_span * excess
                + w_over * (over if over > 0 else 0)
                + w_repeat * (self.repeats[b] - y_there + x_at.get(b, 0) - x_met.get(y, 0))
                + w_spread * ((hi_b if hi_b >= sx else sx) - (lo_b if lo_b <= sx else sx))
                + w_even * fewest2
            )
            delta = cost_a + cost_b - after_a - after_b
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
