"""Kazino computer players: ``GreedyBot`` (one-move heuristic) and ``StrongBot`` (sampling + search).

Both see only the seat's view and its legal actions. The strong bot samples full states with
the engine's ``determinize`` (so it cannot see the opponent's hand) and, for each sample,
searches the rest of the current deal by alpha-beta on the cards each side captures, four
plies deep (to the end of the deal from the third card on; a deeper search leaves time for
fewer samples and measured weaker); the action with the best total over the samples is played.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from games.engines.base import Action, View
from games.engines.kazino import determinize
from games.engines.kazino.cards import RANK, RANKS, VALUE
from games.engines.kazino.moves import TableIndex, legal_moves
from games.engines.kazino.state import Pile, State, apply

#: Extra worth (in cards) of a King or an Ace when the 4 Kings / 4 Aces bonus is on.
BONUS_CARD = 0.5
#: Share of a build's or tripe's cards credited to its owner when the search stops mid-deal.
OWNED_PILE = 0.75


def _taken(action: Action) -> list[str]:
    return [c for g in action["groups"] for c in g]


def _card_worth(card: str, bonus: bool) -> float:
    return 1.0 + (BONUS_CARD if bonus and RANK[card] in ("K", "A") else 0.0)


def _table(view: View) -> tuple[Pile, ...]:
    return tuple(Pile(tuple(p["cards"]), p["kind"], p["value"], p["owner"]) for p in view["table"])


def _exposure(table: tuple[Pile, ...], card: str) -> int:
    """The most table cards any single card could capture after ``card`` is trailed."""
    t = TableIndex(table + (Pile((card,), "card", VALUE[card], None),))
    return max(
        t.capture_size(rank, value)
        for rank in RANKS
        for value in ((1, 14) if rank == "A" else (RANKS.index(rank) + 1,))
    )


class GreedyBot:
    """Takes the biggest capture (then the most Kings/Aces, then the most value); else trails its
    least useful card: the one leaving the opponent the smallest capture."""

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        captures = [a for a in legal_actions if a["type"] == "capture"]
        if captures:

            def gain(a: Action) -> tuple[int, int, int]:
                cards = [*_taken(a), a["card"]]
                return (len(cards), sum(RANK[c] in ("K", "A") for c in cards), sum(VALUE[c] for c in cards))

            return max(captures, key=gain)
        trails = [a for a in legal_actions if a["type"] == "trail"]
        if trails:
            table = _table(view)

            def cost(a: Action) -> tuple[int, int, int]:
                card = a["card"]
                return (_exposure(table, card), RANK[card] in ("K", "A"), VALUE[card])

            return min(trails, key=cost)
        return legal_actions[0]


class OutOfTime(Exception):
    """A search went past its node cap or its deadline (the Expert then searches shallower)."""


@dataclass(eq=False)
class StrongBot:
    """Perfect-information sampling: alpha-beta over the rest of the deal in each sampled state.

    ``samples`` caps the sampled states and ``budget_s`` the wall-clock time of a move; on a
    machine too busy to finish ``min_samples`` within it, sampling goes on until that many are
    done or ``hard_cap_s`` is reached. A sample cut short is dropped (with none finished, the
    greedy choice is played). ``node_cap`` bounds the nodes of one search, ``depth`` its plies.
    """

    samples: int = 24
    budget_s: float = 0.15
    node_cap: int = 30_000
    depth: int = 4
    min_samples: int = 4
    hard_cap_s: float = 0.4

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        totals, done = self._totals(view, legal_actions, rng)
        if done == 0:
            return GreedyBot().choose(view, legal_actions, rng)
        best = max(totals)
        return next(a for a, t in zip(legal_actions, totals, strict=True) if t == best)

    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random
    ) -> list[tuple[float, Action]]:
        """Each legal action with its mean value over the samples, best first; [] if no sample finished.

        A value is in cards: my captured worth minus the opponent's over the searched rest of the
        deal (a King or Ace worth ``1 + BONUS_CARD`` with the bonus on). ``budget_s`` and
        ``hard_cap_s`` at ``math.inf`` ignore the clock: ``samples`` and ``node_cap`` bound it.
        """
        totals, done = self._totals(view, legal_actions, rng)
        if done == 0:
            return []
        order = sorted(range(len(legal_actions)), key=lambda i: (-totals[i], i))
        return [(totals[i] / done, legal_actions[i]) for i in order]

    def _totals(self, view: View, legal_actions: list[Action], rng: random.Random) -> tuple[list[float], int]:
        """Each action's summed value over the samples that finished, and how many finished."""
        started = time.perf_counter()
        soft, hard = started + self.budget_s, started + max(self.budget_s, self.hard_cap_s)
        me = view["seat"]
        bonus = bool(view["config"].get("kings_aces_bonus"))
        totals = [0.0] * len(legal_actions)
        done = 0
        while done < self.samples:
            state = determinize(view, rng)
            search = Search(me, bonus, hard if done < self.min_samples else soft, self.node_cap, self.depth)
            try:
                values = [search.value_after(state, me, action) for action in legal_actions]
            except OutOfTime:
                break
            for i, v in enumerate(values):
                totals[i] += v
            done += 1
            if time.perf_counter() > (soft if done >= self.min_samples else hard):
                break
        return totals, done


class Search:
    """Alpha-beta to the end of the current deal; the score is ``me``'s captured worth minus the opponent's.
    Shared by the strong bot and the Expert (games/bots/kazino_expert.py)."""

    def __init__(self, me: int, bonus: bool, deadline: float, node_cap: int, depth: int) -> None:
        self.me = me
        self.bonus = bonus
        self.deadline = deadline
        self.nodes = 0
        self.node_cap = node_cap
        self.depth = depth

    def value_after(self, state: State, seat: int, action: Action) -> float:
        gain = self._gain(state, seat, action)
        child = apply(state, {**action, "seat": seat})
        return gain + self._alphabeta(child, -1e9, 1e9, self.depth - 1)

    def _gain(self, state: State, seat: int, action: Action) -> float:
        if action["type"] != "capture":
            return 0.0
        worth = sum(_card_worth(c, self.bonus) for c in [*_taken(action), action["card"]])
        return worth if seat == self.me else -worth

    def _leaf(self, state: State) -> float:
        """End of the deal: after the last deal the table goes to the last capturer."""
        if state.deck or state.last_capturer is None:
            return 0.0
        left = sum(_card_worth(c, self.bonus) for p in state.table for c in p.cards)
        return left if state.last_capturer == self.me else -left

    def _cutoff(self, state: State) -> float:
        """Mid-deal: each build or tripe counts, at a discount, for its owner, who holds its capturer."""
        score = 0.0
        for pile in state.table:
            if pile.owner is not None:
                worth = OWNED_PILE * sum(_card_worth(c, self.bonus) for c in pile.cards)
                score += worth if pile.owner == self.me else -worth
        return score

    def _alphabeta(self, state: State, alpha: float, beta: float, depth: int) -> float:
        self.nodes += 1
        if self.nodes & 7 == 0 and (self.nodes > self.node_cap or time.perf_counter() > self.deadline):
            raise OutOfTime
        seat = state.turn
        if not state.hands[seat]:
            return self._leaf(state)
        if depth <= 0:
            return self._cutoff(state)
        moves = legal_moves(state, seat)
        moves.sort(key=_order)
        maximizing = seat == self.me
        best = -1e9 if maximizing else 1e9
        for action in moves:
            gain = self._gain(state, seat, action)
            child = apply(state, {**action, "seat": seat})
            value = gain + self._alphabeta(child, alpha - gain, beta - gain, depth - 1)
            if maximizing:
                if value > best:
                    best = value
                alpha = max(alpha, value)
            else:
                if value < best:
                    best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


def _order(action: Action) -> tuple[int, int]:
    """Search the biggest captures first, then builds and tripes, then trails."""
    kind = action["type"]
    if kind == "capture":
        return (0, -len(_taken(action)))
    return (1, 0) if kind in ("build", "tripe") else (2, 0)


__all__ = ["GreedyBot", "StrongBot"]


# --- As the review's referee (replay/review.py, docs/review.md) --------------------------------------

#: The review's settings for this game: ``samples`` to find the best option, ``measure`` samples per
#: batch and at most ``batches`` batches to weigh it against the move played, the thresholds (points
#: lost) and ``win``, what ending the game inside the search is worth (points).
REVIEW = {"samples": 12, "measure": 16, "batches": 6, "inaccuracy": 2.0, "mistake": 4.0, "win": 0.0}


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[StrongBot, float]:
    """The strong bot bounded by ``samples`` alone, and its unit in points: a card of capture margin,
    taken as a point (near an even split of the 52 cards, one card more moves the expected score by
    about one). It has no early stop (``settle``) and weighs no win bonus."""
    # No clock: only the node cap can cut a sample short, and a dropped sample ends the search.
    return StrongBot(samples=samples, budget_s=math.inf, hard_cap_s=math.inf, node_cap=200_000), 1.0
