"""The Kazino Expert: the shared search (``games.bots.search``), solving the last deal exactly.

A sample deals the unseen cards afresh (``determinize``: the view alone). An action is valued by
alpha-beta on the cards each side captures: four plies deep (the strong bot's depth) while cards
remain to be dealt, since searching deeper into a guessed deal trusts the guess too much (it
measured weaker: Expert with full-deal depth lost 0.17 [0.05, 0.45] of 12 games to Strong);
in the last deal there is nothing left to guess (the unseen cards are the opponent's hand), so
every sample is the true position and the search goes to the end, the table's remains going to
the last capturer: exact. A search that outgrows ``node_cap`` falls back to four plies.
"""

from __future__ import annotations

import math
import random

from games.bots.kazino import OutOfTime, Search
from games.bots.search import ExpertBase, Position, ReviewSearch
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
        self.depth = FULL_DEAL if view["deck_count"] == 0 else depth

    def sample(self, rng: random.Random) -> State:
        return determinize(self.view, rng)

    def value(self, sample: State, action: Action, stream: float) -> float:
        try:
            return Search(self.me, self.bonus, math.inf, self.node_cap, self.depth).value_after(
                sample, self.me, action
            )
        except OutOfTime:
            return Search(self.me, self.bonus, math.inf, 10**9, 4).value_after(sample, self.me, action)


class ExpertBot(ExpertBase):
    """Sequential halving over sampled deals, each valued by alpha-beta (``depth`` plies; the last deal
    to its end)."""

    SIMS = 600
    CAP_S = 1.5

    def __init__(
        self,
        sims: int | None = None,
        cap_s: float | None = None,
        node_cap: int = 6000,
        depth: int = 4,
    ) -> None:
        super().__init__(sims, cap_s)
        self.node_cap = node_cap
        self.depth = depth

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        return KazinoPosition(view, self.node_cap, self.depth)


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[ReviewSearch, float]:
    """The Expert as the review's referee (``games.bots.review_bot``): a card of capture margin taken
    as a point, as the strong bot's."""
    return ReviewSearch(lambda sims: ExpertBot(sims, math.inf), samples, settle), 1.0
