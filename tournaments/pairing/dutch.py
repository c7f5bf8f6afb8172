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

from collections.abc import Hashable, Sequence

from tournaments.pairing.dutch_criteria import (
    _P,
    _ZERO,
    ABSOLUTE,
    DOWN,
    EXACT_BRACKET,
    EXACT_FIELD,
    FIRST,
    LOOKAHEAD,
    MILD,
    REPAIR,
    SECOND,
    STRONG,
    UP,
    Cost,
    Player,
    Round,
    Seat,
    _add,
    _Counts,
    _denied,
    _groups,
    allocate,
    completable,
    seat_preference,
)
from tournaments.pairing.dutch_exact import _Exact

__all__ = [
    "ABSOLUTE",
    "DOWN",
    "EXACT_FIELD",
    "FIRST",
    "MILD",
    "SECOND",
    "STRONG",
    "UP",
    "Player",
    "Round",
    "Seat",
    "pair",
    "seat_preference",
]


class _Solver(_Exact):
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


def pair(players: Sequence[Player], last_round: bool = False) -> Round:
    """The next round of a two-player Swiss: pairs in board order, each (first seat, second seat), and
    the bye. ``last_round``: topscorers may meet whatever their seat preferences (C3)."""
    if len({p.id for p in players}) != len(players):
        raise ValueError("players must be distinct")
    return _Solver(players, last_round).solve()
