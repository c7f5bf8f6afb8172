"""The Skyjo Expert: the strong bot's planning early in a round, the shared search (``games.bots.search``)
near its end.

Early in a round, with many cards face down everywhere, a playout says little and the planning
evaluator decides (``skyjo.StrongBot``). From ``near`` hidden cards in some grid, or once someone
has closed, the ``shortlist`` best moves of the evaluator (more than the strong bot's four) are
compared by playing each sample (``determinize``: the view alone) to the end of the round with
the quick policy for every seat; sequential halving gives the contending moves the most samples.
"""

from __future__ import annotations

import math
import random

from games.bots.search import ExpertBase, Position, ReviewSearch, halving
from games.bots.skyjo import Evaluator, Picture, StrongBot, rollout
from games.engines import skyjo
from games.engines.base import Action, View
from games.engines.skyjo.state import OPENING, State


class SkyjoPosition:
    def __init__(self, view: View, mean: float, win_bonus: float) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.mean = mean
        self.win_bonus = win_bonus

    def sample(self, rng: random.Random) -> State:
        return skyjo.determinize(self.view, rng)

    def value(self, sample: State, action: Action, stream: float) -> float:
        return rollout(sample, self.seat, action, self.mean, self.win_bonus)


class ExpertBot(ExpertBase):
    """The planning evaluator far from the round's end, sequential halving over rollouts near it."""

    SIMS = 1500
    CAP_S = 1.5

    def __init__(
        self,
        sims: int | None = None,
        cap_s: float | None = None,
        near: int = 3,
        shortlist: int = 6,
        win_bonus: float = 100.0,
    ) -> None:
        super().__init__(sims, cap_s)
        self.near = near
        self.shortlist = shortlist
        self.win_bonus = win_bonus
        self.planner = StrongBot(near=-1, win_bonus=win_bonus)  # never searches: the evaluator alone

    def _searches(self, view: View, legal_actions: list[Action]) -> bool:
        if view["phase"] == OPENING or len(legal_actions) == 1:
            return False
        return view["closer"] is not None or min(view["hidden"]) <= self.near

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        return SkyjoPosition(view, Picture.from_view(view).mean, self.win_bonus)

    def candidates(self, view: View, legal_actions: list[Action]) -> list[Action]:
        evaluator = Evaluator(Picture.from_view(view), planning=True, margin=self.planner.margin)
        order = sorted(legal_actions, key=evaluator.score)
        return order[: self.shortlist]

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if not self._searches(view, legal_actions):
            return self.planner.choose(view, legal_actions, rng)
        return super().choose(view, legal_actions, rng)

    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random, keep: int | None = None
    ) -> list[tuple[float, Action]]:
        """As ``StrongBot.scores``: minus the evaluator's score early in a round, rollout margins near its end."""
        if not self._searches(view, legal_actions):
            return self.planner.scores(view, legal_actions, rng)
        position = self.position(view, legal_actions)
        keep = len(legal_actions) if keep is None else keep
        return halving(position, legal_actions, rng, self.sims, self.cap_s, keep=keep)


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[ReviewSearch, float]:
    """The Expert as the review's referee (``games.bots.review_bot``), in points."""
    return ReviewSearch(lambda sims: ExpertBot(sims, math.inf, win_bonus=win), samples, settle), 1.0
