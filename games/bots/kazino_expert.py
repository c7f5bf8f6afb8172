"""The Kazino Expert: the shared search (``games.bots.search``) with alpha-beta to the end of the deal.

A sample deals the unseen cards afresh (``determinize``: the view alone). In the last deal there is
nothing left to guess (the unseen cards are the opponent's hand), so each sample is the true
position and the search is exact. An action is valued by alpha-beta on the cards each side captures
to the end of the deal (the table's remains to the last capturer after the last deal); a search
that outgrows ``node_cap`` falls back to the strong bot's four plies.
"""

from __future__ import annotations

import math
import random

from games.bots.kazino import _OutOfTime, _Search
from games.bots.search import ExpertBase, Position
from games.engines.base import Action, View
from games.engines.kazino import determinize
from games.engines.kazino.state import State

FULL_DEAL = 8  # plies: four cards each


class KazinoPosition:
    def __init__(self, view: View, node_cap: int, depth: int) -> None:
        self.view = view
        self.me: int = view["seat"]
        self.bonus = bool(view["config"].get("kings_aces_bonus"))
        self.node_cap = node_cap
        self.depth = depth

    def sample(self, rng: random.Random) -> State:
        return determinize(self.view, rng)

    def value(self, sample: State, action: Action, stream: float) -> float:
        try:
            return _Search(self.me, self.bonus, math.inf, self.node_cap, self.depth).value_after(
                sample, self.me, action
            )
        except _OutOfTime:
            return _Search(self.me, self.bonus, math.inf, 10**9, 4).value_after(sample, self.me, action)


class ExpertBot(ExpertBase):
    """Sequential halving over sampled deals, each valued by alpha-beta to the end of the deal."""

    SIMS = 600
    CAP_S = 1.5

    def __init__(
        self,
        sims: int | None = None,
        cap_s: float | None = None,
        node_cap: int = 6000,
        depth: int = FULL_DEAL,
    ) -> None:
        super().__init__(sims, cap_s)
        self.node_cap = node_cap
        self.depth = depth

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        return KazinoPosition(view, self.node_cap, self.depth)
