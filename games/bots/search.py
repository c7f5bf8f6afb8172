"""The Expert level's search core, shared by every game: determinized sampling with sequential halving.

Perfect-information Monte Carlo (Long et al. 2010): each sample is a full state consistent with
the seat's view (the game's own ``sample``, which reads voids and, where the game knows how, weighs
deals by how well they explain the opponents' plays), and every candidate action is valued in it by
the game's own ``value`` (an exact solve where the rest is small, else a playout or a bounded
search). Candidates share the samples, so their values are paired (``PairedTally``).

The budget is spent by sequential halving (Karnin et al. 2013; the root policy of Cowling et al.
2012's ISMCTS comparisons): the candidates are valued on equal rounds of samples, the worse half
dropped after each round, so the last rounds go to the moves that matter. The budget is a count of
action valuations (``sims``: a reproducible search) with a wall-clock cap (``cap_s``) that stops it
early on a busy machine (checked after every valuation once a sample is whole; a sample cut short
is dropped, so the means stay paired).

What each game knows (how to sample a view, how to value an action in a sample) lives in its bot
module: a ``Position`` built from the view and the legal actions alone, never the state or the seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from games.engines.base import Action, View


class Position(Protocol):
    """One decision as a game sees it from a seat's view: its samples and the value of an action in one."""

    def sample(self, rng: random.Random) -> Any:
        """A full state consistent with the view (the same legal actions for the seat)."""
        ...

    def value(self, sample: Any, action: Action, stream: float) -> float:
        """The seat's value (higher is better) of ``action`` in ``sample``; ``stream`` seeds any playout,
        the same for every action of a sample so that their comparison is fair."""
        ...


def halving(
    position: Position,
    actions: list[Action],
    rng: random.Random,
    sims: int,
    cap_s: float = math.inf,
    clock: Callable[[], float] = time.perf_counter,
    keep: int = 1,
) -> list[tuple[float, Action]]:
    """Every action with its mean value over the samples it was valued on, best first.

    The actions still in play at the end come first (best mean first), then the dropped ones in the
    order they were dropped. ``keep`` stops the halving at that many candidates (the review keeps
    every action valued on every sample with ``keep=len(actions)``).
    """
    n = len(actions)
    totals = [0.0] * n
    counts = [0] * n
    alive = list(range(n))
    dropped: list[int] = []
    rounds = max(1, math.ceil(math.log2(max(n, 2) / max(keep, 1))))
    per_round = max(1, sims // rounds)
    deadline = clock() + cap_s
    out_of_time = False

    def mean(i: int) -> float:
        return totals[i] / counts[i] if counts[i] else -math.inf

    done = 0  # whole samples valued
    while True:
        samples = max(1, per_round // len(alive))
        for _ in range(samples):
            state = position.sample(rng)
            stream = rng.random()
            values: list[float] = []
            for i in alive:
                values.append(position.value(state, actions[i], stream))
                if done and clock() > deadline:
                    out_of_time = True  # a sample cut short is dropped: the means stay paired
                    break
            if out_of_time:
                break
            for i, v in zip(alive, values, strict=True):
                totals[i] += v
                counts[i] += 1
            done += 1
            if clock() > deadline:
                out_of_time = True
                break
        alive.sort(key=lambda i: (-mean(i), i))
        if out_of_time or len(alive) <= keep:
            break
        half = max(keep, math.ceil(len(alive) / 2))
        dropped = alive[half:][::-1] + dropped
        alive = alive[:half]
        if len(alive) <= keep:
            break
    order = alive + dropped
    return [(mean(i), actions[i]) for i in order]


class ExpertBase:
    """A bot that searches with ``halving``; a game's ``ExpertBot`` only says how to build its ``Position``.

    ``sims`` bounds the action valuations of a move (reproducible), ``cap_s`` its wall-clock time
    (``math.inf``: none; the engine review and the tests). The defaults keep the p95 of a move under
    2 s on the reference machine (tests/bench/bench_expert.py).
    """

    SIMS = 2000
    CAP_S = 1.5

    def __init__(self, sims: int | None = None, cap_s: float | None = None) -> None:
        self.sims = self.SIMS if sims is None else sims
        self.cap_s = self.CAP_S if cap_s is None else cap_s

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        raise NotImplementedError

    def candidates(self, view: View, legal_actions: list[Action]) -> list[Action]:
        """The actions worth searching (all by default; a game may shortlist)."""
        return legal_actions

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        actions = self.candidates(view, legal_actions)
        if len(actions) == 1:
            return actions[0]
        return halving(self.position(view, actions), actions, rng, self.budget(view), self.cap_s)[0][1]

    def budget(self, view: View) -> int:
        """The action valuations of a move in this view (``sims``; a game may spend less where its
        valuations cost more or saturate sooner)."""
        return self.sims

    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random, keep: int | None = None
    ) -> list[tuple[float, Action]]:
        """Each legal action with its mean value, best first (``sims`` valuations in all): what the
        engine review weighs moves by. ``keep=None`` values every action on the same samples; ``keep=1``
        halves down to one, as ``choose`` does (the first is then the move ``choose`` would play)."""
        if not legal_actions:
            return []
        return halving(
            self.position(view, legal_actions),
            legal_actions,
            rng,
            self.budget(view),
            self.cap_s,
            keep=len(legal_actions) if keep is None else keep,
        )


class ReviewSearch:
    """An Expert as the engine review's referee: a fresh bot of ``samples`` valuations per legal action,
    whatever the clock. With ``settle`` the halving goes down to the best option (what it would play);
    without, every option is valued on every sample (a loss measured on fewer would be noisier)."""

    def __init__(self, make: Callable[[int], ExpertBase], samples: int, settle: bool) -> None:
        self.make = make
        self.samples = samples
        self.settle = settle

    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random
    ) -> list[tuple[float, Action]]:
        bot = self.make(self.samples * len(legal_actions))
        return bot.scores(view, legal_actions, rng, keep=1 if self.settle else None)
