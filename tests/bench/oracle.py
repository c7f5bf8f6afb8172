"""The all-seeing player of the #35 ceiling experiment: what any player could win against ISMCTS.

Not a bot of the platform (it breaks the contract on purpose): it is given the true engine state,
every hand in it, and plays the exactly-best line of the true deal, found by the same alpha-beta as
the Expert's samples (``dominoes_solve``), both sides assumed to play perfectly from there on. Its
win rate against ISMCTS bounds from below what a player who only sees its seat can win in the same
unit: whatever it loses, it loses with every tile in sight. The objective is the unit's: the chance
of winning the game from the new scores (``dominoes_equity``; in a one-round game, winning the round),
the round's bonus breaking ties between moves of equal chance.

``careless`` gives the opponent that chance of playing at random in the solver (``Solver.mixed``):
among moves that lose against perfect play, it prefers those that lose to fewer of the opponent's
replies (an opponent that cannot see my tiles errs).
"""

from __future__ import annotations

from typing import Any

from games.bots.dominoes_equity import Equity
from games.bots.dominoes_solve import Solver, solvable, solve
from games.engines import dominoes as engine
from games.engines.base import Action


class OracleBot:
    def __init__(self, careless: float = 0.0) -> None:
        self.careless = careless

    def choose_state(self, state: Any, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        config = state.config
        two_sided = config["players"] == 2 or config["partnerships"]
        if state.variant != "block" or not two_sided:
            raise ValueError("the oracle solves two-sided Block only")
        equity = Equity(config["players"], config["target"])
        solver = Solver(state, 0, seat, self.careless, equity)
        best: tuple[float, int] | None = None
        for index, action in enumerate(legal):
            after = state
            for event in engine.decide(state, seat, action):
                after = engine.apply(after, event)
            # A play that ends the round: what the scores say.
            value = solve(after, seat, 0, solver) if solvable(after) else _settled(after, seat)
            if best is None or value > best[0]:
                best = (value, index)
        assert best is not None
        return legal[best[1]]


def _settled(state: Any, seat: int) -> float:
    mine = state.side(seat)
    margin = state.scores[mine] - max(s for i, s in enumerate(state.scores) if i != mine)
    return float(margin)
