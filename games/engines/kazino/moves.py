"""Which moves are legal: captures (largest sets), builds, tripes, trails."""

from __future__ import annotations

from games.engines.base import Action

from .cards import MAX_BUILD, ORDER, RANK, VALUE, play_values
from .state import Pile, State


def can_take(card: str, pile: Pile) -> bool:
    """Whether ``card`` (played at the right value) captures the build or tripe ``pile``."""
    if pile.kind == "build":
        return pile.value in play_values(card)
    return RANK[card] == RANK[pile.cards[0]]


def covered(hand: tuple[str, ...] | list[str], piles: list[Pile]) -> bool:
    """Whether ``hand`` holds a card that can capture each of ``piles``."""
    return all(any(can_take(card, pile) for card in hand) for pile in piles)


def _group_key(group: list[str]) -> list[int]:
    return [ORDER[c] for c in group]


def _family_key(family: list[list[str]]) -> list[list[int]]:
    return [[ORDER[c] for c in group] for group in family]


def _sorted_group(cards: list[str] | tuple[str, ...]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


class TableIndex:
    """The table split once per move generation: loose cards (by value), builds, tripes."""

    __slots__ = ("loose", "order", "values", "builds", "tripes", "ranks", "sums", "memo", "targets")

    def __init__(self, table: tuple[Pile, ...]) -> None:
        self.loose = [p.cards[0] for p in table if p.kind == "card"]
        self.order = sorted(range(len(self.loose)), key=lambda i: VALUE[self.loose[i]])
        self.values = [VALUE[self.loose[i]] for i in self.order]
        self.builds = [p for p in table if p.kind == "build"]
        self.tripes = [p for p in table if p.kind == "tripe"]
        self.ranks = {RANK[c] for c in self.loose}
        self.sums = _sums_of_two_or_more(self.values)
        self.memo: dict[tuple[str, int], list[list[list[str]]]] = {}
        # Positions of the piles a card may be built on, by the pile's value.
        self.targets: dict[int, list[int]] = {}
        for i, p in enumerate(table):
            if p.kind != "tripe":
                self.targets.setdefault(p.value, []).append(i)

    def captures(self, rank: str, value: int) -> list[list[list[str]]]:
        key = (rank, value)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = _captures(self, rank, value)
        return found

    def capture_size(self, rank: str, value: int) -> int:
        """How many table cards a card of ``rank`` at ``value`` would take (0: none), without
        listing the captures: cheap enough for bots to ask about every rank."""
        size = sum(len(p.cards) for p in self.builds if p.value == value)
        size += sum(len(p.cards) for p in self.tripes if RANK[p.cards[0]] == rank)
        if self.sums >> value & 1 or rank in self.ranks:
            size += _largest_count(_loose_groups(self, rank, value))
        return size


def _sums_of_two_or_more(values: list[int]) -> int:
    """Every total up to 14 that two or more of the loose cards make, as a bit set (bit n: total n)."""
    single = several = 0
    limit = (1 << (MAX_BUILD + 1)) - 1
    for v in values:
        several |= ((single | several) << v) & limit
        single |= 1 << v
    return several


def _captures(t: TableIndex, rank: str, value: int) -> list[list[list[str]]]:
    """Largest captures of a card of ``rank`` at ``value``.

    A capture takes every build of ``value``, every tripe of the card's rank, and a
    largest family of disjoint groups of loose cards, each group one card of the
    same rank or two or more cards adding up to ``value`` (Aces count 1). Families
    covering the same cards are one capture; its groups are the smallest family in
    the canonical order (cards by rank then suit, groups by their cards).
    Returns [] when the card captures nothing at that value.
    """
    fixed = [_sorted_group(p.cards) for p in t.builds if p.value == value]
    fixed += [_sorted_group(p.cards) for p in t.tripes if RANK[p.cards[0]] == rank]
    groups = _loose_groups(t, rank, value) if t.sums >> value & 1 or rank in t.ranks else []
    if not groups:
        return [sorted(fixed, key=_group_key)] if fixed else []
    out = []
    for mask in _largest_covers(groups):
        family = fixed + [
            _sorted_group([t.loose[i] for i in _bits(g)]) for g in _canonical_split(t, groups, mask)
        ]
        out.append(sorted(family, key=_group_key))
    return sorted(out, key=_family_key)


def _bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def _loose_groups(t: TableIndex, rank: str, value: int) -> list[int]:
    """Bit masks (over ``t.loose``) of the loose-card groups a card of ``rank`` at ``value`` may take."""
    groups = [1 << i for i, c in enumerate(t.loose) if RANK[c] == rank]
    order, values = t.order, t.values
    n = len(order)

    def extend(start: int, remaining: int, mask: int, size: int) -> None:
        for j in range(start, n):
            v = values[j]
            if v > remaining:
                return
            bit = 1 << order[j]
            if v == remaining:
                if size >= 1:
                    groups.append(mask | bit)
            elif j + 1 < n:
                extend(j + 1, remaining - v, mask | bit, size + 1)

    extend(0, value, 0, 0)
    return groups


def _largest_covers(groups: list[int]) -> set[int]:
    """The card sets of largest size that split into disjoint ``groups``.

    Memoised on the cards still available, taking the lowest one first: it is left out, or
    taken in a group whose lowest card it is. Polynomial in the distinct subsets met, so a
    table crowded with small cards stays fast.
    """
    by_low: dict[int, list[int]] = {}
    for g in groups:
        by_low.setdefault(g & -g, []).append(g)
    memo: dict[int, tuple[int, set[int]]] = {}

    def solve(avail: int) -> tuple[int, set[int]]:
        if not avail:
            return 0, {0}
        found = memo.get(avail)
        if found is not None:
            return found
        low = avail & -avail
        best, covers = solve(avail & ~low)
        for g in by_low.get(low, ()):
            if g & avail == g:
                count, rest = solve(avail & ~g)
                count += g.bit_count()
                if count > best:
                    best, covers = count, {m | g for m in rest}
                elif count == best:
                    covers = covers | {m | g for m in rest}
        memo[avail] = best, covers
        return best, covers

    union = 0
    for g in groups:
        union |= g
    return solve(union)[1]


def _largest_count(groups: list[int]) -> int:
    """The size of the largest card set that splits into disjoint ``groups`` (as in ``_largest_covers``)."""
    by_low: dict[int, list[int]] = {}
    for g in groups:
        by_low.setdefault(g & -g, []).append(g)
    memo: dict[int, int] = {0: 0}

    def solve(avail: int) -> int:
        found = memo.get(avail)
        if found is None:
            low = avail & -avail
            found = solve(avail & ~low)
            for g in by_low.get(low, ()):
                if g & avail == g:
                    found = max(found, g.bit_count() + solve(avail & ~g))
            memo[avail] = found
        return found

    union = 0
    for g in groups:
        union |= g
    return solve(union)


def _canonical_split(t: TableIndex, groups: list[int], mask: int) -> list[int]:
    """The smallest family in the canonical order that splits ``mask`` into ``groups``.

    Groups are disjoint, so a sorted family is ordered by each group's smallest card: take
    the canonically smallest card left, put it in the smallest group that leaves a splittable
    rest, and go on.
    """
    keys = {g: sorted(ORDER[t.loose[i]] for i in _bits(g)) for g in groups}
    memo: dict[int, bool] = {0: True}

    def splits(m: int) -> bool:
        found = memo.get(m)
        if found is None:
            low = m & -m
            found = any(g & low and g & m == g and splits(m & ~g) for g in groups)
            memo[m] = found
        return found

    family = []
    while mask:
        first = min(_bits(mask), key=lambda i: ORDER[t.loose[i]])
        candidates = sorted((g for g in groups if g >> first & 1 and g & mask == g), key=keys.__getitem__)
        chosen = next(g for g in candidates if splits(mask & ~g))
        family.append(chosen)
        mask &= ~chosen
    return family


def _needs(pile: Pile) -> tuple[str, int | str]:
    """What a hand must hold to capture an owned pile: a value (build) or a rank (tripe)."""
    return ("value", pile.value) if pile.kind == "build" else ("rank", RANK[pile.cards[0]])


def legal_moves(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (who must be the seat to act)."""
    actions: list[Action] = []
    for card in state.hands[seat]:
        actions.extend(card_moves(state, seat, card))
    return actions


#: The index of the last table seen, by identity: ``legal_actions`` then ``decide`` on one state
#: share it (and its memo of captures). Tables are immutable tuples, so a hit is always right.
_last_index: tuple[tuple[Pile, ...], TableIndex] = ((), TableIndex(()))


def index_of(table: tuple[Pile, ...]) -> TableIndex:
    global _last_index
    seen, index = _last_index
    if seen is not table:
        index = TableIndex(table)
        _last_index = (table, index)
    return index


def card_moves(state: State, seat: int, card: str) -> list[Action]:
    """Every legal action of ``seat`` that plays ``card`` from the hand."""
    table = state.table
    t = index_of(table)
    owned = [(p.cards[0], _needs(p)) for p in table if p.owner == seat]
    rest = [c for c in state.hands[seat] if c != card]
    rest_values = {v for c in rest for v in play_values(c)}
    rest_ranks = {RANK[c] for c in rest}

    def keeps(skip: set[str] | str) -> bool:
        """Whether every owned pile but those in ``skip`` still has a capturer in hand."""
        for base, (what, need) in owned:
            if base not in skip and need not in (rest_values if what == "value" else rest_ranks):
                return False
        return True

    actions: list[Action] = []
    rank = RANK[card]
    for value in play_values(card):
        for groups in t.captures(rank, value):
            if not owned or keeps({c for g in groups for c in g}):
                groups = [list(g) for g in groups]  # the memo's lists stay private
                actions.append({"type": "capture", "card": card, "value": value, "groups": groups})
    card_value = VALUE[card]
    onto = [i for v in rest_values if v <= MAX_BUILD for i in t.targets.get(v - card_value, ())]
    if rank in rest_ranks:
        onto += [i for i, p in enumerate(table) if p.kind != "build" and RANK[p.cards[0]] == rank]
    for i in sorted(set(onto)):
        pile = table[i]
        base = pile.cards[0]
        if pile.kind != "tripe":
            new_value = pile.value + card_value
            if new_value <= MAX_BUILD and new_value in rest_values and (not owned or keeps(base)):
                actions.append({"type": "build", "card": card, "on": base, "value": new_value})
        if pile.kind != "build" and RANK[base] == rank and rank in rest_ranks and (not owned or keeps(base)):
            actions.append({"type": "tripe", "card": card, "on": base})
    if not owned:
        actions.append({"type": "trail", "card": card})
    return actions
