"""The state of a game and the mechanics of the layout (where a tile goes, what the ends show).

States are named tuples of tuples (immutable, cheap to copy, compared with ``==``):
``apply`` builds a new one and never mutates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .tiles import DOUBLE, HI, LO, other_half

# Arms of the layout. The lead sits in the centre; "left" and "right" are the line's two
# directions from it; "up" and "down" are the spinner's two branches (All Fives only).
CENTER = -1
LEFT, RIGHT, UP, DOWN = 0, 1, 2, 3
ARMS = (LEFT, RIGHT, UP, DOWN)
ARM_NAMES = ("left", "right", "up", "down")
END_ID = {"left": LEFT, "right": RIGHT, "up": UP, "down": DOWN, "center": CENTER}
END_NAME = {LEFT: "left", RIGHT: "right", UP: "up", DOWN: "down", CENTER: "center"}

# Kinds of entries in the round's public move log.
PLAY, DRAW, PASS = 0, 1, 2
KIND_NAMES = ("play", "draw", "pass")
KIND_ID = {"play": PLAY, "draw": DRAW, "pass": PASS}

NO_ENDS = (-1, -1, -1, -1)
NO_TIPS = (-1, -1, -1, -1)
NO_LENGTHS = (0, 0, 0, 0)

# A move in the log: (seat, kind, tile or -1, arm or -1 for the lead, points scored in half-points,
# mask of the numbers open at that moment for draws and passes).
Move = tuple[int, int, int, int, int, int]
# A placed tile: (tile, arm, the number it leaves open (-1 for the lead), seat that played it).
Placed = tuple[int, int, int, int]
# (reason, went_out seat or -1, winners, pips per seat, bonus per seat in half-points, round number)
RoundSummary = tuple[str, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def end_counts(ends: Sequence[int], tips: Sequence[int], lead_double: bool) -> list[int]:
    """What each end of a started layout counts in All Fives (0 for a closed end), from the pips it
    shows, the tile at its tip (-1: none) and whether the lead was a double (Layout.counts, and the
    computer players' simulation, games.bots.dominoes_sim)."""
    out = [0, 0, 0, 0]
    for arm in (LEFT, RIGHT):
        shown, tip = ends[arm], tips[arm]
        if tip < 0:
            if lead_double:
                # A lone double counts both halves once: split over its two open sides.
                out[arm] = 2 * shown if tips[1 - arm] >= 0 else shown
            else:
                out[arm] = shown
        else:
            out[arm] = 2 * shown if DOUBLE[tip] else shown
    for arm in (UP, DOWN):
        shown, tip = ends[arm], tips[arm]
        if shown >= 0 and tip >= 0:  # an open but empty branch counts zero
            out[arm] = 2 * shown if DOUBLE[tip] else shown
    return out


class Layout(NamedTuple):
    """The tiles on the table and what their open ends show and count."""

    placed: tuple[Placed, ...] = ()
    ends: tuple[int, int, int, int] = NO_ENDS  # number shown per arm, -1 where no end is open
    tips: tuple[int, int, int, int] = NO_TIPS  # outermost tile of each arm, -1 while the arm is empty
    lengths: tuple[int, int, int, int] = NO_LENGTHS
    spinner: tuple[int, int, int] | None = None  # (arm, index in that arm, number) of the spinner

    @property
    def lead(self) -> int:
        return self.placed[0][0] if self.placed else -1

    def open_mask(self) -> int:
        mask = 0
        for shown in self.ends:
            if shown >= 0:
                mask |= 1 << shown
        return mask

    def counts(self) -> tuple[int, int, int, int]:
        """What each end counts in All Fives (0 for a closed end)."""
        if not self.placed:
            return (0, 0, 0, 0)
        out = end_counts(self.ends, self.tips, DOUBLE[self.placed[0][0]])
        return (out[0], out[1], out[2], out[3])

    def total(self) -> int:
        return sum(self.counts())

    def spinner_sides_played(self) -> int:
        if self.spinner is None:
            return 0
        arm, index, _number = self.spinner
        if arm == CENTER:
            return (self.lengths[LEFT] > 0) + (self.lengths[RIGHT] > 0)
        return 1 + (self.lengths[arm] > index + 1)

    def place(self, tile: int, arm: int, seat: int, spinners: bool) -> Layout:
        """The layout after ``tile`` is laid on ``arm`` (CENTER for the lead). No rule checks."""
        if arm == CENTER:
            spinner = (CENTER, 0, HI[tile]) if spinners and DOUBLE[tile] else None
            return Layout(
                ((tile, CENTER, -1, seat),), (HI[tile], LO[tile], -1, -1), NO_TIPS, NO_LENGTHS, spinner
            )
        outer = other_half(tile, self.ends[arm])
        ends = list(self.ends)
        ends[arm] = outer
        tips = list(self.tips)
        tips[arm] = tile
        lengths = list(self.lengths)
        index = lengths[arm]
        lengths[arm] = index + 1
        spinner = self.spinner
        if spinner is None and spinners and DOUBLE[tile]:
            spinner = (arm, index, HI[tile])
        if spinner is not None and ends[UP] < 0:
            s_arm, s_index, number = spinner
            both_sides = (
                lengths[LEFT] > 0 and lengths[RIGHT] > 0 if s_arm == CENTER else lengths[s_arm] > s_index + 1
            )
            if both_sides:
                ends[UP] = ends[DOWN] = number
        return Layout(
            (*self.placed, (tile, arm, outer, seat)),
            (ends[0], ends[1], ends[2], ends[3]),
            (tips[0], tips[1], tips[2], tips[3]),
            (lengths[0], lengths[1], lengths[2], lengths[3]),
            spinner,
        )


EMPTY_LAYOUT = Layout()


class State(NamedTuple):
    config: dict[str, Any]
    seed: int
    phase: str  # "empty" before setup, "dealing" after it, then "play", "count" (between rounds), "over"
    round_no: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    boneyard: tuple[int, ...] = ()
    layout: Layout = EMPTY_LAYOUT
    turn: int = -1
    passes: int = 0  # passes in succession; the round is blocked when every player has passed
    scores: tuple[int, ...] = ()  # per side (team or player), in half-points
    leader: int = -1
    lead_by: str = ""
    moves: tuple[Move, ...] = ()
    ready: tuple[int, ...] = ()  # seats that asked for the next round after the count
    last_round: RoundSummary | None = None
    winners: tuple[int, ...] = ()
    end_reason: str = ""
    # Each round played so far and the sides' scores after it (public): the score sheet of a player
    # who reloads or a spectator who arrives late shows every round, not the last two (#33).
    past_rounds: tuple[tuple[RoundSummary, tuple[int, ...]], ...] = ()

    @property
    def players(self) -> int:
        n: int = self.config["players"]
        return n

    @property
    def variant(self) -> str:
        v: str = self.config["variant"]
        return v

    @property
    def partnerships(self) -> bool:
        p: bool = self.config["partnerships"]
        return p

    def side(self, seat: int) -> int:
        return seat % 2 if self.config["partnerships"] else seat

    def seat_score(self, seat: int) -> int:
        return self.scores[self.side(seat)]


EMPTY = State(config={}, seed=0, phase="empty")


def playable(hand: tuple[int, ...], layout: Layout) -> list[tuple[int, int]]:
    """Every (tile, arm) the hand may play; the lead may be any tile."""
    if not layout.placed:
        return [(tile, CENTER) for tile in hand]
    ends = layout.ends
    out = []
    for tile in hand:
        hi, lo = HI[tile], LO[tile]
        for arm in ARMS:
            shown = ends[arm]
            if shown >= 0 and (shown in (hi, lo)):
                out.append((tile, arm))
    return out


def can_play(hand: tuple[int, ...], layout: Layout) -> bool:
    if not layout.placed:
        return bool(hand)
    mask = layout.open_mask()
    return any(HI_LO_MASK[tile] & mask for tile in hand)


HI_LO_MASK = tuple((1 << HI[t]) | (1 << LO[t]) for t in range(28))
