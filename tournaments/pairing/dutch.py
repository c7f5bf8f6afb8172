"""Two-player Swiss pairing after the FIDE Dutch system (C.04.3), with seats for colours.

Players keep the pairing number they were given at the start (seeding or rating order). Each round:

1. **Bye** (odd count): chosen inside the pairing on fields up to ``EXACT_FIELD`` (a stand-in for the
   bye joins the matching as a score group below the lowest, for those with the fewest byes: the
   fewest floaters, then whoever the lowest bracket's order leaves, then the lowest); larger fields
   take the lowest eligible player first, passing over one whose bye would force a repeat elsewhere.
2. **Pairs**, compared criterion by criterion, each one only breaking the ties of those before it:

   1. no repeat (FIDE C1; a repeat only when no pairing avoids it); then no two players who both need
      the same seat absolutely (C3), topscorers excepted in the last round;
   2. the fewest floaters (C5), counted once per score-group boundary crossed (a player two groups
      down counts twice, as the Dutch system counts a downfloater once per bracket), the top bracket
      paired fully first, the next bracket pairing as well as it can (C7); then the smallest score
      differences, the sum of their squares (C6);
   3. then **bracket by bracket from the top** (a pair belongs to the bracket of its lower player; a
      downfloater's own float to the bracket it leaves), each bracket settled before the next:

      a. seats (C8–C11, seat 0 moves first and stands for white): the fewest players who get the
         same seat a third time running or whose |first − second| would reach 3 (an *absolute*
         preference denied), then the fewest whose |first − second| would reach 2 (a *strong* one),
         then the fewest who get the same seat twice running (a *mild* one);
      b. floats (C12–C15): the fewest who float down again after floating down (or having the bye)
         in the previous round, up again after floating up, then the same for two rounds before;
      c. its moved-down players, the better first, meet the highest residents they may;
      d. exchanges (D.2): the fewest S1 players moved to S2, then the least difference between the
         pairing numbers moved up and down;
      e. transpositions (D.1): S1 (as many as the bracket makes pairs) against S2 in the first
         order of S2 (the lexicographically smallest sequence), the halves split over the
         remainder and sorted again after an exchange by further matchings (``dutch_brackets``).

3. **Seats** of each pair by FIDE E.1–E.5: both preferences when they differ, else the stronger one
   (equal absolute ones: the wider imbalance), else alternate from the last round they sat
   differently, else the higher-ranked player's; nobody with a preference (round 1): the
   higher-ranked player sits first when his pairing number is odd, so boards alternate.

How it is solved. Each criterion above is a bit field of one integer edge weight, the most important
in the highest bits (as bbpPairings does it), and a maximum-weight matching (networkx) finds the best
pairing. That matching is O(n³) in pure Python, so it is used whole only on small fields
(``EXACT_FIELD``). Larger fields are paired bracket by bracket from the top, as the Dutch system
does: a bracket is the moved-down players and the next score group. Small brackets get the same exact
matching (the unpaired move down), which also sees the top of the next score group (C7); a large one
pairs its moved-down players with its top players (a small matching), floats one player down if its
count is odd, and pairs the rest top half against bottom half with a greedy pass that takes, for
each S1 player in turn, the first S2 player that keeps the best seat outcome still reachable (a count
of seat preferences gives it exactly when repeats do not interfere); only where that pass falls
short of the count (or meets a repeat) are small matchings run on the pairs concerned and more and
more of their neighbours. Before a bracket's floaters go down, the rest of the field is checked to be
completable without repeats (Dirac's theorem or, for the few small cases it does not settle, a
matching); if it is not, a large bracket floats two more players down, a small one takes in the next
score group.

After the whole-round matching, each bracket's remainder is split into S1 and S2 again and paired
again, as are its moved-down players with the residents chosen for them (``resplit``, FIDE B.3).

Where this differs from FIDE (see docs/tournaments.md): C3 holds only where some pairing without a
repeat allows it; seat denials are weighed by strength (absolute, strong, mild) rather than C10
before C11; the fewest boundaries crossed and the score differences are weighed over the whole round
before any bracket's seats (FIDE: bracket by bracket, C7 looking one bracket down); score differences
are summed as squares; C16–C19 are left out.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from tournaments.pairing.dutch_brackets import Brackets, exchanged

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


class _Solver:
    def __init__(self, players: Sequence[Player], last_round: bool = False) -> None:
        scores = [Fraction(p.score) for p in players]
        scale = math.lcm(*(s.denominator for s in scores)) if scores else 1
        self.scale = scale
        self.players = [_P(p, int(s * scale)) for p, s in zip(players, scores, strict=True)]
        self.players.sort(key=_P.key)
        self.last_round = last_round
        # Topscorers (C.04.3 A.7): more than half the points possible so far; in the last round two of
        # them may meet whatever their seat preferences.
        played = max((len(p.seats) for p in players), default=0)
        self.top = {p.id for p in self.players if 2 * p.s > played * scale} if last_round else set()

    def forbidden(self, a: _P, b: _P) -> bool:
        """C3: two players who both need the same seat absolutely do not meet (in the last round a
        topscorer may)."""
        if a.level != ABSOLUTE or b.level != ABSOLUTE or a.pref != b.pref:
            return False
        return not (a.id in self.top or b.id in self.top)

    # -- whole round -----------------------------------------------------------------------------

    def solve(self) -> Round:
        bye: _P | None = None
        if len(self.players) <= EXACT_FIELD:
            # The bye inside the matching (FIDE: whoever the pairing leaves at the bottom): the fewest
            # floaters first, then the lowest eligible player.
            pairs, bye = self.exact_round(self.players, with_bye=len(self.players) % 2 == 1)
            pairs = self.resplit(pairs, bye)
        else:
            bye = self.choose_bye(self.players)
            field = [p for p in self.players if p is not bye]
            pairs = self.by_brackets(field)
        seated = []
        for a, b in pairs:
            first, second, _ = allocate(a, b) if a.key() <= b.key() else allocate(b, a)
            seated.append((first, second))
        # Boards: the higher score of the pair, then the sum, then the better-ranked player.
        seated.sort(
            key=lambda fs: (-max(fs[0].s, fs[1].s), -fs[0].s - fs[1].s, min(fs[0].key(), fs[1].key()))
        )
        return Round([(f.id, s.id) for f, s in seated], bye.id if bye is not None else None)

    def choose_bye(self, players: list[_P]) -> _P | None:
        if len(players) % 2 == 0:
            return None
        fewest = min(p.p.byes for p in players)
        lowest_first = sorted(players, key=lambda p: (p.s, -p.number))
        eligible = [p for p in lowest_first if p.p.byes == fewest]
        for p in eligible:
            if completable([q for q in players if q is not p]):
                return p
        return eligible[0]

    # -- small fields: one exact matching ------------------------------------------------------------

    def exact_field(self, field: list[_P]) -> list[tuple[_P, _P]]:
        """Every pair of the field weighed on every criterion, repeats last of all."""
        return self.exact_round(field, with_bye=False)[0]

    def exact_round(self, field: list[_P], with_bye: bool) -> tuple[list[tuple[_P, _P]], _P | None]:
        """One matching over the whole field; with ``with_bye`` a stand-in for the bye joins it, met by
        a player as if floating to a score group below the lowest (only those with the fewest byes).

        Fields, most important first: no repeat, C3, the fewest boundaries crossed (top boundaries
        first), the least score differences, then bracket by bracket from the top (as the Dutch
        system settles a bracket before it looks at the next) that bracket's seats, floats, whom its
        moved-down players meet, its exchanges and its transpositions (``_Brackets``); the bye last
        to the lowest."""
        if not field:
            return [], None
        groups = _groups(field)
        members = list(field)
        bye: _P | None = None
        if with_bye:
            bye = _P(Player(_BYE, 0, 10**9), field[-1].s - self.scale)
            members.append(bye)
        levels = len(groups) + (1 if with_bye else 0)
        group = {p.id: g for g, ps in enumerate(groups) for p in ps}
        if bye is not None:
            group[bye.id] = levels - 1
        spread = (members[0].s - members[-1].s) ** 2
        steps = levels - 1
        # Floats across a higher boundary weigh more (the Dutch system pairs the top bracket first):
        # crossing boundary k (0 the top) counts base ** (steps - 1 - k).
        base = len(members) // 2 + 1
        crossing = [0]
        for k in range(steps):
            crossing.append(crossing[-1] + base ** (steps - 1 - k))
        fewest = min(p.p.byes for p in field)
        fixed: dict[tuple[int, int], list[int]] = {}  # the fields before the brackets' own
        for i, a in enumerate(field):
            for j in range(i + 1, len(members)):
                b = members[j]
                if b is bye:
                    if a.p.byes != fewest:
                        continue  # C2: no second bye while someone has had none
                    fresh, allowed = 1, 1
                else:
                    fresh, allowed = int(b.id not in a.met), int(not self.forbidden(a, b))
                ga, gb = group[a.id], group[b.id]
                fixed[(i, j)] = [
                    fresh,
                    allowed,
                    steps - (gb - ga),
                    crossing[-1] - (crossing[gb] - crossing[ga]),
                    spread - (a.s - b.s) ** 2,
                ]

        def match(halves: list[list[_P]], sizes: list[int]) -> list[tuple[_P, _P]]:
            brackets = Brackets(groups, halves, sizes, levels, len(members) // 2 + 1)
            gains = {}
            for (i, j), g in fixed.items():
                a, b = members[i], members[j]
                seats = _ZERO if b is bye else _denied(allocate(a, b)[2])
                floats = self._float_faults(a, b)
                last = i if b is bye else 0  # the bye to the lowest (``field`` is in ranking order)
                gains[(i, j)] = [*g, brackets.top - brackets.penalty(a, b, seats, floats), last]
            maxima = [1, 1, steps, crossing[-1], spread, brackets.top]
            return _matching(
                members, gains, maxima, len(field) * (len(members) // 2) + 1, maxcardinality=True
            )

        found = match(groups, [len(g) // 2 for g in groups])
        # Further matchings with each bracket's halves as FIDE has them once the one before fixed who
        # meets the moved-down players: S1 and S2 split over the remainder (B.3; residents who meet
        # moved-down players go last, out of both halves), then, after an exchange, sorted again so
        # that the transpositions start over (D.2).
        for resort in (False, True):
            halves, sizes = [], []
            for g in groups:
                ids = {p.id for p in g}
                meet_mdps = {b.id for a, b in found if b.id in ids and a.id not in ids}
                remainder = [p for p in g if p.id not in meet_mdps]
                inside = {p.id for p in remainder}
                # S1: as many as the remainder makes pairs (FIDE: MaxPairs), its floaters in S2
                size = sum(1 for a, b in found if a.id in inside and b.id in inside)
                if resort:
                    remainder = exchanged(remainder, found, size) or remainder
                halves.append(remainder + [p for p in g if p.id in meet_mdps])
                sizes.append(size)
            if halves != groups or sizes != [len(g) // 2 for g in groups]:
                found = match(halves, sizes)
        pairs = [(a, b) for a, b in found if a is not bye and b is not bye]
        taken = next((a if b is bye else b for a, b in found if bye in (a, b)), None)
        return pairs, taken

    def resplit(self, pairs: list[tuple[_P, _P]], bye: _P | None) -> list[tuple[_P, _P]]:
        """FIDE C.04.3 (B.3): once the moved-down players of a bracket are paired, its remainder is
        split into S1 and S2 again. The whole-round matching fixed who floats and whom each moved-down
        player meets; the players of a score group paired among themselves are paired again here, by
        the seats, then the Dutch order over the remainder's own halves (its downfloaters in S2)."""
        inside: dict[int, list[tuple[_P, _P]]] = {}
        remainder: dict[int, list[_P]] = {}
        out: list[tuple[_P, _P]] = []
        for a, b in pairs:
            if a.s == b.s:
                inside.setdefault(a.s, []).append((a, b))
                remainder.setdefault(a.s, []).extend((a, b))
            else:
                out.append((a, b))
                high = a if a.s > b.s else b
                remainder.setdefault(high.s, []).append(high)
        if bye is not None:
            remainder.setdefault(bye.s, []).append(bye)
        mixed: dict[int, list[tuple[_P, _P]]] = {}
        for a, b in out:
            mixed.setdefault(min(a.s, b.s), []).append((a, b))
        out = []
        for group_pairs in mixed.values():
            out += self.moved_down_pairs(group_pairs) if len(group_pairs) > 1 else group_pairs
        for score, group_pairs in inside.items():
            if len(group_pairs) < 2:
                out += group_pairs
                continue
            members = sorted(remainder[score], key=lambda p: p.number)
            out += self.remainder_pairs(group_pairs, members)
        return out

    def moved_down_pairs(self, pairs: list[tuple[_P, _P]]) -> list[tuple[_P, _P]]:
        """The moved-down players of one bracket (S1, by score then pairing number) and the residents
        who meet them (S2, by pairing number) paired again: no repeat, seats, floats, then the first
        transposition of S2."""
        highs = sorted((a if a.s > b.s else b for a, b in pairs), key=_P.key)
        lows = sorted((b if a.s > b.s else a for a, b in pairs), key=lambda p: p.number)
        players = highs + lows
        k, base = len(highs), len(lows) + 1
        gains: dict[tuple[int, int], list[int]] = {}
        for i, hi in enumerate(highs):
            for j, lo in enumerate(lows):
                if lo.id in hi.met or self.forbidden(hi, lo):
                    continue
                gains[(i, k + j)] = [
                    *self._seat_gains(hi, lo),
                    *self._float_gains(hi, lo, True),
                    (base - 1 - j) * base ** (k - 1 - i),
                ]
        found = _matching(players, gains, [1, 1, 1, 1, 1, 1, 1], base**k, maxcardinality=True)
        return found if len(found) == k else pairs

    def remainder_pairs(self, pairs: list[tuple[_P, _P]], members: list[_P]) -> list[tuple[_P, _P]]:
        """The players of ``pairs`` (one score group) paired again: no repeat, the seats, then S1 (the
        top half of ``members``, the remainder, by pairing number) against S2 in the transposition order,
        exchanges as few as possible."""
        order = _Order([members])
        players = sorted((p for pair in pairs for p in pair), key=lambda p: p.number)
        gains: dict[tuple[int, int], list[int]] = {}
        for i, a in enumerate(players):
            for j in range(i + 1, len(players)):
                b = players[j]
                if b.id in a.met or self.forbidden(a, b):
                    continue
                hi, lo = (a, b) if a.key() <= b.key() else (b, a)
                gains[(i, j)] = [
                    *self._seat_gains(hi, lo),
                    *order.exchange_gains(hi, lo),
                    order.digit_weight(hi, lo),
                ]
        maxima = [1, 1, 1, 1, 2 * order.biggest]
        found = _matching(players, gains, maxima, order.base**order.slots, maxcardinality=True)
        if len(found) * 2 != len(players):
            return pairs
        swapped = exchanged(members, found, len(members) // 2)
        if swapped is None:
            return found
        # FIDE D.2: S1 and S2 sorted again after the exchange, the transpositions start over.
        order = _Order([swapped])
        for (i, j), g in gains.items():
            hi, lo = (
                (players[i], players[j]) if players[i].key() <= players[j].key() else (players[j], players[i])
            )
            g[3:] = [*order.exchange_gains(hi, lo), order.digit_weight(hi, lo)]
        again = _matching(players, gains, maxima, order.base**order.slots, maxcardinality=True)
        return again if len(again) == len(found) else found

    @staticmethod
    def _seat_gains(a: _P, b: _P) -> Cost:
        _, _, level = allocate(a, b)
        denied = _denied(level)
        return (1 - denied[0], 1 - denied[1], 1 - denied[2])

    @staticmethod
    def _float_faults(a: _P, b: _P) -> tuple[bool, bool, bool, bool]:
        """C12–C15 for a pair whose ``a`` is the higher (``b`` may be the bye's stand-in): ``a``
        floats down again after the last round, ``b`` up again, the same for two rounds back."""
        if a.s == b.s:
            return False, False, False, False
        return a.float1 == DOWN, b.float1 == UP, a.float2 == DOWN, b.float2 == UP

    @staticmethod
    def _float_gains(a: _P, b: _P, mixed: bool) -> tuple[int, int, int, int]:
        """C12–C15 for a pair whose ``a`` is the higher: 1 for each criterion kept."""
        return (
            0 if mixed and a.float1 == DOWN else 1,
            0 if mixed and b.float1 == UP else 1,
            0 if mixed and a.float2 == DOWN else 1,
            0 if mixed and b.float2 == UP else 1,
        )

    # -- large fields: bracket by bracket --------------------------------------------------------

    def by_brackets(self, field: list[_P]) -> list[tuple[_P, _P]]:
        groups = _groups(field)
        pending: list[_P] = []
        pairs: list[tuple[_P, _P]] = []
        g = 0
        while g < len(groups):
            upto, extra = g, 0
            while True:
                residents = [p for group in groups[g : upto + 1] for p in group]
                last = upto == len(groups) - 1
                below = groups[upto + 1] if not last else []
                found, floaters = self.bracket(pending, groups[g : upto + 1], below, extra)
                if last:
                    if floaters:  # no repeat-free pairing of what was left: the least bad one
                        found = self.exact_field(pending + residents)
                        floaters = []
                    break
                if completable(floaters + [p for group in groups[upto + 1 :] for p in group]):
                    break
                # The rest could not be paired without a repeat. A large bracket floats two more
                # players down (the Dutch system re-pairs the bracket above with more downfloaters);
                # a small one takes the next score group in.
                if self.is_large(pending, groups[g : upto + 1], below) and extra + 2 <= len(residents):
                    extra += 2
                else:
                    upto, extra = upto + 1, 0
            pairs += found
            pending = sorted(floaters, key=_P.key)
            g = upto + 1
        return pairs

    def bracket(
        self, mdps: list[_P], groups: list[list[_P]], below: list[_P], extra: int = 0
    ) -> tuple[list[tuple[_P, _P]], list[_P]]:
        """Pairs of one bracket and the players it floats down; ``below``: the next score group;
        ``extra``: how many more than the fewest a large bracket must float down."""
        ahead = below[: LOOKAHEAD + 1]
        if self.is_large(mdps, groups, below):
            return self.large_bracket(mdps, groups[0], ahead, extra)
        return self.exact_bracket(mdps, groups, ahead)

    @staticmethod
    def is_large(mdps: list[_P], groups: list[list[_P]], below: list[_P]) -> bool:
        """A bracket paired by the greedy pass: one score group, few moved-down players, and more
        players (with the lookahead) than one exact matching takes quickly."""
        size = len(mdps) + sum(len(g) for g in groups)
        ahead = min(len(below), LOOKAHEAD + 1)
        return len(groups) == 1 and 4 * len(mdps) <= size and size + ahead > EXACT_BRACKET

    def exact_bracket(
        self, mdps: list[_P], groups: list[list[_P]], below: list[_P], only_mdp_edges: bool = False
    ) -> tuple[list[tuple[_P, _P]], list[_P]]:
        """One matching over the bracket, repeats not allowed: as many pairs as possible, the higher
        scores paired first (the unpaired float down), then (C7) the most pairs and the least score
        differences in the next bracket (``below``: the top of the next score group), then the seats
        of this bracket, then of the next, then the other criteria in order."""
        members = mdps + [p for g in groups for p in g]
        if not members:
            return [], []
        # The next group's own pairs count too when all of it is in view (C7: the most pairs in the
        # next bracket); with only its top in view (``bracket`` passes one more than LOOKAHEAD then),
        # just whether each floater can be paired there.
        whole = len(below) <= LOOKAHEAD
        below = below[:LOOKAHEAD]
        inside = len(members)
        members += below
        order = _Order(groups)
        moved = {p.id for p in mdps}
        low = min(p.s for p in members[:inside])
        top = max(p.s for p in members[:inside])
        spread = (top - low) ** 2
        drop = (top - min((p.s for p in below), default=low)) ** 2
        maxima = [1, 2 * (top - low), spread, 1, drop, 1, 1, 1, 1, 1, 1, 2, 1, 2, 1, 2 * order.biggest, 1]
        gains: dict[tuple[int, int], list[int]] = {}
        for i, a in enumerate(members if whole else members[:inside]):
            for j in range(i + 1, len(members)):
                b = members[j]
                if b.id in a.met:
                    continue
                if j >= inside:  # a pair of the next bracket: only the lookahead fields
                    seats = self._seat_gains(a, b) if a.key() <= b.key() else self._seat_gains(b, a)
                    gains[(i, j)] = [0, 0, 0, 1, drop - (a.s - b.s) ** 2, 0, 0, 0, *seats] + [0] * 7
                    continue
                if only_mdp_edges and (a.id in moved) == (b.id in moved):
                    continue
                hi, lo = (a, b) if a.key() <= b.key() else (b, a)
                mixed = hi.s != lo.s
                _, up13, _, up15 = self._float_gains(hi, lo, mixed)
                # A resident kept from floating down again (C12, C14) counts for being paired here;
                # the higher of a mixed pair floats down all the same.
                staying = [x for x in (hi, lo) if x.id not in moved and not (x is hi and mixed)]
                gains[(i, j)] = [
                    1,
                    a.s - low + b.s - low,
                    spread - (a.s - b.s) ** 2,
                    0,
                    0,
                    *self._seat_gains(hi, lo),
                    0,
                    0,
                    0,
                    sum(1 for x in staying if x.float1 == DOWN),
                    up13,
                    sum(1 for x in staying if x.float2 == DOWN),
                    up15,
                    2 * order.biggest - (order.who(hi, lo) if mixed else 0),
                    0 if order.exchange(a, b) else 1,
                    order.digit_weight(hi, lo),
                ]
        found = _matching(members, gains, maxima, order.base**order.slots, maxcardinality=False)
        ahead = {p.id for p in below}
        pairs = [(a, b) for a, b in found if a.id not in ahead and b.id not in ahead]
        paired = {p.id for pair in pairs for p in pair}
        return pairs, [p for p in members[:inside] if p.id not in paired]

    def large_bracket(
        self, mdps: list[_P], group: list[_P], below: list[_P], extra: int = 0
    ) -> tuple[list[tuple[_P, _P]], list[_P]]:
        pairs: list[tuple[_P, _P]] = []
        floaters: list[_P] = []
        rest = list(group)
        if mdps:
            # The moved-down players meet the top of the group (a small matching of those only).
            top = rest[: 2 * len(mdps) + 8]
            found, left = self.exact_bracket(mdps, [top], [], only_mdp_edges=True)
            if any(p.id in {m.id for m in mdps} for p in left) and len(top) < len(rest):
                found, left = self.exact_bracket(mdps, [rest], [], only_mdp_edges=True)
            pairs += found
            taken = {p.id for pair in found for p in pair}
            floaters += [p for p in mdps if p.id not in taken]
            rest = [p for p in rest if p.id not in taken]
        for _ in range(len(rest) % 2 + extra):
            # One floats down: from S2, one who can be paired below (C7), then the one that leaves
            # the best seat outcome, has not floated down lately, and ranks lowest.
            counts = _Counts(rest)
            half = len(rest) // 2

            def below_seats(p: _P) -> Cost:
                """The least seat denial of ``p`` meeting someone below; none below: none."""
                options = [_denied(allocate(p, q)[2]) for q in below if q.id not in p.met]
                return min(options, default=(9, 9, 9) if below else _ZERO)

            down = min(
                rest[half:],
                key=lambda p: (
                    bool(below) and all(q.id in p.met for q in below),
                    counts.bound(p),
                    below_seats(p),
                    p.float1 == DOWN,
                    p.float2 == DOWN,
                    -p.number,
                ),
            )
            floaters.append(down)
            rest = [p for p in rest if p is not down]
        if not completable(rest):  # the rest cannot pair without a repeat: the exact way
            return self.exact_bracket(mdps, [group], below)
        pairs += self.homogeneous(rest)
        return pairs, floaters

    def homogeneous(self, group: list[_P]) -> list[tuple[_P, _P]]:
        """An even set of equal score, top half against bottom half by pairing number: for each S1
        player in turn the first S2 player (then, exchanging, S1 player) that keeps the least
        denial of seat preferences reachable; small matchings where that falls short."""
        half = len(group) // 2
        s1, s2 = list(group[:half]), list(group[half:])
        top = {p.id for p in s1}
        counts = _Counts(group)
        target = counts.bound()
        pairs: list[tuple[_P, _P]] = []
        stuck: list[_P] = []
        total = _ZERO
        done: set[Hashable] = set()
        for x in group:
            if x.id in done:
                continue
            done.add(x.id)
            (s1 if x in s1 else s2).remove(x)
            now = counts.bound(x)
            counts.add(x, -1)
            options = s2 + s1 if x.id in top else s2
            best: tuple[Cost, _P] | None = None
            chosen = None
            for y in options:
                if y.id in x.met:
                    continue
                cost = _denied(allocate(x, y)[2])
                reach = _add(cost, counts.bound(y))
                if reach == now:
                    chosen = y
                    break
                if best is None or reach < best[0]:
                    best = (reach, y)
            if chosen is None and best is not None:
                chosen = best[1]
            if chosen is None:
                stuck.append(x)
                continue
            done.add(chosen.id)
            counts.add(chosen, -1)
            (s2 if chosen in s2 else s1).remove(chosen)
            pairs.append((x, chosen))
            total = _add(total, _denied(allocate(x, chosen)[2]))
        if not stuck and total == target:
            return pairs
        return self.repair(pairs, stuck, group)

    def repair(self, pairs: list[tuple[_P, _P]], stuck: list[_P], group: list[_P]) -> list[tuple[_P, _P]]:
        """Re-pair exactly the pairs that deny a seat preference (or repeat), with more and more of
        their neighbours (1, 3, 6 pairs either side, then the whole group when it is small), in chunks
        of at most REPAIR players, until the seat bound is reached; players left without a partner go
        with the last pairs."""
        rank = {p.id: i for i, p in enumerate(group)}
        target = _Counts(group).bound()
        for reach in (1, 3, 6, len(group)):
            if reach == len(group) and len(group) > REPAIR:
                break
            pairs = sorted(pairs, key=lambda pair: rank[pair[0].id])
            chosen: set[int] = set()
            for i, (a, b) in enumerate(pairs):
                if allocate(a, b)[2] or b.id in a.met:
                    chosen.update(k for k in range(i - reach, i + reach + 1) if 0 <= k < len(pairs))
            tail = len(pairs) - 2 * reach - len(stuck)
            if stuck:
                chosen.update(range(max(0, tail), len(pairs)))
            out = [pair for k, pair in enumerate(pairs) if k not in chosen]
            chunk: list[_P] = []
            for k in sorted(chosen):
                chunk += pairs[k]
                if len(chunk) >= REPAIR and k < tail:
                    out += self.exact_field(sorted(chunk, key=lambda p: rank[p.id]))
                    chunk = []
            out += self.exact_field(sorted(chunk + stuck, key=lambda p: rank[p.id]))
            pairs, stuck = out, []
            cost, repeats = _ZERO, 0
            for a, b in pairs:
                cost = _add(cost, _denied(allocate(a, b)[2]))
                repeats += b.id in a.met
            if cost == target and not repeats:
                break
        return pairs


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


def pair(players: Sequence[Player], last_round: bool = False) -> Round:
    """The next round of a two-player Swiss: pairs in board order, each (first seat, second seat), and
    the bye. ``last_round``: topscorers may meet whatever their seat preferences (C3)."""
    if len({p.id for p in players}) != len(players):
        raise ValueError("players must be distinct")
    return _Solver(players, last_round).solve()
