"""Multi-player Swiss: who sits at which table, and in which seat (issue #19).

Players come ranked (best first), with their score (the first criterion of the standings) and
``met``, how often each pair already sat at one table. A round is seated in three steps:

1. **Table sizes**: as few tables as the tournament's size allows, balanced within one seat
   (``table_sizes``). Which score groups get the short tables rotates by round (``layout``): round 1
   puts them at the bottom, round 2 at the top, and so on down the field, so the short tables are not
   always the bottom score group's.
2. **Who sits together**: the ranking is cut into tables of that layout, then a local search swaps
   players between any two tables while that lowers the cost (``Objective``):

       cost = Σ over tables [ repeat_weight · repeats + spread + first_seat_weight · over_cap ]

   - *repeats*: the pairs at the table that met before, counted as often as they met;
   - *spread*: the highest score at the table minus the lowest (score-homogeneous tables);
   - *over_cap*: how far the table's first seat would take its player past the cap of
     ⌈round / size⌉ + 1 first seats (someone must act first at every table: a table whose players all
     reached the cap is avoided whenever the field allows it).

   ``repeat_weight`` is ``REPEATS`` rounds' worth of points (a round's worth: ``unit``, by default
   the points a table's winner scores, size − 1), so one repeat is accepted only where avoiding it
   would put players more than that many points apart. The search starts from the tables with a
   repeat or over the cap; for each of their players it takes the best swap with anyone at another
   table within ``WINDOW`` places in the ranking (the whole field up to ``WINDOW + 1`` players), and
   looks again at both tables it changed, until no swap helps. Small fields then try three-way
   rotations (x to y's table, y to z's, z to x's), which reach seatings no single swap does; fields
   up to ``REGROUP_UP_TO`` are then regrouped: the players of any two or three tables close in the
   ranking (at most ``REGROUP_PLAYERS`` of them) are cut again in the cheapest way, until no
   regrouping helps (several players move at once: at tables of 3 this takes a tenth to more than a
   quarter off the spread the swaps leave, at about the same repeats). The smallest (``EXACT_UP_TO``)
   are finished by an exhaustive branch and bound: the cheapest seating.
   Everything is deterministic: the same standings give the same tables.
3. **Seat order**: seat 0 acts first, so it goes to whoever acted first least often (then to whoever
   sat earliest least, then by pairing number); the others follow by how early they sat before
   (the latest first), so the acting order is balanced too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, TypeVar

P = TypeVar("P", bound=Hashable)

#: A repeat meeting costs this many rounds' worth of score spread.
REPEATS = 1.5
#: Going past the first-seat cap costs this many repeats: in practice never, while the field allows.
FIRST_SEAT = 100
#: How far apart in the ranking two players may be and still be swapped (each side).
WINDOW = 64
#: Fields up to this many players also try three-way rotations after the swaps.
ROTATIONS_UP_TO = 48
#: Fields up to this many players are then regrouped: the players of every two, then every three tables
#: at most ``REGROUP_REACH`` apart (by their best-ranked player) are cut again in the cheapest way.
REGROUP_UP_TO = 24
#: Passes of the regrouping in one round (a guard; the fields measured settle within a few).
REGROUP_PASSES = 50
#: Tables are regrouped only if together they seat at most this many players (three tables of five
#: have too many cuts to try every round).
REGROUP_PLAYERS = 12
#: How many tables apart (in ranking order) two tables of a regrouping may be.
REGROUP_REACH = 3
#: Fields up to this many players are then searched exhaustively (branch and bound): the best seating.
EXACT_UP_TO = 12
#: Improving moves the search may make in one round (a guard; far above what any field needs).
MOVES = 20_000

_EMPTY: Mapping[Any, int] = {}


@dataclass(frozen=True)
class History:
    """What the seating needs to know of the past rounds besides who met whom.

    ``round``: the round being seated (1-based); ``first``: how many tables each player sat at seat 0
    of; ``early``: the sum over past tables of how early each sat (seat 0 of n: 1, the last seat: 0,
    evenly between); ``number``: pairing numbers (the seeding), the last tie-break of the seat order
    (by default the place in the ranking).
    """

    round: int = 1
    first: Mapping[Any, int] = field(default_factory=dict)
    early: Mapping[Any, Fraction] = field(default_factory=dict)
    number: Mapping[Any, int] = field(default_factory=dict)


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


def layout(count: int, size: int, round_number: int = 1, smallest: int = 2) -> list[int]:
    """The table sizes from the top of the ranking down for this round: ``table_sizes`` with the short
    tables moved by round. Round 1 has them at the bottom; each later round moves them down by as many
    tables as there are short ones (wrapping round to the top), so over rounds every score level gets
    its turn at a short table."""
    sizes = table_sizes(count, size, smallest)
    short = sum(1 for s in sizes if s < sizes[0])
    shift = ((round_number - 1) * short) % len(sizes)
    return sizes[-shift:] + sizes[:-shift] if shift else sizes


def first_seat_cap(round_number: int, size: int) -> int:
    """The most first seats anyone should have after ``round_number`` rounds at tables of ``size``."""
    return math.ceil(round_number / size) + 1


@dataclass(frozen=True)
class Objective:
    """The cost of one table (see the module's docstring); the search minimises the sum."""

    scores: Mapping[Any, float]
    met: Mapping[Any, Mapping[Any, int]]
    first: Mapping[Any, int]
    repeat_weight: float
    cap: int

    def repeats(self, table: Sequence[Hashable]) -> int:
        met = self.met
        return sum(
            met.get(a, _EMPTY).get(b, 0) or met.get(b, _EMPTY).get(a, 0) for a, b in combinations(table, 2)
        )

    def spread(self, table: Sequence[Hashable]) -> float:
        values = [self.scores[p] for p in table]
        return max(values) - min(values)

    def over_cap(self, table: Sequence[Hashable]) -> int:
        return max(0, min(self.first.get(p, 0) for p in table) + 1 - self.cap)

    def __call__(self, table: Sequence[Hashable]) -> float:
        return (
            self.repeat_weight * self.repeats(table)
            + self.spread(table)
            + FIRST_SEAT * self.repeat_weight * self.over_cap(table)
        )


def seat_tables(
    ranked: Sequence[P],
    size: int,
    scores: Mapping[Any, float],
    met: Mapping[Any, Mapping[Any, int]],
    smallest: int = 2,
    history: History | None = None,
    unit: float | None = None,
) -> list[list[P]]:
    """Tables for one multi-player Swiss round, each in seat order (seat 0 acts first).

    ``met[a][b]``: how often a and b sat at one table; ``unit``: a round's worth of score (by default
    ``size - 1``, a table winner's placement points).
    """
    if len(set(ranked)) != len(ranked):
        raise ValueError("players must be distinct")
    history = history or History()
    sizes = layout(len(ranked), size, history.round, smallest)
    score = {p: float(scores.get(p, 0)) for p in ranked}
    objective = Objective(
        scores=score,
        met=met,
        first=history.first,
        repeat_weight=REPEATS * (unit if unit is not None else size - 1),
        cap=first_seat_cap(history.round, size),
    )
    tables: list[list[P]] = []
    start = 0
    for n in sizes:
        tables.append(list(ranked[start : start + n]))
        start += n
    if len(tables) > 1 and min(sizes) > 1:  # otherwise there is nothing to swap
        _Search(ranked, tables, objective).run()
        if len(ranked) <= REGROUP_UP_TO:
            _regroup(ranked, tables, objective)
        if len(ranked) <= EXACT_UP_TO:
            tables = _exact(ranked, sizes, objective, tables)
    number = {p: history.number.get(p, i) for i, p in enumerate(ranked)}
    return [seat_order(t, history, number) for t in tables]


def seat_order(table: Sequence[P], history: History, number: Mapping[Any, int]) -> list[P]:
    """Seat 0 to whoever acted first least often (then sat earliest least, then the lower pairing
    number); the others from the one who sat latest before to the one who sat earliest."""
    zero = Fraction(0)

    def lateness(p: P) -> tuple[Fraction, int]:
        return history.early.get(p, zero), number[p]

    first = min(table, key=lambda p: (history.first.get(p, 0), *lateness(p)))
    return [first, *sorted((p for p in table if p != first), key=lateness)]


class _Search:
    """Swaps (and on small fields three-way rotations) of players between tables, lowering the cost.

    A swap's effect is worked out from each table without the player leaving it (``_without``: the
    lowest and highest score, the fewest first seats, the repeats the player has there), kept per
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
        self.where = {p: k for k, t in enumerate(tables) for p in t}
        self.costs = [objective(t) for t in tables]
        self.repeats = [objective.repeats(t) for t in tables]
        self.without: dict[Any, tuple[list[Any], float, float, int, int]] = {}
        for table in tables:
            self._index(table)
        self.moves = MOVES

    def _index(self, table: list[Any]) -> None:
        """For each player of ``table``: the others, their lowest and highest score, their fewest first
        seats, and the repeats the player has with them."""
        for p in table:
            rest = [q for q in table if q != p]
            values = [self.score[q] for q in rest]
            fewest = min(self.first.get(q, 0) for q in rest)
            self.without[p] = (rest, min(values), max(values), fewest, _share(p, rest, self.met))

    def troubled(self, k: int) -> bool:
        table = self.tables[k]
        return bool(self.repeats[k] or self.cost.over_cap(table))

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

    def _after(self, joining: Any, rest: list[Any], lo: float, hi: float, fewest: int, repeats: int) -> float:
        """The cost of a table made of ``rest`` (its figures given) and ``joining``."""
        s = self.score[joining]
        over = max(0, min(fewest, self.first.get(joining, 0)) + 1 - self.cost.cap)
        return (
            self.cost.repeat_weight * (repeats + _share(joining, rest, self.met))
            + (max(hi, s) - min(lo, s))
            + FIRST_SEAT * self.cost.repeat_weight * over
        )

    def _best_swap(self, a: int, x: Any) -> tuple[Any, int] | None:
        i = self.place[x]
        lo, hi = max(0, i - WINDOW), min(len(self.ranked), i + WINDOW + 1)
        rest_a, lo_a, hi_a, few_a, share_x = self.without[x]
        base_a = self.repeats[a] - share_x
        weight, score, s_x = self.cost.repeat_weight, self.score, self.score[x]
        best: tuple[Any, int] | None = None
        gain = 1e-9
        for y in self.ranked[lo:hi]:
            b = self.where[y]
            if b == a:
                continue
            rest_b, lo_b, hi_b, few_b, share_y = self.without[y]
            base_b = self.repeats[b] - share_y
            # First a bound from the spreads alone (the repeats of the players who stay cannot go):
            # most candidates stop here, before any look-up of who met whom.
            s_y = score[y]
            floor = (
                weight * (base_a + base_b) + max(hi_a, s_y) - min(lo_a, s_y) + max(hi_b, s_x) - min(lo_b, s_x)
            )
            if self.costs[a] + self.costs[b] - floor <= gain:
                continue
            delta = (
                self.costs[a]
                + self.costs[b]
                - self._after(y, rest_a, lo_a, hi_a, few_a, base_a)
                - self._after(x, rest_b, lo_b, hi_b, few_b, base_b)
            )
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
                        for c in range(n):
                            if c in (a, b):
                                continue
                            for z in self.tables[c]:
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


def _regroup(ranked: Sequence[P], tables: list[list[P]], cost: Objective) -> None:
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


def _exact(ranked: Sequence[P], sizes: list[int], cost: Objective, found: list[list[P]]) -> list[list[P]]:
    """The cheapest seating of a small field, by branch and bound over every way to cut it into tables of
    ``sizes`` (in any order); ``found`` (the local search's) stands unless something costs less. Tables
    come back in the order of ``sizes``, each led by its best-ranked player."""
    best = _cheapest_cut(list(ranked), list(sizes), cost, sum(cost(t) for t in found) - 1e-9)
    if best is None:
        return found
    # Give each table its slot in the layout: by size, best-ranked first (the short tables keep their
    # rotation's place as far as the scores allow).
    slots: dict[int, list[list[P]]] = {}
    for table in sorted(best, key=lambda t: min(ranked.index(p) for p in t)):
        slots.setdefault(len(table), []).append(table)
    return [slots[n].pop(0) for n in sizes]
