"""The Pitch Expert: the shared search (``games.bots.search``) over the strong bot's valuations.

A sample deals the unseen cards (``determinize`` keeps the voids the view records); an action is
valued by playing the rest of the hand out in the sample with the greedy heuristics for every
seat (bids: the rest of the auction by the greedy rule, then the hand), as the strong bot does; the
Expert spends several times its samples, and spends them on the moves that stay in contention.
"""

from __future__ import annotations

import random

from games.bots.pitch import StrongBot, _Table
from games.bots.search import ExpertBase, Position
from games.engines import pitch
from games.engines.base import Action, View


class PitchPosition:
    def __init__(self, view: View, win_bonus: float) -> None:
        self.view = view
        self.table = _Table(view, win_bonus)
        self.strong = StrongBot(win_bonus=win_bonus)

    def sample(self, rng: random.Random) -> pitch.State:
        return pitch.determinize(self.view, rng)

    def value(self, sample: pitch.State, action: Action, stream: float) -> float:
        return self.strong._evaluate(self.table, self.view, sample, action)


class ExpertBot(ExpertBase):
    """Sequential halving over sampled deals; ``win_bonus``: points a hand that decides the game adds."""

    SIMS = 3000
    CAP_S = 1.2

    def __init__(self, sims: int | None = None, cap_s: float | None = None, win_bonus: float = 25.0) -> None:
        super().__init__(sims, cap_s)
        self.win_bonus = win_bonus

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        return PitchPosition(view, self.win_bonus)
