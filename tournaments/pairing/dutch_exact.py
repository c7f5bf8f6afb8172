"""The Dutch pairing's exact matchings (tournaments/pairing/dutch.py): the whole round of a small field in
one matching with the bye's stand-in, a small bracket's matching, and the re-split of each bracket
into S1 and S2 afterwards (FIDE B.3)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from tournaments.pairing.dutch_brackets import Brackets, exchanged
from tournaments.pairing.dutch_criteria import (
    _BYE,
    _P,
    _ZERO,
    ABSOLUTE,
    DOWN,
    LOOKAHEAD,
    UP,
    Cost,
    Player,
    _denied,
    _groups,
    _matching,
    _Order,
    allocate,
)


class _Exact:
    """A round's players and the exact matchings; ``dutch._Solver`` adds the bye and the large brackets."""

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
