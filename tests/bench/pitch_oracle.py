"""An all-seeing two-player Pitch player: the ceiling experiment of #35 (not a bot a table may use).

It reads the engine state (both hands) and plays the exactly-best line of the hand against a
perfect opponent: every bid, the trump the pitcher names and every card solved by minimax over the
true deal (the auction by enumeration, the trick play by the Expert's alpha-beta ``_Solver``). Its
objective is the unit's: the game's result (win 1, tie ½, loss 0) first, the point margin only as
a tie-break (``WIN`` points a whole win). The opponent may only do worse than the minimax reply, so
its win rate against any opponent is at least the share of deals whose minimax value is a win.

Units: one hand (``max_hands`` 1, the engine ends it at the hand limit, the leader wins) is exact.
Over more hands the oracle sees only the current deal; a hand's end is valued by ``equity`` (the
chance to win the unit from the scores after it, the hands left and who deals next), a table this
module builds once by simulating the rest of the unit with a simple point model (``FutureModel``).
"""

from __future__ import annotations

from typing import Any

from games.bots.pitch import side_points
from games.bots.pitch_expert import _Solver
from games.engines import pitch
from games.engines.pitch import SUIT_OF, State

#: What a whole win is worth against the margin (points), the tie-break.
WIN = 100.0


class _Objective:
    """The ``_Table`` face the solver needs (``n``, ``me``, ``side``, ``value``) with the unit's value."""

    def __init__(self, state: State, me: int, equity: Any) -> None:
        self.n = 2
        self.me = me
        self.side = [0, 1]
        self.scores = state.scores
        self.config = state.config
        self.hand_no = state.hand_no
        self.dealer = state.dealer
        self.equity = equity

    def value(self, pitcher: int, bid: int, captured: list[list[str]], trump: str) -> float:
        points = side_points(captured, trump, pitcher, bid)
        after = (self.scores[0] + points[0], self.scores[1] + points[1])
        return self.final(after, pitcher)

    def final(self, after: tuple[int, ...], pitcher: int) -> float:
        me, other = self.me, 1 - self.me
        margin = after[me] - after[other]
        if after[pitcher] >= self.config["target"]:
            return (WIN if pitcher == me else 0.0) + margin
        limit = self.config["max_hands"]
        if limit is not None and self.hand_no >= limit:
            return (WIN if margin > 0 else 0.0 if margin < 0 else WIN / 2) + margin
        left = None if limit is None else limit - self.hand_no
        return WIN * self.equity(margin, after[me], after[other], left, (self.dealer + 1) % 2 == me) + margin


class OracleBot:
    """Chooses from the true state (both hands); ``equity(margin, mine, theirs, hands_left, i_deal)``
    values a hand that does not end the unit (None: one-hand units only)."""

    def __init__(self, equity: Any = None) -> None:
        self.equity = equity

    def choose_state(self, state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        self.memo: dict[Any, float] = {}
        self.objective = _Objective(state, seat, self.equity)
        self.hand_no = state.hand_no
        best, chosen = -1e18, legal[0]
        for action in legal:
            v = self.solve(_after(state, seat, action))
            if v > best:
                best, chosen = v, action
        return chosen

    def solve(self, state: State) -> float:
        """The minimax value for ``me`` of ``state`` (the current hand, both hands seen)."""
        obj = self.objective
        if state.phase == "over" or state.hand_no != self.hand_no:
            return self._settled(state)
        seat = pitch.to_act(state)[0]
        mine = seat == obj.me
        if state.phase == "bidding":
            values = [self.solve(_after(state, seat, a)) for a in pitch.legal_actions(state, seat)]
            return max(values) if mine else min(values)
        assert state.pitcher is not None
        if state.trump is None:  # the pitcher's first lead names trump
            key = (state.pitcher, state.bid)
            if key not in self.memo:
                values = []
                for card in state.hands[seat]:
                    hands = [list(h) for h in state.hands]
                    hands[seat].remove(card)
                    solver = _Solver(obj, state.pitcher, state.bid, SUIT_OF[card])  # type: ignore[arg-type]
                    values.append(solver.run(hands, [(seat, card)], [[], []], 1 - seat, -1e18, 1e18))
                self.memo[key] = max(values) if mine else min(values)
            return self.memo[key]
        key2 = (state.pitcher, state.bid, state.trick, state.tricks)
        if not state.tricks and key2 in self.memo:
            return self.memo[key2]
        captured: list[list[str]] = [[], []]
        for trick, winner in state.tricks:
            captured[winner].extend(c for _s, c in trick)
        solver = _Solver(obj, state.pitcher, state.bid, state.trump)  # type: ignore[arg-type]
        v = solver.run([list(h) for h in state.hands], list(state.trick), captured, seat, -1e18, 1e18)
        if not state.tricks:
            self.memo[key2] = v
        return v

    def _settled(self, state: State) -> float:
        """A finished hand: its score event is the state's last hand."""
        last = state.last_hand
        assert last is not None
        return self.objective.final(tuple(last["scores"]), last["pitcher"])


def _after(state: State, seat: int, action: dict[str, Any]) -> State:
    for event in pitch.decide(state, seat, action):
        state = pitch.apply(state, event)
    return state
