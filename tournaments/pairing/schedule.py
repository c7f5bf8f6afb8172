"""Fixed schedules for "meet as many as possible" events (issue #31): every round's tables decided
before the first, with the fewest repeat meetings possible, as bridge clubs use movements.

``schedule(count, size, rounds, short)`` gives, per round, tables of positions 0 … count − 1 (the
entrants in seeding order). Two ways, the better kept:

- **Resolvable designs**: ``count`` = q² at tables of q, q a prime power (4, 9, 16, 25, 49, 64 … at
  tables of 2, 3, 4, 5, 7, 8 …): the lines of the affine plane over GF(q), one parallel class a round,
  q + 1 rounds with no pair meeting twice (16 at tables of 4 for 5 rounds, 9 at tables of 3 for 4).
- **A search** otherwise (the social-golfer problem): a greedy first schedule, then a tabu search
  swapping two players of one round between tables while that removes repeats, for a fixed number of
  steps (deterministic: the same inputs, the same schedule), stopping early at the known least.

Short tables are the organiser's choice (``short``): ``"smaller"`` tables of size − 1 where the count
does not divide (18 at tables of 4: 4, 4, 4, 3, 3) or ``"larger"`` ones of size + 1 (4, 4, 5, 5).
``least_repeats`` is the least any schedule can have (the pair meetings spread as evenly as the seats
allow); a repeat is a pair at a table that met before, counted as often as it met before.
``first_seats`` plans who sits first at each table for the whole event, within the first-seat cap.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Collection, Hashable, Sequence
from typing import TypeVar

import networkx as nx

from tournaments.pairing.tables import table_sizes

P = TypeVar("P", bound=Hashable)
SHORT = ("smaller", "larger")
#: Swaps the tabu search may make (a guard that keeps a schedule's cost bounded on any machine).
STEPS = 5_000
#: How many steps a swapped player stays where it went.
TABU = 8


def sizes(count: int, size: int, short: str = "smaller") -> list[int]:
    """The tables of one round, biggest first: as many of ``size`` as fit, the rest one seat smaller
    (``smaller``) or one larger (``larger``, when there are enough tables to take them)."""
    if short not in SHORT:
        raise ValueError(f"short tables are {' or '.join(SHORT)}, not {short!r}")
    return table_sizes(count, size, larger=short == "larger")


def describe(count: int, size: int, short: str = "smaller") -> list[tuple[int, int]]:
    """(table size, how many) for one round, biggest first: what the organiser is shown."""
    layout = sizes(count, size, short)
    return [(n, layout.count(n)) for n in sorted(set(layout), reverse=True)]


def least_repeats(count: int, layout: Sequence[int], rounds: int) -> int:
    """The fewest repeats any schedule of ``rounds`` rounds of these tables can have: the meetings
    (pairs at a table, summed over rounds) spread over the count·(count − 1)/2 pairs as evenly as
    possible; a pair meeting m times makes m(m − 1)/2 repeats."""
    pairs = count * (count - 1) // 2
    meetings = rounds * sum(n * (n - 1) // 2 for n in layout)
    base, extra = divmod(meetings, pairs)
    return (pairs - extra) * base * (base - 1) // 2 + extra * (base + 1) * base // 2


def repeats(rounds: Sequence[Sequence[Sequence[int]]]) -> int:
    met: dict[tuple[int, int], int] = {}
    total = 0
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                total += met.get((a, b), 0)
                met[(a, b)] = met.get((a, b), 0) + 1
    return total


def schedule(count: int, size: int, rounds: int, short: str = "smaller") -> list[list[list[int]]]:
    """``rounds`` rounds of tables of positions (see the module's docstring); computed once per process
    for the same inputs (each round of an event asks again)."""
    return [[list(t) for t in r] for r in _schedule(count, size, rounds, short)]


@functools.lru_cache(maxsize=64)
def _schedule(count: int, size: int, rounds: int, short: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(tuple(t) for t in r) for r in _plan(count, size, rounds, short))


def _plan(count: int, size: int, rounds: int, short: str) -> list[list[list[int]]]:
    if count < 2 or size < 2 or rounds < 1:
        raise ValueError("a schedule needs two players or more, tables of two or more and a round")
    layout = sizes(count, size, short)
    planes = _affine(count, size) if layout == [size] * (count // size) else None
    if planes is not None and rounds <= len(planes):
        return [[sorted(t) for t in r] for r in planes[:rounds]]
    return _search(count, layout, rounds)


def round_of(
    seeding: Sequence[P], present: Collection[P], size: int, rounds: int, number: int, short: str = "smaller"
) -> tuple[list[list[P]], list[P]]:
    """Round ``number``'s tables of an event scheduled for the entrants of ``seeding`` (in that order):
    an entrant not ``present`` (withdrawn, on a requested bye, at a locked table) leaves an empty seat;
    one left alone at a table comes back apart, for the bye."""
    plan = schedule(len(seeding), size, rounds, short)
    tables: list[list[P]] = []
    alone: list[P] = []
    for positions in plan[number - 1] if number <= len(plan) else []:
        table = [seeding[p] for p in positions if seeding[p] in present]
        if len(table) >= 2:
            tables.append(table)
        else:
            alone += table
    return tables, alone


def first_seats(count: int, size: int, rounds: int, short: str = "smaller") -> list[list[int]]:
    """Per round, per table of ``schedule``, the position that sits first: nobody more often than
    ⌈tables / count⌉ over the event (the first-seat cap of the Swiss) where the schedule allows it.
    Every round is known in advance, so the seats are chosen for the whole event at once (a flow from
    each table to its players, each player taking at most the cap); a round-by-round choice can be
    left with a table whose players all reached the cap (16 at tables of 3: a third first seat)."""
    return [list(r) for r in _first_seats(count, size, rounds, short)]


@functools.lru_cache(maxsize=64)
def _first_seats(count: int, size: int, rounds: int, short: str) -> tuple[tuple[int, ...], ...]:
    plan = schedule(count, size, rounds, short)
    tables = [(r, i) for r, tables in enumerate(plan) for i in range(len(tables))]
    cap = -(-len(tables) // count)
    while True:
        graph = nx.DiGraph()
        for r, i in tables:
            graph.add_edge("source", ("table", r, i), capacity=1)
            for p in plan[r][i]:
                graph.add_edge(("table", r, i), ("player", p), capacity=1)
        for p in range(count):
            graph.add_edge(("player", p), "sink", capacity=cap)
        value, flow = nx.maximum_flow(graph, "source", "sink")
        if value == len(tables):
            break
        cap += 1  # a schedule no seat order keeps within the cap: one more each
    first = {(r, i): next(p for p in plan[r][i] if flow[("table", r, i)][("player", p)]) for r, i in tables}
    return tuple(tuple(first[(r, i)] for i in range(len(plan[r]))) for r in range(len(plan)))


def firsts_of(seeding: Sequence[P], size: int, rounds: int, number: int, short: str = "smaller") -> set[P]:
    """The entrants of ``seeding`` that ``first_seats`` seats first in round ``number``."""
    if number > rounds:
        return set()
    return {seeding[p] for p in first_seats(len(seeding), size, rounds, short)[number - 1]}


# -- the affine plane over GF(q) -------------------------------------------------------------------


def _prime_power(q: int) -> tuple[int, int] | None:
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q) (elements 0 … q − 1: polynomials over GF(p) in base
    p), or None when q is no prime power."""
    found = _prime_power(q)
    if found is None:
        return None
    p, k = found

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    # A monic irreducible polynomial of degree k: the first with no root-free factorisation, checked
    # by its having no divisor among the monic polynomials of degree 1 … k // 2.
    def poly_mod(a: list[int], m: list[int]) -> list[int]:
        a = a[:]
        while len(a) >= len(m):
            factor = a[-1]
            if factor:
                shift = len(a) - len(m)
                for i, c in enumerate(m):
                    a[shift + i] = (a[shift + i] - factor * c) % p
            a.pop()
        return a

    modulus: list[int] = [1] if k == 1 else []
    if k > 1:
        for tail in itertools.product(range(p), repeat=k):
            candidate = [*tail, 1]
            if all(
                any(poly_mod(candidate, [*d, 1]))
                for degree in range(1, k // 2 + 1)
                for d in itertools.product(range(p), repeat=degree)
            ):
                modulus = candidate
                break

    def multiply(x: int, y: int) -> int:
        a, b = digits(x), digits(y)
        product = [0] * (2 * k)
        for i, u in enumerate(a):
            for j, v in enumerate(b):
                product[i + j] = (product[i + j] + u * v) % p
        reduced = poly_mod(product, modulus) if k > 1 else [product[0] % p]
        return number((reduced + [0] * k)[:k])

    add = [
        [number([(u + v) % p for u, v in zip(digits(x), digits(y), strict=True)]) for y in range(q)]
        for x in range(q)
    ]
    mul = [[multiply(x, y) for y in range(q)] for x in range(q)]
    return add, mul


def _affine(count: int, size: int) -> list[list[list[int]]] | None:
    """The q + 1 parallel classes of the affine plane of order q = size, when count = q²."""
    q = size
    if q * q != count:
        return None
    field = _field(q)
    if field is None:
        return None
    add, mul = field
    point = {(x, y): x * q + y for x in range(q) for y in range(q)}
    classes = [[[point[(x, add[mul[m][x]][c])] for x in range(q)] for c in range(q)] for m in range(q)]
    classes.append([[point[(c, y)] for y in range(q)] for c in range(q)])
    return classes


# -- the search ------------------------------------------------------------------------------------


def _search(count: int, layout: list[int], rounds: int) -> list[list[list[int]]]:
    rng = random.Random(f"{count}/{layout}/{rounds}")
    met = [[0] * count for _ in range(count)]
    plan: list[list[list[int]]] = []
    for _ in range(rounds):
        tables = _greedy(count, layout, met, rng)
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
        plan.append(tables)
    _tabu(plan, met, least_repeats(count, layout, rounds), rng)
    return [sorted(([*sorted(t)] for t in r), key=lambda t: t[0]) for r in plan]


def _greedy(count: int, layout: list[int], met: list[list[int]], rng: random.Random) -> list[list[int]]:
    """One round: each table filled in turn with whoever has met its players least."""
    left = list(range(count))
    rng.shuffle(left)
    tables = []
    for n in layout:
        table = [left.pop(0)]
        while len(table) < n:
            best = min(left, key=lambda p: sum(met[p][q] for q in table))
            left.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _cost(met: list[list[int]]) -> int:
    n = len(met)
    return sum(m * (m - 1) // 2 for i in range(n) for m in met[i][i + 1 :])


def _tabu(plan: list[list[list[int]]], met: list[list[int]], least: int, rng: random.Random) -> None:
    """Swaps of two players of one round between its tables: the best one not tabu (or any that beats
    the best schedule seen), a player in a repeat on one side, until no repeat is left above ``least``
    or the steps run out. The best schedule seen is kept."""
    cost = _cost(met)
    best_cost, best_plan = cost, [[t[:] for t in r] for r in plan]
    tabu: dict[tuple[int, int], int] = {}
    for step in range(STEPS):
        if best_cost <= least:
            break
        conflicted = [
            (r, k, x)
            for r, tables in enumerate(plan)
            for k, table in enumerate(tables)
            for x in table
            if any(met[x][y] > 1 for y in table if y != x)
        ]
        if not conflicted:
            break
        move: tuple[int, int, int, int, int, int] | None = None
        gain = None
        for r, k, x in rng.sample(conflicted, min(len(conflicted), 12)):
            tables = plan[r]
            for j, other in enumerate(tables):
                if j == k:
                    continue
                for y in other:
                    delta = _delta(met, tables[k], x, other, y)
                    allowed = tabu.get((x, r), -1) < step and tabu.get((y, r), -1) < step
                    if not allowed and cost + delta >= best_cost:
                        continue
                    if gain is None or delta < gain or (delta == gain and rng.random() < 0.3):
                        gain, move = delta, (r, k, j, x, y, 0)
        if move is None or gain is None:
            break
        r, k, j, x, y, _ = move
        _swap(met, plan[r][k], x, plan[r][j], y)
        cost += gain
        tabu[(x, r)] = tabu[(y, r)] = step + TABU + rng.randint(0, 3)
        if cost < best_cost:
            best_cost, best_plan = cost, [[t[:] for t in rr] for rr in plan]
    plan[:] = best_plan


def _delta(met: list[list[int]], a_table: list[int], x: int, b_table: list[int], y: int) -> int:
    """The change in repeats when x (at a_table) and y (at b_table) change places."""
    delta = 0
    for a in a_table:
        if a != x:
            delta += -(met[x][a] - 1) + met[y][a]
    for b in b_table:
        if b != y:
            delta += -(met[y][b] - 1) + met[x][b]
    return delta


def _swap(met: list[list[int]], a_table: list[int], x: int, b_table: list[int], y: int) -> None:
    for a in a_table:
        if a != x:
            met[x][a] -= 1
            met[a][x] -= 1
            met[y][a] += 1
            met[a][y] += 1
    for b in b_table:
        if b != y:
            met[y][b] -= 1
            met[b][y] -= 1
            met[x][b] += 1
            met[b][x] += 1
    a_table[a_table.index(x)] = y
    b_table[b_table.index(y)] = x
