"""The whole-round matching of the Dutch Swiss (``dutch_exact._Exact.exact_round``) bracket by bracket: FIDE
C.04.3 settles one bracket (its seats, floats, moved-down players, exchanges and transpositions)
before it looks at the next; here each bracket's criteria are digits of one penalty, the top
bracket's most significant, so that one maximum-weight matching follows that order (#31)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol, TypeVar

Floats = tuple[bool, bool, bool, bool]


class Ranked(Protocol):
    """A player as the pairing sees it: an id, and a score in whole units."""

    @property
    def id(self) -> Hashable: ...

    @property
    def s(self) -> int: ...


R = TypeVar("R", bound=Ranked)


class Brackets:
    """The bracket-by-bracket fields of the whole-round matching as one penalty (smaller is
    better), the top bracket's most significant. Every player is in exactly one pair of the
    matching (the bye's stand-in included), so each is charged once, to the bracket where it is
    paired or which it leaves:

    1–3. seat preferences denied, absolute, strong, mild (a pair: the bracket of its lower player);
    4–7. C12–C15: floating down again (the bracket it leaves), up again, and two rounds back;
    8. moved-down players passing through unpaired (the better-ranked the more: S1 of a bracket's
       moved-down players is paired first);
    9. a moved-down player meeting a lower resident (its position in the resident's score group);
    10–11. FIDE D.2 exchanges: S1 players moved to S2, then the pairing numbers moved (up minus down);
    12. the transposition order: per S1 place (the first the most significant), how far down S2
        its partner is (an S1 player not paired into S2: the most).

    ``halves``: each score group in the order S1 then S2 (by pairing number unless an exchange
    sorted them again); ``sizes``: how many of each are S1."""

    def __init__(
        self,
        groups: Sequence[Sequence[Ranked]],
        halves: Sequence[Sequence[Ranked]],
        sizes: Sequence[int],
        levels: int,
        pairs: int,
    ) -> None:
        self.group: dict[Hashable, int] = {}
        self.rank: dict[Hashable, int] = {}  # the position by pairing number
        self.standing: dict[Hashable, int] = {}  # from the top of the field, how far
        self.pos: dict[Hashable, int] = {}  # the position in S1 then S2
        self.half: list[int] = []
        for g, members in enumerate(groups):
            for i, p in enumerate(members):
                self.group[p.id] = g
                self.rank[p.id] = i
                self.standing[p.id] = len(self.standing)
        self.players = len(self.standing)
        for members, size in zip(halves, sizes, strict=True):
            self.half.append(size)
            for i, p in enumerate(members):
                self.pos[p.id] = i
        self.biggest = max((len(g) for g in groups), default=1)
        self.base = self.biggest + 1
        small, wide, widest = pairs + 1, pairs * self.biggest + 1, pairs * self.players + 1
        #: the radices of one bracket's fields, most significant first, but for its transpositions
        self.radices = [small] * 7 + [widest, wide, small, wide]
        self.weights: list[int] = [1] * levels
        total = 1
        for k in range(levels - 1, -1, -1):
            self.weights[k] = total
            total *= math.prod(self.radices) * self.base ** (self.half[k] if k < len(self.half) else 0)
        self.top = total - 1

    def _bracket(self, k: int, fields: list[int], order: int = 0) -> int:
        value = 0
        for f, r in zip(fields, self.radices, strict=False):
            value = value * r + f
        value = value * math.prod(self.radices[len(fields) :])
        half = self.half[k] if k < len(self.half) else 0
        return (value * self.base**half + order) * self.weights[k]

    def _s1(self, p: Ranked, partner: Ranked | None) -> int:
        """The transposition digit of an S1 player: its partner's place in S2, or the most."""
        g = self.group[p.id]
        half = self.half[g]
        digit = self.base - 1
        if partner is not None and self.group.get(partner.id) == g and self.pos[partner.id] >= half:
            digit = self.pos[partner.id] - half
        return digit * self.base ** (half - 1 - self.pos[p.id])

    def penalty(self, a: Ranked, b: Ranked, seats: tuple[int, int, int], floats: Floats) -> int:
        """The penalty of the pair of ``a`` and ``b`` (``a`` ranked higher; ``b`` may be the bye's
        stand-in, which belongs to no score group); ``seats``: the preferences the pair denies
        (absolute, strong, mild); ``floats``: C12–C15 broken (``a`` down again, ``b`` up again, the
        same two rounds back)."""
        down1, up1, down2, up2 = (int(f) for f in floats)
        ga, gb = self.group[a.id], self.group.get(b.id)
        mixed = gb != ga
        lower = gb if gb is not None else len(self.half)
        meets = self.rank[b.id] if mixed and gb is not None else 0
        out = 0
        if mixed:
            # ``a`` leaves its bracket: floating down again, and an S1 player floating is an exchange
            half, i = self.half[ga], self.pos[a.id]
            s1 = i < half
            leaving = [0, 0, 0, down1, 0, down2, 0, 0, 0, int(s1), self.biggest - i if s1 else 0]
            out += self._bracket(ga, leaving, self._s1(a, None) if s1 else 0)
            passing = [0] * 7 + [self.players - self.standing[a.id]]
            for k in range(ga + 1, lower):
                out += self._bracket(k, passing)
            out += self._bracket(lower, [*seats, 0, up1, 0, up2, 0, meets])
            return out
        half, i, j = self.half[ga], self.pos[a.id], self.pos[b.id]
        moved, diff, order = 0, 0, 0
        if i < half and j < half:
            moved, diff = 1, self.biggest - max(i, j)
            order = self._s1(a, None) + self._s1(b, None)
        elif i >= half and j >= half:
            diff = min(i, j)
        else:
            order = self._s1(a, b) if i < half else self._s1(b, a)
        return self._bracket(ga, [*seats, 0, 0, 0, 0, 0, 0, moved, diff], order)


def exchanged(group: Sequence[R], pairs: Iterable[tuple[R, R]], half: int) -> list[R] | None:
    """The score group (by pairing number; its first ``half`` are S1) reordered as S1 then S2 after
    the exchange ``pairs`` make in it (FIDE D.2, the least difference: of two S1 players paired together the lower goes to S2, of
    two S2 players the higher to S1, an S1 player floating down goes to S2); None if no exchange,
    or if the moves do not balance (players paired with moved-down players leave the halves)."""
    pos = {p.id: i for i, p in enumerate(group)}
    down: set[Hashable] = set()
    up: set[Hashable] = set()
    for a, b in pairs:
        i, j = pos.get(a.id), pos.get(b.id)
        if i is not None and j is not None:
            if i < half and j < half:
                down.add(group[max(i, j)].id)
            elif i >= half and j >= half:
                up.add(group[min(i, j)].id)
        elif i is not None and j is None and a.s > b.s and i < half:
            down.add(a.id)  # ``a`` floats down from S1
        elif j is not None and i is None and b.s > a.s and j < half:
            down.add(b.id)
    if not down or len(down) != len(up):
        return None
    s1 = [p for i, p in enumerate(group) if (i < half and p.id not in down) or p.id in up]
    return s1 + [p for p in group if p not in s1]
