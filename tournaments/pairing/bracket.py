"""Single and double elimination as a pure state machine: build it from the seeding, then ``record``
each winner in the order the matches were decided (the tournament log replays exactly these calls).

The bracket is laid out on the next power of two, seeded as ``elimination.first_round`` seeds it, so
byes fall to the top seeds. Where a bye leaves a side empty, that is known from the start (it depends
on the seeding, never on results): a pairing with one side empty is not a match, its one entrant
goes straight on, in the losers bracket too; and a round left without any match is not numbered.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tournaments.pairing.elimination import bracket_size, seed_order

WINNERS, LOSERS, FINAL, THIRD_PLACE = "winners", "losers", "final", "third_place"


@dataclass
class Match:
    id: str  # "W1-1" (winners round 1, match 1), "L2-3", "GF1", "GF2" (the reset), "3P"
    bracket: str  # "winners" | "losers" | "final" | "third_place"
    round: int  # inside its bracket, from 1; the grand final is 1 and its reset 2
    a: Hashable | None  # None while unknown
    b: Hashable | None
    winner: Hashable | None = None
    winner_to: str | None = None  # the match the winner plays next, for drawing (None after a final)
    loser_to: str | None = None  # the same for the loser (None: the loser is out)


Slot = tuple[int, int]  # (node index, side 0 = a or 1 = b)

T = TypeVar("T")

#: How the losers of winners-bracket round 2, 3, … drop into the losers bracket, by bracket size: the
#: orders brackets-manager uses by default (``defaultMinorOrdering``, after its first, "natural", for
#: round 1's losers), chosen to keep a loser from meeting again soon whom it met in the winners bracket.
DROP_ORDERS: dict[int, tuple[str, ...]] = {
    4: ("reverse",),
    8: ("reverse", "natural"),
    16: ("reverse_half_shift", "reverse", "natural"),
    32: ("reverse", "half_shift", "natural", "natural"),
    64: ("reverse", "half_shift", "reverse", "natural", "natural"),
    128: ("reverse", "half_shift", "pair_flip", "pair_flip", "pair_flip", "natural"),
}


def reorder(items: Sequence[T], method: str) -> list[T]:
    """One of brackets-manager's seed orderings."""
    half = len(items) // 2
    if method == "natural":
        return list(items)
    if method == "reverse":
        return list(items)[::-1]
    if method == "half_shift":
        return [*items[half:], *items[:half]]
    if method == "reverse_half_shift":  # each half reversed in place: 1…8 gives 4 3 2 1 8 7 6 5
        return [*list(items[:half])[::-1], *list(items[half:])[::-1]]
    if method == "pair_flip":
        return [x for i in range(0, len(items) - 1, 2) for x in (items[i + 1], items[i])]
    raise ValueError(f"unknown order {method!r}")


def drop_order(dropped: Sequence[T], size: int, winners_round: int) -> list[T]:
    """The order in which the losers of winners-bracket round ``winners_round`` (2 or later) meet the
    losers bracket's survivors, in a bracket of ``size``. Past 128: reversed and halves swapped in
    turn."""
    orders = DROP_ORDERS.get(size)
    if orders is not None and winners_round - 2 < len(orders):
        return reorder(dropped, orders[winners_round - 2])
    return reorder(dropped, "reverse" if winners_round % 2 == 0 else "half_shift")


Source = tuple[str, int]  # ("win", node index) or ("lose", node index)


def _pairs(nodes: list[int]) -> list[tuple[int, int]]:
    """Neighbours two by two: the pairings of the next round."""
    return [(nodes[i], nodes[i + 1]) for i in range(0, len(nodes), 2)]


@dataclass
class _Node:
    """A pairing of the power-of-two layout; a match only if both sides will hold an entrant."""

    bracket: str
    round: int  # before rounds without a match are dropped
    real: tuple[bool, bool]
    winner_to: Slot | None = None
    loser_to: Slot | None = None
    loser_place: int | None = None  # the place of the loser, when losing here puts one out
    match: Match | None = None
    seeds: tuple[Hashable | None, Hashable | None] = (None, None)


class Bracket:
    """Single elimination, or double with a grand final (and, with ``reset``, a second one if the
    losers-bracket champion wins the first). ``third_place`` adds a match between the semi-final
    losers of a single elimination (when both exist); a double elimination places its third anyway.
    """

    def __init__(
        self,
        seeded: Sequence[Hashable],
        *,
        double: bool = False,
        third_place: bool = False,
        reset: bool = True,
    ) -> None:
        if len(set(seeded)) != len(seeded):
            raise ValueError("entrants must be distinct")
        if len(seeded) < 2:
            raise ValueError("a bracket needs two entrants or more")
        self.entrants = list(seeded)
        self.double, self.reset = double, reset
        self._nodes: list[_Node] = []
        self._places: dict[Hashable, int] = {}
        self._reset = -1  # the node of GF2, when there is one
        self._skipped = ""
        size = bracket_size(len(seeded))
        self.size = size
        slots = [seeded[s - 1] if s <= len(seeded) else None for s in seed_order(size)]
        winners = [[self._seeded(slots[i], slots[i + 1]) for i in range(0, size, 2)]]
        losers: list[list[int]] = []
        while len(winners[-1]) > 1:
            if double:
                losers += self._losers_rounds(winners, losers)
            before = winners[-1]
            if third_place and not double and len(before) == 2 and all(self._played(x) for x in before):
                self._add(THIRD_PLACE, 1, ("lose", before[0]), ("lose", before[1]))
            winners.append(
                [self._add(WINNERS, len(winners) + 1, ("win", x), ("win", y)) for x, y in _pairs(before)]
            )
        if double:
            losers += self._losers_rounds(winners, losers)
            champion: Source = ("win", losers[-1][0]) if losers else ("lose", winners[-1][0])
            self._add(FINAL, 1, ("win", winners[-1][0]), champion)
            if reset:
                self._reset = len(self._nodes)
                self._nodes.append(_Node(FINAL, 2, (True, True)))  # fed by hand, only if GF1 asks for it
        self.matches: list[Match] = self._name()
        self._by_id = {n.match.id: i for i, n in enumerate(self._nodes) if n.match is not None}
        self._place_losers()
        for index, node in enumerate(self._nodes):
            for side, who in enumerate(node.seeds):
                if who is not None:
                    self._deliver((index, side), who)

    # -- layout ------------------------------------------------------------------------------------

    def _played(self, index: int) -> bool:
        return all(self._nodes[index].real)

    def _seeded(self, a: Hashable | None, b: Hashable | None) -> int:
        self._nodes.append(_Node(WINNERS, 1, (a is not None, b is not None), seeds=(a, b)))
        return len(self._nodes) - 1

    def _add(self, bracket: str, round: int, a: Source, b: Source) -> int:
        index = len(self._nodes)
        real = []
        for side, (kind, ref) in enumerate((a, b)):
            source = self._nodes[ref]
            # A winner exists if either side is an entrant; a loser only if both are.
            live = any(source.real) if kind == "win" else all(source.real)
            real.append(live)
            if live and kind == "win":
                source.winner_to = (index, side)
            elif live:
                source.loser_to = (index, side)
        self._nodes.append(_Node(bracket, round, (real[0], real[1])))
        return index

    def _losers_rounds(self, winners: list[list[int]], losers: list[list[int]]) -> list[list[int]]:
        """The losers-bracket rounds fed by the latest winners round: its losers drop in (crossed
        over so they do not meet again at once whom they just met), then the survivors pair up."""
        dropped = winners[-1]
        if len(winners) == 1:
            if len(dropped) < 2:
                return []
            pairs = _pairs(dropped)
            return [[self._add(LOSERS, 1, ("lose", x), ("lose", y)) for x, y in pairs]]
        order = drop_order(dropped, self.size, len(winners))
        number = len(losers) + 1
        major = [
            self._add(LOSERS, number, ("win", x), ("lose", y)) for x, y in zip(losers[-1], order, strict=True)
        ]
        if len(major) == 1:
            return [major]
        minor = [self._add(LOSERS, number + 1, ("win", x), ("win", y)) for x, y in _pairs(major)]
        return [major, minor]

    def _name(self) -> list[Match]:
        """Give every real pairing its match, numbered within rounds that have one."""
        numbers: dict[tuple[str, int], int] = {}
        for bracket in (WINNERS, LOSERS):
            played = sorted({n.round for n in self._nodes if n.bracket == bracket and all(n.real)})
            numbers.update({(bracket, r): i + 1 for i, r in enumerate(played)})
        counts: dict[tuple[str, int], int] = {}
        for node in self._nodes:
            if not all(node.real):
                continue
            key = (node.bracket, node.round)
            counts[key] = counts.get(key, 0) + 1
            if node.bracket == FINAL:
                ident, number = f"GF{node.round}", node.round
            elif node.bracket == THIRD_PLACE:
                ident, number = "3P", 1
            else:
                number = numbers[key]
                ident = f"{node.bracket[0].upper()}{number}-{counts[key]}"
            node.match = Match(ident, node.bracket, number, None, None)
        for node in self._nodes:
            if node.match is not None:
                node.match.winner_to = self._next(node.winner_to)
                node.match.loser_to = self._next(node.loser_to)
        return [n.match for n in self._nodes if n.match is not None]

    def _next(self, slot: Slot | None) -> str | None:
        while slot is not None:
            node = self._nodes[slot[0]]
            if node.match is not None:
                return node.match.id
            slot = node.winner_to
        return None

    def _place_losers(self) -> None:
        """Entrants put out in the same round share a place: one more than the number still in."""
        out = 0
        for bracket in (WINNERS, LOSERS):
            if bracket == WINNERS and self.double:
                continue
            rounds = sorted({n.round for n in self._nodes if n.bracket == bracket})
            for r in rounds:
                here = [n for n in self._nodes if n.bracket == bracket and n.round == r and n.match]
                out += len(here)
                for node in here:
                    if node.loser_to is None:
                        node.loser_place = len(self.entrants) - out + 1

    # -- play --------------------------------------------------------------------------------------

    def _deliver(self, slot: Slot | None, who: Hashable) -> None:
        while slot is not None:
            index, side = slot
            node = self._nodes[index]
            if node.match is not None:
                if side == 0:
                    node.match.a = who
                else:
                    node.match.b = who
                return
            slot = node.winner_to  # one side is empty: its one entrant goes straight on

    def pending(self) -> list[Match]:
        """Matches ready to play (both sides known, no winner), in play order."""
        return [m for m in self.matches if m.a is not None and m.b is not None and m.winner is None]

    def record(self, match_id: str, winner: Hashable) -> None:
        index = self._by_id.get(match_id)
        if index is None:
            why = f" ({self._skipped})" if match_id == "GF2" and self._skipped else ""
            raise ValueError(f"no match {match_id!r} in this bracket{why}")
        node = self._nodes[index]
        match = node.match
        assert match is not None
        if match.winner is not None:
            raise ValueError(f"{match_id} is already decided: {match.winner!r} won it")
        if match.a is None or match.b is None:
            raise ValueError(f"{match_id} cannot be decided yet: who plays in it is not known")
        if winner != match.a and winner != match.b:
            raise ValueError(f"{winner!r} does not play in {match_id} ({match.a!r} against {match.b!r})")
        loser = match.b if winner == match.a else match.a
        match.winner = winner
        if node.bracket == FINAL and node.round == 1 and self.reset and winner == match.b:
            reset = self._nodes[self._reset].match
            assert reset is not None
            reset.a, reset.b = match.a, match.b
            return
        if node.bracket == FINAL:
            self._places[winner], self._places[loser] = 1, 2
            if node.round == 1 and self.reset:
                self._drop_reset()
            return
        if node.bracket == THIRD_PLACE:
            self._places[winner], self._places[loser] = 3, 4
            return
        if node.loser_place is not None:
            self._places[loser] = node.loser_place
            if node.winner_to is None:
                self._places[winner] = 1
        self._deliver(node.winner_to, winner)
        self._deliver(node.loser_to, loser)

    def _drop_reset(self) -> None:
        reset = self._nodes[self._reset].match
        assert reset is not None
        self.matches.remove(reset)
        del self._by_id["GF2"]
        self._skipped = "not played: the winners-bracket champion won GF1"

    def finished(self) -> bool:
        return all(m.winner is not None for m in self.matches)

    def placings(self) -> dict[Hashable, int]:
        """Places decided so far (all of them once finished), by the order entrants were seeded."""
        return {e: self._places[e] for e in self.entrants if e in self._places}
