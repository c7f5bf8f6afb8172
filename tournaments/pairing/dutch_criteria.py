"""The Dutch pairing's players and criteria (tournaments/pairing/dutch.py): the players as the pairing
sees them, their seat preferences and the seats of a pair (FIDE E.1–E.5), the criteria as bit fields of
one edge weight, score groups, and whether a field can be paired without a repeat."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

FIRST, SECOND = 0, 1
DOWN, UP = 1, -1
MILD, STRONG, ABSOLUTE = 1, 2, 3

#: Fields of at most this many players are paired in one exact matching.
EXACT_FIELD = 64
#: Brackets of at most this many players with their lookahead (or of several score groups, or with
#: many moved-down players) are paired by one exact matching.
EXACT_BRACKET = 24
#: How many players of the next score group a bracket looks at when choosing its floaters (C7).
LOOKAHEAD = 12
#: The most players one repairing matching takes.
REPAIR = 40

Seat = int | None
_BYE = object()  # the stand-in the bye is in the whole-round matching
Cost = tuple[int, int, int]  # seat preferences denied: (absolute, strong, mild)
_ZERO: Cost = (0, 0, 0)


@dataclass(frozen=True)
class Player:
    """One entrant as the pairing sees it.

    ``number``: the pairing number (1 = top of the seeding), fixed for the whole event. ``seats``: one
    entry per round so far, the seat taken (0 = first, who moves first; 1 = second; None = no game:
    a bye, not yet entered, a forfeit). ``floats``: one entry per round, DOWN (met a lower score, or
    had the bye), UP (met a higher score) or 0. ``met``: everyone already played.
    """

    id: Hashable
    score: Fraction | int | float
    number: int
    seats: tuple[Seat, ...] = ()
    floats: tuple[int, ...] = ()
    byes: int = 0
    met: frozenset[Hashable] = frozenset()


@dataclass(frozen=True)
class Round:
    """The pairs in board order, each (first seat, second seat), and the bye (None if none)."""

    pairs: list[tuple[Hashable, Hashable]]
    bye: Hashable | None


def seat_preference(seats: Iterable[Seat]) -> tuple[int | None, int, int]:
    """(preferred seat or None, strength: 0 none, MILD, STRONG or ABSOLUTE, first − second) from a
    seat history, after FIDE A.6 (rounds without a game are skipped)."""
    played = [s for s in seats if s is not None]
    if not played:
        return None, 0, 0
    diff = played.count(FIRST) - played.count(SECOND)
    last = played[-1]
    twice = len(played) >= 2 and played[-2] == last
    if diff >= 2 or diff <= -2:
        return (SECOND if diff > 0 else FIRST), ABSOLUTE, diff
    if twice:
        return 1 - last, ABSOLUTE, diff
    if diff:
        return (SECOND if diff > 0 else FIRST), STRONG, diff
    return 1 - last, MILD, diff


class _P:
    """A player with what the pairing derives from it."""

    __slots__ = ("cd", "float1", "float2", "id", "level", "met", "number", "p", "pref", "s", "seats")

    def __init__(self, p: Player, units: int) -> None:
        self.p = p
        self.id = p.id
        self.s = units
        self.number = p.number
        self.met = p.met
        self.seats = p.seats
        self.pref, self.level, self.cd = seat_preference(p.seats)
        self.float1 = p.floats[-1] if p.floats else 0
        self.float2 = p.floats[-2] if len(p.floats) >= 2 else 0

    def key(self) -> tuple[int, int]:
        """Ranking order: score, then pairing number."""
        return (-self.s, self.number)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<{self.id} s={self.s} #{self.number} pref={self.pref}/{self.level}>"


def allocate(a: _P, b: _P) -> tuple[_P, _P, int]:
    """(first seat, second seat, strength of the preference denied, 0 if none) for a pair whose
    ``a`` ranks higher: FIDE E.1–E.5."""
    if a.pref is None and b.pref is None:
        return (a, b, 0) if a.number % 2 else (b, a, 0)  # E.5
    if b.pref is None or (a.pref is not None and a.pref != b.pref):
        assert a.pref is not None
        return (a, b, 0) if a.pref == FIRST else (b, a, 0)
    if a.pref is None:
        return (b, a, 0) if b.pref == FIRST else (a, b, 0)
    # The same preference: one of them is denied.
    if a.level != b.level:
        winner = a if a.level > b.level else b  # E.2
    elif a.level == ABSOLUTE and abs(a.cd) != abs(b.cd):
        winner = a if abs(a.cd) > abs(b.cd) else b  # E.2, both absolute: the wider imbalance
    else:
        winner = a  # E.4 unless E.3 says otherwise
        for x, y in zip(reversed(a.seats), reversed(b.seats), strict=False):
            if x is not None and y is not None and x != y:
                # E.3: alternate from the latest round they sat differently.
                winner = a if (1 - x) == a.pref else b
                break
    loser = b if winner is a else a
    assert winner.pref is not None
    first, second = (winner, loser) if winner.pref == FIRST else (loser, winner)
    return first, second, loser.level


def _denied(level: int) -> Cost:
    return (1, 0, 0) if level == ABSOLUTE else (0, 1, 0) if level == STRONG else (0, 0, 1) if level else _ZERO


def _add(x: Cost, y: Cost) -> Cost:
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2])


class _Counts:
    """Seat preferences of a set of players, by seat and strength: the least any pairing of the set
    must deny (``bound``), exact when repeats do not interfere."""

    __slots__ = ("c",)

    def __init__(self, players: Iterable[_P] = ()) -> None:
        self.c = [0] * 7  # none, first mild/strong/absolute, second mild/strong/absolute
        for p in players:
            self.add(p, 1)

    @staticmethod
    def slot(p: _P) -> int:
        return 0 if p.pref is None else (p.level if p.pref == FIRST else 3 + p.level)

    def add(self, p: _P, n: int) -> None:
        self.c[self.slot(p)] += n

    def bound(self, *without: _P) -> Cost:
        c = self.c
        if without:
            c = list(c)
            for p in without:
                c[self.slot(p)] -= 1
        first, second = c[1] + c[2] + c[3], c[4] + c[5] + c[6]
        if first - second - c[0] > 0:
            excess, levels = (first - second - c[0]) // 2, c[1:4]
        elif second - first - c[0] > 0:
            excess, levels = (second - first - c[0]) // 2, c[4:7]
        else:
            return _ZERO
        # The excess side pairs among itself; each such pair denies its weaker player: the weakest.
        mild = min(excess, levels[0])
        strong = min(excess - mild, levels[1])
        return (excess - mild - strong, strong, mild)


class _Order:
    """Where each player stands in its score group (by pairing number) for the Dutch order: S1 the
    top half, S2 the rest; S1 places numbered across the groups (top group first) as the digits of
    one number, so that a smaller S2 sequence is a larger weight."""

    def __init__(self, groups: Sequence[Sequence[_P]]) -> None:
        self.group: dict[Hashable, int] = {}
        self.pos: dict[Hashable, int] = {}
        self.size: list[int] = []
        self.half: list[int] = []
        self.slot: dict[Hashable, int] = {}
        slots = 0
        for g, members in enumerate(groups):
            self.size.append(len(members))
            self.half.append(len(members) // 2)
            for i, p in enumerate(members):
                self.group[p.id] = g
                self.pos[p.id] = i
                if i < len(members) // 2:
                    self.slot[p.id] = slots
                    slots += 1
        self.slots = slots
        self.base = max(self.size, default=1) + 1
        self.biggest = max(self.size, default=1)

    def digit_weight(self, a: _P, b: _P) -> int:
        """The order field of a pair in one group, S1 ``a`` and S2 ``b``; 0 otherwise."""
        ga, gb = self.group.get(a.id), self.group.get(b.id)
        if ga is None or ga != gb:
            return 0
        half = self.half[ga]
        i, j = self.pos[a.id], self.pos[b.id]
        if i > j:
            i, j, a = j, i, b
        if not (i < half <= j):
            return 0
        return (self.base - 1 - (j - half)) * self.base ** (self.slots - 1 - self.slot[a.id])

    def exchange(self, a: _P, b: _P) -> bool:
        """Both in one half of the same group."""
        ga, gb = self.group.get(a.id), self.group.get(b.id)
        if ga is None or ga != gb:
            return False
        half = self.half[ga]
        return (self.pos[a.id] < half) == (self.pos[b.id] < half)

    def exchange_gains(self, high: _P, low: _P) -> tuple[int, int]:
        """FIDE D.2 for a pair whose ``high`` ranks higher, as two gains (larger is better): no S1
        player moved to S2 (two S1 players paired, or an S1 player floating down), then the least
        difference between the pairing numbers moved up and those moved down: an S2 pair moves its
        better player into S1, an S1 pair its worse one into S2, a floater from S1 itself."""
        top = self.biggest
        g, h = self.group.get(high.id), self.group.get(low.id)
        if g is None:
            return 1, top
        half, i = self.half[g], self.pos[high.id]
        if g != h:  # ``high`` floats down
            return (0, top + i) if i < half else (1, top)
        j = self.pos[low.id]
        if i < half and j < half:
            return 0, top + max(i, j)
        if i >= half and j >= half:
            return 1, top - min(i, j)
        return 1, top

    def who(self, high: _P, low: _P) -> int:
        """How far a mixed pair is from the lowest of a group floating to the highest of the next."""
        cost = 0
        g = self.group.get(high.id)
        if g is not None:
            cost += self.size[g] - 1 - self.pos[high.id]
        if low.id in self.pos:
            cost += self.pos[low.id]
        return cost


def _matching(
    members: Sequence[_P],
    gains: dict[tuple[int, int], list[int]],
    maxima: list[int],
    order_radix: int,
    maxcardinality: bool,
) -> list[tuple[_P, _P]]:
    """Maximum-weight matching whose edge weights are the ``gains`` fields read as one number, the
    first field most significant (each field wide enough for its sum over a whole matching, the
    order field being its own number); an edge left out is a pair not allowed."""
    pairs_max = max(1, len(members) // 2)
    radices = [pairs_max * m + 1 for m in maxima] + [order_radix]
    mults = [1] * len(radices)
    for i in range(len(radices) - 2, -1, -1):
        mults[i] = mults[i + 1] * radices[i + 1]
    graph = nx.Graph()
    for (i, j), g in gains.items():
        graph.add_edge(i, j, weight=sum(x * m for x, m in zip(g, mults, strict=True)))
    matched = nx.max_weight_matching(graph, maxcardinality=maxcardinality)
    out = []
    for i, j in matched:
        a, b = members[i], members[j]
        out.append((a, b) if a.key() <= b.key() else (b, a))
    return out


def _groups(players: list[_P]) -> list[list[_P]]:
    """Score groups, best first, each by pairing number (``players`` come in ranking order)."""
    groups: list[list[_P]] = []
    for p in players:
        if groups and groups[-1][0].s == p.s:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def completable(players: list[_P]) -> bool:
    """Whether the players can all be paired without a repeat. Dirac's theorem settles most cases:
    if nobody met more than R of the others and there are at least 2R + 2, the graph of pairs not
    yet played has a Hamiltonian cycle, hence a perfect matching. The rest (small) by a matching."""
    n = len(players)
    if n % 2:
        return False
    if n == 0:
        return True
    ids = {p.id for p in players}
    most = max(len(p.met & ids) for p in players)
    if n >= 2 * most + 2:
        return True
    graph = nx.Graph()
    for i, a in enumerate(players):
        for j in range(i + 1, n):
            if players[j].id not in a.met:
                graph.add_edge(i, j)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == n
