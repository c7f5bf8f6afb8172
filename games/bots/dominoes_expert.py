"""The dominoes Expert: the shared search (``games.bots.search``) over the strong bot's valuations.

Two-player Block (``dominoes_pimc``): a sample is the opponent's hand drawn as a bit set from the
tiles the view leaves unseen and its passes allow, picked from a pool by how well it explains the
opponent's plays (``dominoes_infer``), and every action is valued by solving the whole rest of the
round in it (``dominoes_solve``), from the first lead on, with an opponent that errs at random
``careless`` of the time. Elsewhere (Draw, All Fives, four players) a sample is the engine's
``determinize``, weighted the same way in Block; an action is valued exactly where the rest of the
round is small enough to solve (Block between two sides), by the game's chances from the new scores
where they are known (``dominoes_equity``), else by a fast playout (``dominoes_sim``).
"""

from __future__ import annotations

import math

from games.bots import dominoes_pimc
from games.bots.dominoes import DominoesPosition, StrongBot
from games.bots.dominoes_sim import WIN
from games.bots.search import ExpertBase, Position, ReviewSearch
from games.engines.base import Action, View


class ExpertBot(ExpertBase):
    """Sequential halving over weighted deals; ``game=False`` values a round's end by its margin
    (the review, which counts points) instead of the chance of winning the game.

    Two-player Block (``dominoes_pimc``) spends ``block_sims`` valuations a move (``sims`` when given),
    each a whole solved round, with ``careless``: the chance the solver gives the opponent of playing
    at random. A real opponent does not see my tiles; one that does would never err, and every move of
    a deal lost against it would look alike. Over the same 24 one-round Block games against ISMCTS at
    twice the CPU, ``careless`` 0.15 won 15 where 0 won 11 (tests/bench/results/vs_ismcts.txt).
    """

    SIMS = 4000
    BLOCK_SIMS = 1000
    CAP_S = 1.5
    CARELESS = 0.15

    def __init__(
        self,
        sims: int | None = None,
        cap_s: float | None = None,
        pool: int = 16,
        win_bonus: int = WIN,
        epsilon: float = 0.1,
        game: bool = True,
        careless: float = CARELESS,
    ) -> None:
        super().__init__(sims, cap_s)
        self.block_sims = self.BLOCK_SIMS if sims is None else sims
        self.pool = pool
        self.careless = careless
        self.win_bonus = win_bonus
        self.epsilon = epsilon
        self.game = game

    def budget(self, view: View) -> int:
        # ``sims`` stays the most a move may spend, also when set after construction (the tests do).
        return min(self.block_sims, self.sims) if dominoes_pimc.applies(view) else self.sims

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        equity = StrongBot(game=self.game).equity(view)
        if dominoes_pimc.applies(view):
            return dominoes_pimc.BlockPosition(view, self.pool, self.win_bonus, equity, self.careless)
        return DominoesPosition(view, self.pool, self.win_bonus, self.epsilon, equity)


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[ReviewSearch, float]:
    """The Expert as the review's referee (``games.bots.review_bot``): values in half-points, a
    round's end by its margin, as the strong bot's."""
    half_points = round(2 * win)
    return ReviewSearch(
        # Against the opponent at its best (no ``careless``): what the review's exact positions assume.
        lambda sims: ExpertBot(sims, math.inf, win_bonus=half_points, game=False, careless=0.0),
        samples,
        settle,
    ), 0.5
