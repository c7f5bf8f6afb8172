"""Computer players for dominoes: ``GreedyBot`` (one-move heuristic) and ``StrongBot`` (sampling search).

Both see only the seat's view and its legal actions. The strong bot samples full states
consistent with the view (``determinize``: voids read from passes and draws are respected; in
Block, deals that explain the opponents' plays better are picked more often: ``dominoes_infer``),
tries every legal action in each sample and finds how the round ends from there: solved exactly in
Block between two sides (``dominoes_solve``), played out quickly otherwise (``dominoes_sim``).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import KW_ONLY, dataclass
from typing import Any

from games.bots.dominoes_equity import Equity
from games.bots.dominoes_infer import play_weight
from games.bots.dominoes_sim import WIN, playout, value
from games.bots.dominoes_solve import Solver, solvable, solve
from games.bots.tally import PairedTally
from games.engines import dominoes as engine
from games.engines.base import Action, View
from games.engines.dominoes.state import EMPTY_LAYOUT, END_ID, Layout, State
from games.engines.dominoes.tiles import PIPS, TILE_ID


def layout_of(view: View) -> Layout:
    """The engine's layout rebuilt from the tiles listed in a view."""
    fives = view["variant"] == "all_fives"
    layout = EMPTY_LAYOUT
    for entry in view["layout"]["tiles"]:
        layout = layout.place(TILE_ID[entry["tile"]], END_ID[entry["arm"]], entry["by"], fives)
    return layout


def immediate_points(layout: Layout, action: Action, fives: bool) -> int:
    """Half-points that a play scores at once (All Fives); 0 for anything else."""
    if not fives or action["type"] != "play":
        return 0
    total = layout.place(TILE_ID[action["tile"]], END_ID[action["end"]], -1, True).total()
    return 2 * total if total > 0 and total % 5 == 0 else 0


class GreedyBot:
    """All Fives: the play scoring most at once; Block and Draw: shed the heaviest playable tile."""

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1 or legal_actions[0]["type"] != "play":
            return legal_actions[0]
        fives = view["variant"] == "all_fives"
        layout = layout_of(view) if fives else EMPTY_LAYOUT

        def key(action: Action) -> tuple[int, int, float]:
            return (immediate_points(layout, action, fives), PIPS[TILE_ID[action["tile"]]], rng.random())

        return max(legal_actions, key=key)


# Seconds of search per move. Block and Draw gain from more samples: over 1000 paired rounds of
# two-player Block against random, 0.4 s instead of 0.15 s raised the mean round margin from 13.9
# to 16.7 points and the rounds won from 70% to 74%. An All Fives playout costs more, and its
# p95 move time is already near the 500 ms goal at 0.15 s.
BUDGET_S = {"block": 0.4, "draw": 0.4, "all_fives": 0.15}


@dataclass(eq=False)
class DominoesPosition:
    """One decision of a dominoes seat: weighted deals, and each action's value in a deal (the strong
    bot's samples, and the Expert's: games/bots/dominoes_expert.py).

    ``exact=False`` plays Block samples out instead of solving them; ``careless`` is the chance the
    solver gives an opponent of playing at random."""

    view: View
    pool: int
    win_bonus: int
    epsilon: float
    equity: Equity | None
    _: KW_ONLY
    exact: bool = True
    careless: float = 0.0

    def __post_init__(self) -> None:
        self.seat: int = self.view["seat"]
        self.weigh = play_weight(self.view) if self.pool > 1 else None

    def sample(self, rng: random.Random) -> tuple[State, Solver | None]:
        if self.weigh is None:
            state = engine.determinize(self.view, rng)
        else:
            pool = [engine.determinize(self.view, rng) for _ in range(self.pool)]
            state = rng.choices(pool, weights=[self.weigh(s) for s in pool])[0]
        solver = Solver(state, self.win_bonus, self.seat, self.careless, self.equity) if self.exact else None
        return state, solver

    def value(self, sample: tuple[State, Solver | None], action: Action, stream: float) -> float:
        """The action's value in this deal; ``stream`` seeds the playout (the same for every action of
        a sample: fairer comparisons)."""
        state, solver = sample
        after: Any = state
        for event in engine.decide(state, self.seat, action):
            after = engine.apply(after, event)
        if self.exact and solvable(after):
            return solve(after, self.seat, self.win_bonus, solver)
        end = playout(after, random.Random(stream), self.epsilon)
        if self.equity is None:
            return value(end, self.seat, self.win_bonus)
        return self.equity.value(end, self.seat)


@dataclass(eq=False)
class StrongBot:
    """Perfect-information Monte Carlo: sampled deals × every legal action × a fast playout of the round.

    ``win_bonus`` (half-points) is what ending the game as its winner adds to a playout's margin;
    the default makes winning come before any margin. ``budget_s=math.inf`` ignores the clock
    (a reproducible search: the engine review). ``exact=False`` plays Block samples out instead of
    solving them; ``careless`` is the chance the solver gives an opponent of playing at random.
    ``pool``: in Block each sample is picked from this many deals drawn by ``determinize``, in
    proportion to how well each explains the opponents' plays (``dominoes_infer``); 0 or 1: no weighing.
    ``game``: in Block between two sides, a round's end is worth the chance of winning the game from
    the new scores (``dominoes_equity``) instead of its margin; ``win_bonus`` is then not used.
    """

    budget_s: float | None = None  # None: the variant's own budget (BUDGET_S)
    max_samples: int = 2000
    min_samples: int = 16
    epsilon: float = 0.15
    win_bonus: int = WIN
    exact: bool = True
    careless: float = 0.0
    pool: int = 8
    game: bool = True

    def __post_init__(self) -> None:
        self.min_samples = min(self.min_samples, self.max_samples)

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.scores(view, legal_actions, rng)[0][1]

    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random
    ) -> list[tuple[float, Action]]:
        """Each legal action with its mean value over the samples, best first.

        A value is my side's margin in half-points at the end of the playout (the round's count,
        or the game's end, plus or minus ``win_bonus``); with ``game``, in two-sided Block, my side's
        chance of winning the game then (``Equity.value``).
        """
        budget = self.budget_s if self.budget_s is not None else BUDGET_S[view["variant"]]
        deadline = time.perf_counter() + budget
        tally = PairedTally(len(legal_actions), min_samples=max(self.min_samples, 24))
        position = DominoesPosition(
            view,
            self.pool,
            self.win_bonus,
            self.epsilon,
            self.equity(view),
            exact=self.exact,
            careless=self.careless,
        )
        while tally.samples < self.max_samples:
            sample = position.sample(rng)
            stream = rng.random()
            tally.add([position.value(sample, action, stream) for action in legal_actions])
            if (tally.samples >= self.min_samples and time.perf_counter() >= deadline) or tally.settled():
                break
        samples, totals = tally.samples, tally.totals
        ranked = sorted(
            ((totals[i] / samples, i) for i in range(len(legal_actions))), key=lambda p: (-p[0], p[1])
        )
        return [(score, legal_actions[i]) for score, i in ranked]

    def equity(self, view: View) -> Equity | None:
        """The game chances a round's end is valued by, if ``game`` and the game is Block between two sides."""
        config = view["config"]
        if not self.game or config["variant"] != "block":
            return None
        if config["players"] != 2 and not config["partnerships"]:
            return None
        return Equity(config["players"], config["target"])


# --- As the review's referee (replay/review.py, docs/review.md) --------------------------------------

#: The review's settings for this game: ``samples`` to find the best option, ``measure`` samples per
#: batch and at most ``batches`` batches to weigh it against the move played, the thresholds (points
#: lost) and ``win``, what ending the game inside the search is worth (points).
REVIEW = {"samples": 64, "measure": 100, "batches": 8, "inaccuracy": 5.0, "mistake": 10.0, "win": 50.0}


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[StrongBot, float]:
    """The strong bot bounded by ``samples`` alone (no clock), and its unit in points: its values are
    half-points. With ``settle`` the search may stop once one option clearly leads."""
    # Reviews count what a move lost in points, so the round's margin, not the game's chances.
    bot = StrongBot(
        budget_s=math.inf,
        max_samples=samples,
        min_samples=24 if settle else samples,
        win_bonus=round(2 * win),
        game=False,
    )
    return bot, 0.5
