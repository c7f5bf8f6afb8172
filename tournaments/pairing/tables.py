"""Multi-player Swiss: who sits at which table, and in which seat (issues #19, #31).

Players come ranked (best first), with their score (the first criterion of the standings) and
``met``, how often each pair already sat at one table. The seating is "by standings", as Board Game
Arena and "power pods" seat:

1. **Table sizes**: as few tables as the tournament's size allows, balanced within one seat
   (``table_sizes``); which places of the ranking get the short tables rotates by round (``layout``).
2. **Standings-tables**: the ranking cut into tables of that layout, in order. Equal scores are
   interchangeable, so a player's *level* is a range: the standings-tables its score group covers
   (``levels``). A table's **span** is how many standings-tables apart its players are (the smallest
   over the choices equal scores allow: the highest "lowest level" minus the lowest "highest level").
3. **Who sits together**, lowest first, each criterion only breaking the ties of those before it
   (``Objective``):

   - **span ≤ 1** (``limit``; 2 with the organiser's "wider tables for fewer repeats"): a table holds
     players of at most two adjacent standings-tables. In the **last round** the table of the leader
     holds players of the top standings-table only (the leaders meet, whoever met before);
   - the fewest **repeats** (pairs at a table that met before, as often as they met);
   - nobody past the cap of first seats (``first_seat_cap``: ⌈rounds × tables / entrants⌉, which is
     ⌈rounds / size⌉ when every table is full) while the field allows;
   - the least **score spread** (highest minus lowest score, summed over the tables);
   - first seats as even as possible (each table's fewest first seats, summed).

   The criteria are weighed so that each one outweighs everything below it (``Weights``).
4. **The search**. Fields up to ``EXACT_UP_TO`` entrants are seated at the exact optimum of the
   objective (``_exact``: a dynamic programme over the players still to seat, taking the tables in
   ranking order with the layout's sizes; the span leaves each table few candidates). Above that: the
   cut into standings-tables, then a local search (``search.Search``: the best swap of each player of a
   table with a repeat, over the cap or past the span, with anyone within ``WINDOW`` places; three-way
   rotations up to ``ROTATIONS_UP_TO``), then regrouping up to ``REGROUP_UP_TO`` (the players of two or
   three nearby tables cut again in the cheapest way). Deterministic: the same standings, the same
   tables.
5. **Seat order**: seat 0 acts first, so it goes to whoever acted first least often (then to whoever
   sat earliest least, then by pairing number); the others follow by how early they sat before.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any, TypeVar

from tournaments.pairing.objective import Objective, Weights
from tournaments.pairing.search import REGROUP_REACH, Search, regroup

__all__ = [
    "REGROUP_REACH",
    "History",
    "Objective",
    "Seating",
    "Weights",
    "layout",
    "levels",
    "seat",
    "seat_tables",
]

P = TypeVar("P", bound=Hashable)

#: The organiser's choice of seating: by standings (span ≤ 1) or wider tables for fewer repeats (≤ 2).
SPANS = {"standings": 1, "wider": 2}
#: Fields up to this many players are then regrouped (two or three nearby tables cut again).
REGROUP_UP_TO = 64
#: How far (in tables' worth of ranking places, each side) a first seat that caps a player looks for
#: players still under the cap (``seat_orders``).
FIRST_SEAT_REACH = 2
#: Fields up to this many players are seated at the exact optimum.
EXACT_UP_TO = 24
#: Candidate tables the exact search may price in one round (a guard, far above the fields measured:
#: past it the local search's seating stands, and ``seat_tables.exact`` says so).
EXACT_BUDGET = 2_000_000

_EMPTY: Mapping[Any, int] = {}


@dataclass(frozen=True)
class History:
    """What the seating needs to know of the past rounds besides who met whom.

    ``round``: the round being seated (1-based); ``rounds``: the event's length (None: unknown, the
    round being seated is taken as the last but nothing is forced); ``first``: how many tables each
    player sat at seat 0 of; ``early``: the sum over past tables of how early each sat (seat 0 of n: 1,
    the last seat: 0); ``number``: pairing numbers (the seeding), the last tie-break of the seat order.
    """

    round: int = 1
    first: Mapping[Any, int] = field(default_factory=dict)
    early: Mapping[Any, Fraction] = field(default_factory=dict)
    number: Mapping[Any, int] = field(default_factory=dict)
    rounds: int | None = None


def table_sizes(count: int, size: int, smallest: int = 2, larger: bool = False) -> list[int]:
    """Table sizes for ``count`` players at tables of at most ``size``: as few tables as possible,
    sizes within one seat of each other, bigger tables first. ``larger`` (the organiser's choice):
    where the count does not divide, tables of one more instead (18 at 4: 5, 5, 4, 4), when there are
    enough tables to take the extra players."""
    if larger and size >= smallest:
        tables, extra = divmod(count, size)
        if tables and extra <= tables:
            return [size + 1] * extra + [size] * (tables - extra)
    if count < smallest or size < smallest:
        raise ValueError(f"{count} players cannot fill tables of {smallest} to {size}")
    tables = -(-count // size)
    base, extra = divmod(count, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if min(sizes) < smallest:
        raise ValueError(f"{count} players cannot be seated at tables of {smallest} to {size}")
    return sizes


def layout(
    count: int, size: int, round_number: int = 1, smallest: int = 2, larger: bool = False
) -> list[int]:
    """The table sizes from the top of the ranking down for this round: ``table_sizes`` with the short
    tables moved by round. Round 1 has them at the bottom; each later round moves them down by as many
    tables as there are short ones (wrapping round to the top)."""
    sizes = table_sizes(count, size, smallest, larger)
    short = sum(1 for s in sizes if s != sizes[-1]) if larger else sum(1 for s in sizes if s < sizes[0])
    shift = ((round_number - 1) * short) % len(sizes)
    return sizes[-shift:] + sizes[:-shift] if shift else sizes


def first_seat_cap(rounds: int, tables: int, count: int) -> int:
    """The most first seats anyone needs over ``rounds`` rounds of ``tables`` tables among ``count``
    players: ⌈rounds × tables / count⌉ (⌈rounds / size⌉ when every table is full)."""
    return max(1, math.ceil(rounds * tables / max(1, count)))


def levels(
    ranked: Sequence[P], scores: Mapping[Any, float], sizes: Sequence[int]
) -> dict[P, tuple[int, int]]:
    """Each player's standings-tables: the range of tables (0 the top) that the places of its score
    group fall in when the ranking is cut into tables of ``sizes``."""
    table_of: list[int] = []
    for k, n in enumerate(sizes):
        table_of += [k] * n
    out: dict[P, tuple[int, int]] = {}
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and scores[ranked[j + 1]] == scores[ranked[i]]:
            j += 1
        for p in ranked[i : j + 1]:
            out[p] = (table_of[i], table_of[j])
        i = j + 1
    return out


@dataclass
class Seating:
    """One round's tables (each in seat order) and how they were found: ``exact`` when the exact
    search proved them the optimum of the objective."""

    tables: list[list[Any]]
    exact: bool


def seat_tables(
    ranked: Sequence[P],
    size: int,
    scores: Mapping[Any, float],
    met: Mapping[Any, Mapping[Any, int]],
    smallest: int = 2,
    history: History | None = None,
    span: int = 1,
    larger: bool = False,
) -> list[list[P]]:
    """Tables for one multi-player Swiss round, each in seat order (seat 0 acts first).

    ``met[a][b]``: how often a and b sat at one table; ``span``: how many standings-tables apart a
    table's players may be (1 by standings, 2 for wider tables)."""
    return seat(ranked, size, scores, met, smallest, history, span, larger=larger).tables


def seat(
    ranked: Sequence[P],
    size: int,
    scores: Mapping[Any, float],
    met: Mapping[Any, Mapping[Any, int]],
    smallest: int = 2,
    history: History | None = None,
    span: int = 1,
    exact_up_to: int | None = None,
    larger: bool = False,
) -> Seating:
    """``seat_tables`` with whether the exact search settled the round (``exact_up_to``: another
    bound than ``EXACT_UP_TO``, for the benchmark's per-round optimum)."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("players must be distinct")
    history = history or History()
    sizes = layout(len(ranked), size, history.round, smallest, larger)
    objective = objective_for(ranked, sizes, size, scores, met, history, span)
    tables: list[list[P]] = []
    start = 0
    for n in sizes:
        tables.append(list(ranked[start : start + n]))
        start += n
    exact = len(tables) <= 1
    if len(tables) > 1:
        limit = EXACT_UP_TO if exact_up_to is None else exact_up_to
        found = _exact(ranked, sizes, objective) if len(ranked) <= limit else None
        if found is not None:
            tables, exact = found, True
        else:
            Search(ranked, tables, objective).run()
            if len(ranked) <= REGROUP_UP_TO:
                regroup(ranked, tables, objective)
    place = {p: i for i, p in enumerate(ranked)}
    tables.sort(key=lambda t: min(place[p] for p in t))
    number = {p: history.number.get(p, i) for i, p in enumerate(ranked)}
    return Seating(seat_orders(tables, ranked, history, number, objective.cap, size), exact)


def objective_for(
    ranked: Sequence[Any],
    sizes: Sequence[int],
    size: int,
    scores: Mapping[Any, float],
    met: Mapping[Any, Mapping[Any, int]],
    history: History,
    span: int,
) -> Objective:
    score = {p: float(scores.get(p, 0)) for p in ranked}
    rounds = history.rounds or history.round
    last = history.rounds is not None and history.round >= history.rounds
    most = max((n for p in ranked for n in met.get(p, _EMPTY).values()), default=1)
    values = list(score.values())
    return Objective(
        scores=score,
        met=met,
        first=history.first,
        cap=first_seat_cap(rounds, len(sizes), len(ranked)),
        level=levels(ranked, score, sizes),
        limit=span,
        weights=Weights.of(len(ranked), len(sizes), size, max(values) - min(values), most, rounds),
        leader=ranked[0] if last and ranked else None,
    )


def seat_orders(
    tables: Sequence[Sequence[P]],
    ranked: Sequence[P],
    history: History,
    number: Mapping[Any, int],
    cap: int,
    size: int,
) -> list[list[P]]:
    """The round's tables (in ranking order) each in seat order, seat 0 chosen for them together.

    At each table seat 0 goes to whoever acted first least often, so nobody passes the cap where a
    table-mate is under it. When that first seat takes a player to the cap and several are equal, it
    goes to the one with the most players still under the cap near it in the ranking (within
    ``FIRST_SEAT_REACH`` tables' worth of places): later rounds seat players of near standings
    together, and a table whose players are all at the cap must give someone one more. Then as
    ``seat_order``."""
    firsts = {p: history.first.get(p, 0) for p in ranked}
    for table in tables:
        for p in table:
            firsts.setdefault(p, history.first.get(p, 0))
    place = {p: i for i, p in enumerate(ranked)}
    reach = FIRST_SEAT_REACH * size
    zero = Fraction(0)

    def lateness(p: P) -> tuple[Fraction, int]:
        return history.early.get(p, zero), number[p]

    def room(p: P, table: Sequence[P]) -> int:
        """Players under the cap within ``reach`` places of ``p``, its table-mates left out."""
        i = place.get(p)
        if i is None:
            return 0
        near = ranked[max(0, i - reach) : i + reach + 1]
        return sum(1 for q in near if firsts[q] < cap and q not in table)

    out = []
    for table in tables:
        fewest = min(firsts[p] for p in table)
        equal = [p for p in table if firsts[p] == fewest]
        if len(equal) > 1 and fewest + 1 == cap:
            first = min(equal, key=lambda p: (-room(p, table), *lateness(p)))
        else:
            first = min(equal, key=lateness)
        firsts[first] += 1
        out.append([first, *sorted((p for p in table if p != first), key=lateness)])
    return out


def seat_order(
    table: Sequence[P], history: History, number: Mapping[Any, int], first: P | None = None
) -> list[P]:
    """Seat 0 to ``first`` if given (a fixed schedule's plan), else to whoever acted first least often
    (then sat earliest least, then the lower pairing number); the others from the one who sat latest
    before to the one who sat earliest."""
    zero = Fraction(0)

    def lateness(p: P) -> tuple[Fraction, int]:
        return history.early.get(p, zero), number[p]

    if first is None:
        first = min(table, key=lambda p: (history.first.get(p, 0), *lateness(p)))
    return [first, *sorted((p for p in table if p != first), key=lateness)]


def _exact(ranked: Sequence[P], sizes: Sequence[int], cost: Objective) -> list[list[P]] | None:
    """The cheapest seating whose tables, taken by their best-ranked players, have ``sizes`` in order:
    a dynamic programme over the set of players still to seat (the best-ranked of them heads the next
    table; its table-mates are those the span allows). None past ``EXACT_BUDGET`` tables priced."""
    n = len(ranked)
    level = [cost.level[p] for p in ranked]
    limit = cost.limit
    # Who may sit with whom at all: a pair already past the span cannot be mended by a third player.
    ok = [
        [max(level[i][0], level[j][0]) - min(level[i][1], level[j][1]) <= limit for j in range(n)]
        for i in range(n)
    ]
    if cost.leader is not None:
        top = [level[j][0] == 0 for j in range(n)]
        ok[0] = [ok[0][j] and top[j] for j in range(n)]
    kinds = sorted(set(sizes), reverse=True)
    priced: dict[int, float] = {}
    memo: dict[tuple[int, tuple[int, ...]], tuple[float, int, int]] = {}
    budget = [EXACT_BUDGET]
    full = (1 << n) - 1

    def table_cost(mask: int) -> float:
        c = priced.get(mask)
        if c is None:
            budget[0] -= 1
            c = cost([ranked[i] for i in range(n) if mask >> i & 1])
            priced[mask] = c
        return c

    def best(left: int, counts: tuple[int, ...]) -> float:
        if left == 0:
            return 0.0
        known = memo.get((left, counts))
        if known is not None:
            return known[0]
        if budget[0] <= 0:
            raise _Budget
        head = (left & -left).bit_length() - 1
        rest = left & ~(1 << head)
        candidates = [j for j in range(head + 1, n) if rest >> j & 1 and ok[head][j]]
        choice, value, kind = 0, math.inf, -1
        for k, size in enumerate(kinds):
            if not counts[k]:
                continue
            after = (*counts[:k], counts[k] - 1, *counts[k + 1 :])
            for mates in combinations(candidates, size - 1):
                if any(not ok[a][b] for a, b in combinations(mates, 2)):
                    continue
                group = 1 << head
                for j in mates:
                    group |= 1 << j
                here = table_cost(group)
                if here >= value:
                    continue
                total = here + best(left & ~group, after)
                if total < value:
                    value, choice, kind = total, group, k
        memo[(left, counts)] = (value, choice, kind)
        return value

    start = tuple(sizes.count(k) for k in kinds)
    try:
        if best(full, start) == math.inf:
            return None
    except _Budget:
        return None
    out: list[list[P]] = []
    left, counts = full, start
    while left:
        _value, group, k = memo[(left, counts)]
        out.append([ranked[i] for i in range(n) if group >> i & 1])
        left &= ~group
        counts = (*counts[:k], counts[k] - 1, *counts[k + 1 :])
    return out


class _Budget(Exception):
    """The exact search would take longer than its guard allows."""
