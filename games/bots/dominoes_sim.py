"""Fast playouts of the rest of a dominoes round, for the strong bot's search.

A playout works on plain mutable lists that never leave the call (``Table`` mirrors the
engine's ``Layout``; tests check they agree move by move) and ends with the engine's own
end-of-round scoring, so its results follow the engine's rules.
"""

from __future__ import annotations

import random

from games.engines.dominoes.rules import apply, round_end_event, sole_leader
from games.engines.dominoes.state import CENTER, DOWN, LEFT, PLAY, RIGHT, UP, Layout, State, end_counts
from games.engines.dominoes.tiles import DOUBLE, HI, LO, MASK, PIPS

WIN = 100_000  # the value of winning the game, in half-points


class Table:
    """A mutable copy of a layout's ends for one playout (what ``Layout`` holds, minus the tiles)."""

    __slots__ = ("ends", "tips", "lengths", "spinner", "lead_double", "started")

    def __init__(self, layout: Layout) -> None:
        self.ends = list(layout.ends)
        self.tips = list(layout.tips)
        self.lengths = list(layout.lengths)
        self.spinner = layout.spinner
        self.started = bool(layout.placed)
        self.lead_double = self.started and DOUBLE[layout.placed[0][0]]

    def plays(self, hand: list[int]) -> list[tuple[int, int]]:
        if not self.started:
            return [(tile, CENTER) for tile in hand]
        out = []
        ends = self.ends
        for tile in hand:
            mask = MASK[tile]
            for arm in (0, 1, 2, 3):
                shown = ends[arm]
                if shown >= 0 and mask >> shown & 1:
                    out.append((tile, arm))
        return out

    def counts(self) -> list[int]:
        """What each end counts (All Fives), as ``Layout.counts``."""
        if not self.started:
            return [0, 0, 0, 0]
        return end_counts(self.ends, self.tips, self.lead_double)

    def total_after(self, counts: list[int], tile: int, arm: int) -> int:
        """The sum of the ends once ``tile`` is laid on ``arm``, without laying it."""
        if arm == CENTER:
            return HI[tile] + LO[tile]
        outer = LO[tile] if HI[tile] == self.ends[arm] else HI[tile]
        total = (
            counts[0]
            + counts[1]
            + counts[2]
            + counts[3]
            - counts[arm]
            + (2 * outer if DOUBLE[tile] else outer)
        )
        if arm <= RIGHT and self.lead_double and self.tips[arm] < 0 and self.tips[1 - arm] < 0:
            total += self.ends[1 - arm]  # a lone lead double: its other side now counts both halves
        return total

    def place(self, tile: int, arm: int, spinners: bool) -> None:
        """Lay ``tile`` on ``arm``, as ``Layout.place``."""
        if arm == CENTER:
            self.ends = [HI[tile], LO[tile], -1, -1]
            self.tips = [-1, -1, -1, -1]
            self.lengths = [0, 0, 0, 0]
            self.spinner = (CENTER, 0, HI[tile]) if spinners and DOUBLE[tile] else None
            self.started = True
            self.lead_double = DOUBLE[tile]
            return
        ends, lengths = self.ends, self.lengths
        ends[arm] = LO[tile] if HI[tile] == ends[arm] else HI[tile]
        self.tips[arm] = tile
        index = lengths[arm]
        lengths[arm] = index + 1
        spinner = self.spinner
        if spinner is None and spinners and DOUBLE[tile]:
            spinner = self.spinner = (arm, index, HI[tile])
        if spinner is not None and ends[UP] < 0:
            s_arm, s_index, number = spinner
            if (
                (lengths[LEFT] > 0 and lengths[RIGHT] > 0)
                if s_arm == CENTER
                else lengths[s_arm] > s_index + 1
            ):
                ends[UP] = ends[DOWN] = number


# Weights of the playout policy's tile heuristic (in pips), tuned by greedy-against-greedy
# matches: in two-player Block it beats "heaviest tile first" about 70% of the games.
DOUBLE_BONUS = 8  # doubles are hard to place later: lay them early
KEEP_BONUS = 4  # per other tile of mine showing the number left open (up to two): keep control
VOID_BONUS = 8  # leave open a number an opponent has shown they lack


def best_play(
    plays: list[tuple[int, int]],
    table: Table,
    fives: bool,
    rng: random.Random,
    hand: list[int],
    opponents_void: int,
) -> tuple[int, int, int]:
    """The policy's choice: most points in play (All Fives), then the tile heuristic; ties at random.

    Returns (tile, arm, half-points scored).
    """
    best: tuple[int, int, int] = (-1, -1, 0)
    best_key = (-1, -1, -1.0)
    counts = table.counts() if fives else [0, 0, 0, 0]
    ends = table.ends
    for tile, arm in plays:
        scored = 0
        if fives:
            total = table.total_after(counts, tile, arm)
            if total > 0 and total % 5 == 0:
                scored = 2 * total
        worth = PIPS[tile] + (DOUBLE_BONUS if DOUBLE[tile] else 0)
        if arm != CENTER:
            outer = LO[tile] if HI[tile] == ends[arm] else HI[tile]
            keep = 0
            for other in hand:
                if other != tile and MASK[other] >> outer & 1:
                    keep += 1
            worth += KEEP_BONUS * min(keep, 2) + (VOID_BONUS if opponents_void >> outer & 1 else 0)
        key = (scored, worth, rng.random())
        if key > best_key:
            best_key, best = key, (tile, arm, scored)
    return best


def playout(state: State, rng: random.Random, epsilon: float = 0.15) -> State:
    """Play the round out with an epsilon-greedy policy; the state at its end (count or game over)."""
    if state.phase != "play":
        return state
    n = state.players
    fives = state.variant == "all_fives"
    drawing = state.variant != "block"
    partners = state.partnerships
    hands = [list(h) for h in state.hands]
    boneyard = list(state.boneyard)
    table = Table(state.layout)
    scores = list(state.scores)
    target2 = 2 * state.config["target"]
    turn, passes = state.turn, state.passes
    voids = [0] * n  # numbers each player showed they lacked (by drawing or passing)
    for move in state.moves:
        if move[1] != PLAY:
            voids[move[0]] |= move[5]
    went_out: int | None = None
    while True:
        hand = hands[turn]
        plays = table.plays(hand)
        if plays:
            if rng.random() < epsilon:
                tile, arm = plays[rng.randrange(len(plays))]
                scored = 0
                if fives:
                    total = table.total_after(table.counts(), tile, arm)
                    scored = 2 * total if total > 0 and total % 5 == 0 else 0
            else:
                opponents_void = 0
                for other in range(n):
                    if other != turn and (not partners or (other - turn) % 2):
                        opponents_void |= voids[other]
                tile, arm, scored = best_play(plays, table, fives, rng, hand, opponents_void)
            table.place(tile, arm, fives)
            hand.remove(tile)
            passes = 0
            if scored:
                side = turn % 2 if partners else turn
                scores[side] += scored
                top = max(scores)
                if top >= target2 and scores.count(top) == 1:
                    return _finish(state, hands, boneyard, scores, "over")
            if not hand:
                went_out = turn
                break
            turn = (turn + 1) % n
        else:
            open_mask = 0
            for shown in table.ends:
                if shown >= 0:
                    open_mask |= 1 << shown
            voids[turn] |= open_mask
            if drawing and boneyard:
                hand.append(boneyard.pop(0))
                continue
            passes += 1
            if passes == n:
                break
            turn = (turn + 1) % n
    end = _finish(state, hands, boneyard, scores, "play")
    counted = apply(end, round_end_event(end, went_out))
    if sole_leader(counted) is not None:
        return counted._replace(phase="over")
    return counted


def _finish(
    state: State, hands: list[list[int]], boneyard: list[int], scores: list[int], phase: str
) -> State:
    """The playout's end as a State: hands and scores (the layout is not needed for the count)."""
    return state._replace(
        hands=tuple(tuple(h) for h in hands), boneyard=tuple(boneyard), scores=tuple(scores), phase=phase
    )


def value(state: State, seat: int, win: int = WIN) -> int:
    """My side's score minus the best other side's, plus ``win`` (half-points) if the game is over."""
    mine = state.side(seat)
    others = [s for i, s in enumerate(state.scores) if i != mine]
    margin = state.scores[mine] - max(others)
    if state.phase == "over":
        return margin + (win if margin > 0 else -win)
    return margin
