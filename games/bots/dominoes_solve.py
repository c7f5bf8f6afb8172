"""Exact solution of a Block round once every hand is known (one sample of the strong bot's search).

Block has no drawing and no scoring in play, so a sampled deal is a small two-sided game of perfect
information: hands as bit sets, the two open numbers, whose turn and how many passed. Its value is
found by negamax with a transposition table; it replaces the quick random playout, which guesses how
the round goes on, with how it goes on when both sides play it out well.

Two sides only (two players, or four in partnerships): the side to move alternates with every turn.
Values are from the point of view of the side to move. By default they are in half-points: the round's
bonus won or lost, plus or minus ``win`` when that bonus ends the game. With an ``Equity`` they are the
side's chance of winning the game once the round is counted, as ``Equity.value`` gives it.
"""

from __future__ import annotations

from functools import lru_cache

from games.bots.dominoes_equity import DRAWN, LEAD, Equity, scaled
from games.engines.dominoes.state import State
from games.engines.dominoes.tiles import HI, LO, PIPS

# NUMBER[n]: the set of tiles showing n.
NUMBER: tuple[int, ...] = tuple(sum(1 << t for t in range(28) if HI[t] == n or LO[t] == n) for n in range(7))

INFINITY = 1 << 60
EXACT, LOWER, UPPER = 0, 1, 2  # what a transposition-table value is: the value, or a bound of it


@lru_cache(maxsize=1 << 16)
def by_weight(tiles: int) -> tuple[int, ...]:
    """The tiles of a set, heaviest first."""
    return tuple(sorted((t for t in range(28) if tiles >> t & 1), key=lambda t: -PIPS[t]))


# PIPS7[k][bits]: the pips of the tiles 7k … 7k+6 whose bits are set (a hand's pips in four look-ups).
PIPS7: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(PIPS[7 * k + i] for i in range(7) if bits >> i & 1) for bits in range(128)) for k in range(4)
)


def pips(hand: int) -> int:
    return (
        PIPS7[0][hand & 127]
        + PIPS7[1][hand >> 7 & 127]
        + PIPS7[2][hand >> 14 & 127]
        + PIPS7[3][hand >> 21 & 127]
    )


def solvable(state: State) -> bool:
    """Whether ``solve`` applies: a Block round in play between two sides."""
    return (
        state.variant == "block"
        and state.phase == "play"
        and (state.players == 2 or state.partnerships)
        and bool(state.layout.placed)
    )


class Solver:
    """The value of Block positions of one sampled deal (the table is kept between the actions)."""

    def __init__(
        self, state: State, win: int, seat: int = 0, careless: float = 0.0, equity: Equity | None = None
    ) -> None:
        self.players = state.players
        self.mine = seat % 2
        self.careless = careless
        self.expected: dict[tuple[tuple[int, ...], int, int, int, int], float] = {}
        self.scores = state.scores
        self.target2 = 2 * state.config["target"]
        self.win = win
        self.equity = equity
        self.memo: dict[tuple[tuple[int, ...], int, int, int, int], tuple[int, int]] = {}

    def terminal(
        self, hands: tuple[int, ...], mover_side: int, winner_side: int | None, out: bool = True
    ) -> int:
        """The value of a finished round for ``mover_side``; ``out``: the winner went out (it leads next)."""
        if winner_side is None:
            return self.settled(mover_side, 0, DRAWN)
        totals = [0, 0]
        for seat, hand in enumerate(hands):
            totals[seat % 2] += pips(hand)
        value = self.settled(winner_side, 2 * totals[1 - winner_side], LEAD if out else DRAWN)
        return value if winner_side == mover_side else -value

    def settled(self, side: int, bonus: int, lead: int) -> int:
        """The value for ``side`` of scoring ``bonus`` (half-points), ``lead`` saying who leads next."""
        after, theirs = self.scores[side] + bonus, self.scores[1 - side]
        ends = after >= self.target2 and after > theirs
        if self.equity is None:
            return bonus + (self.win if ends else 0)
        chance = 1.0 if ends else self.equity.chance(after, theirs, lead)
        return scaled(chance, bonus)

    def blocked(self, hands: tuple[int, ...], mover_side: int) -> int:
        totals = [0, 0]
        for seat, hand in enumerate(hands):
            totals[seat % 2] += pips(hand)
        if totals[0] == totals[1]:
            return self.terminal(hands, mover_side, None, out=False)
        return self.terminal(hands, mover_side, 0 if totals[0] < totals[1] else 1, out=False)

    def value(self, hands: tuple[int, ...], left: int, right: int, turn: int, passes: int) -> float:
        """Negamax value for the side of ``turn``: both sides at their best, or with careless opponents."""
        if self.careless:
            return self.mixed(hands, left, right, turn, passes)
        return self.search(hands, left, right, turn, passes, -INFINITY, INFINITY)

    def mixed(self, hands: tuple[int, ...], left: int, right: int, turn: int, passes: int) -> float:
        """The value when each opponent plays its best move, except with probability ``careless``
        any of its moves at random (a real opponent does not see my tiles); I play my best."""
        low, high = (left, right) if left <= right else (right, left)
        key = (hands, low, high, turn, passes)
        known = self.expected.get(key)
        if known is not None:
            return known
        hand = hands[turn]
        side = turn % 2
        nxt = (turn + 1) % self.players
        playable = hand & (NUMBER[low] | NUMBER[high])
        if not playable:
            if passes + 1 == self.players:
                value: float = self.blocked(hands, side)
            else:
                value = -self.mixed(hands, low, high, nxt, passes + 1)
            self.expected[key] = value
            return value
        children: list[float] = []
        rest_hands = list(hands)
        for tile in by_weight(playable):
            rest = hand ^ (1 << tile)
            rest_hands[turn] = rest
            after = tuple(rest_hands)
            if not rest:
                children.append(self.terminal(after, side, side))
                continue
            hi, lo = HI[tile], LO[tile]
            if hi == low or lo == low:
                children.append(-self.mixed(after, lo if hi == low else hi, high, nxt, 0))
            if low != high and (hi == high or lo == high):
                children.append(-self.mixed(after, lo if hi == high else hi, low, nxt, 0))
        best = max(children)
        if side != self.mine:
            best = (1 - self.careless) * best + self.careless * sum(children) / len(children)
        self.expected[key] = best
        return best

    def search(
        self, hands: tuple[int, ...], left: int, right: int, turn: int, passes: int, alpha: int, beta: int
    ) -> int:
        """Alpha-beta negamax; the table keeps each position's value or the bound a cut-off proved."""
        low, high = (left, right) if left <= right else (right, left)
        key = (hands, low, high, turn, passes)
        entry = self.memo.get(key)
        if entry is not None:
            known, flag = entry
            if flag == EXACT or (flag == LOWER and known >= beta) or (flag == UPPER and known <= alpha):
                return known
        hand = hands[turn]
        side = turn % 2
        nxt = (turn + 1) % self.players
        playable = hand & (NUMBER[low] | NUMBER[high])
        if not playable:
            if passes + 1 == self.players:
                best = self.blocked(hands, side)
                self.memo[key] = (best, EXACT)
            else:
                best = -self.search(hands, low, high, nxt, passes + 1, -beta, -alpha)
                self.memo[key] = (best, UPPER if best <= alpha else LOWER if best >= beta else EXACT)
            return best
        start_alpha = alpha
        best = -INFINITY
        rest_hands = list(hands)
        # Heaviest first: shedding pips is usually good, and good moves first make the cut-offs early.
        for tile in by_weight(playable):
            rest = hand ^ (1 << tile)
            rest_hands[turn] = rest
            after = tuple(rest_hands)
            if not rest:
                score = self.terminal(after, side, side)
            else:
                hi, lo = HI[tile], LO[tile]
                opened: list[tuple[int, int]] = []
                if hi == low or lo == low:
                    opened.append((lo if hi == low else hi, high))
                if low != high and (hi == high or lo == high):
                    opened.append((lo if hi == high else hi, low))
                score = -INFINITY
                for a, b in opened:
                    child = -self.search(after, a, b, nxt, 0, -beta, -max(alpha, score))
                    if child > score:
                        score = child
            if score > best:
                best = score
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.memo[key] = (best, flag)
        return best


def hand_bits(hand: tuple[int, ...] | list[int]) -> int:
    bits = 0
    for tile in hand:
        bits |= 1 << tile
    return bits


def solve(state: State, seat: int, win: int, solver: Solver | None = None) -> float:
    """What ``dominoes_sim.value`` would say of the round's end, both sides playing their best.

    That is my side's game score minus the other's once the round is counted, ``win`` added or
    taken away when the count ends the game; or, for a solver with an ``Equity``, my side's scaled
    chance of winning the game. A ``solver`` made for the same deal and scores keeps its table from
    one call to the next (the positions after each of my actions share many lines).
    """
    solver = solver or Solver(state, win, seat)
    hands = tuple(hand_bits(h) for h in state.hands)
    ends = state.layout.ends
    value = solver.value(hands, ends[0], ends[1], state.turn, state.passes)
    mine = seat % 2
    mine_value = value if state.turn % 2 == mine else -value
    if solver.equity is not None:
        return mine_value
    return state.scores[mine] - state.scores[1 - mine] + mine_value
