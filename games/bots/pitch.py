"""Computer players for Pitch: ``GreedyBot`` (one-move heuristics) and ``StrongBot`` (sampling).

The strong bot samples the unseen cards with the engine's ``determinize`` (which keeps
the voids the view records), plays every candidate move to the end of the hand in each
sample with the greedy heuristics for all seats, and picks the move with the best average
result for its side. Bids are judged the same way: the rest of the auction is bid by the
greedy rule on the sampled hands, then the hand is played out.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.bots.pitch_policy import best_suit, bid_choice, choose_card, opening_lead
from games.bots.tally import PairedTally
from games.engines import pitch
from games.engines.base import Action, View
from games.engines.pitch import SUIT_OF, hand_awards, playable, trick_winner

Play = tuple[int, str]


def _played(view: View) -> set[str]:
    cards = {p["card"] for t in view["tricks"] for p in t["cards"]}
    return cards | {p["card"] for p in view["trick"]}


def _sides(view: View) -> list[int]:
    return [pitch.side_of(view["config"], s) for s in range(view["players"])]


class GreedyBot:
    """Bids from a simple evaluation of the hand; plays to win High, Jack and Game cards cheaply."""

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        hand: list[str] = view["cards"]
        n: int = view["players"]
        if legal_actions[0]["type"] == "play":
            legal = [a["card"] for a in legal_actions]
            trick = [(p["seat"], p["card"]) for p in view["trick"]]
            card = choose_card(
                view["seat"], hand, legal, trick, view["trump"], _played(view), n, _sides(view)
            )
            return {"type": "play", "card": card}
        kind, amount = bid_choice(hand, n, view["high_bid"], view["seat"] == view["dealer"])
        return _bid_action(kind, amount, hand, n, legal_actions)


def _bid_action(kind: str, amount: int, hand: Sequence[str], n: int, legal: list[Action]) -> Action:
    if kind == "pitch":
        return {"type": "pitch", "card": opening_lead(hand, best_suit(hand, n)[0])}
    wanted: Action = {"type": "bid", "amount": amount} if kind == "bid" else {"type": "pass"}
    if wanted in legal:
        return wanted
    bids = [a for a in legal if a["type"] == "bid"]
    return bids[0] if bids else legal[0]


def side_points(captured: list[list[str]], trump: str, pitcher_side: int, bid: int) -> list[int]:
    """Each side's gain this hand (``captured`` by side): a point for each of High, Low, Jack and Game
    it won; a pitcher's side short of the bid loses the bid instead."""
    awards, _points = hand_awards(captured, trump)
    points = [0] * len(captured)
    for who in awards.values():
        if who is not None:
            points[who] += 1
    if points[pitcher_side] < bid:
        points[pitcher_side] = -bid
    return points


class _Table:
    """The fixed facts of one decision: who sits where, the scores and the target."""

    def __init__(self, view: View, win: float = 25.0) -> None:
        self.win = win
        self.n: int = view["players"]
        self.me: int = view["seat"]
        self.side = _sides(view)
        self.n_sides = max(self.side) + 1
        self.scores: list[int] = view["scores"]
        self.target: int = view["config"]["target"]
        self.dealer: int = view["dealer"]

    def value(self, pitcher: int, bid: int, captured: list[list[str]], trump: str) -> float:
        """My side's gain minus the others' average gain, plus the game if this hand decides it."""
        points = side_points(captured, trump, self.side[pitcher], bid)
        ps = self.side[pitcher]
        mine = self.side[self.me]
        others = [p for s, p in enumerate(points) if s != mine]
        value = points[mine] - sum(others) / len(others)
        if self.scores[pitcher] + points[ps] >= self.target:
            value += self.win if ps == mine else -self.win
        return value

    def play_out(
        self,
        hands: list[list[str]],
        trick: list[Play],
        trump: str | None,
        played: set[str],
        captured: list[list[str]],
        seat: int,
    ) -> tuple[list[list[str]], str]:
        """Play the rest of the hand with the greedy heuristics for everybody (mutates its arguments)."""
        n, side = self.n, self.side
        while hands[seat] or trick:
            hand = hands[seat]
            legal = playable(hand, trick, trump)
            card = choose_card(seat, hand, legal, trick, trump, played, n, side)
            if trump is None:
                trump = SUIT_OF[card]
            hand.remove(card)
            trick.append((seat, card))
            if len(trick) == n:
                seat = trick_winner(trick, trump)
                captured[side[seat]].extend(c for _s, c in trick)
                played.update(c for _s, c in trick)
                trick = []
            else:
                seat = (seat + 1) % n
        assert trump is not None
        return captured, trump


@dataclass(eq=False)
class StrongBot:
    """Determinized sampling (PIMC) over the rest of the hand, with a wall-clock budget."""

    budget_s: float = 0.15
    max_samples: int = 300
    min_samples: int = 6
    win_bonus: float = 25.0
    settle_from: int = 24

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        return legal_actions[self._tally(view, legal_actions, rng).best()]

    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random
    ) -> list[tuple[float, Action]]:
        """Each legal action with its mean value over the samples, best first.

        A value is in points of this hand: my side's points minus the other sides' average (a
        pitcher short of the bid loses the bid), ± ``win_bonus`` when the hand decides the game.
        ``budget_s=math.inf`` ignores the clock: ``max_samples`` alone bounds the search.
        """
        tally = self._tally(view, legal_actions, rng)
        values = [total / max(tally.samples, 1) for total in tally.totals]
        order = sorted(range(len(legal_actions)), key=lambda i: (-values[i], i))
        return [(values[i], legal_actions[i]) for i in order]

    def _tally(self, view: View, legal_actions: list[Action], rng: random.Random) -> PairedTally:
        table = _Table(view, self.win_bonus)
        deadline = time.perf_counter() + self.budget_s
        tally = PairedTally(len(legal_actions), min_samples=self.settle_from)
        while tally.samples < self.max_samples and (
            tally.samples < self.min_samples or time.perf_counter() < deadline
        ):
            state = pitch.determinize(view, rng)
            tally.add([self._evaluate(table, view, state, action) for action in legal_actions])
            if tally.settled():
                break
        return tally

    def _evaluate(self, table: _Table, view: View, state: pitch.State, action: Action) -> float:
        hands = [list(h) for h in state.hands]
        if action["type"] == "play":
            return self._play_card(table, view, hands, action["card"])
        return self._auction(table, view, hands, action)

    def _play_card(self, table: _Table, view: View, hands: list[list[str]], card: str) -> float:
        me = table.me
        trick: list[Play] = [(p["seat"], p["card"]) for p in view["trick"]]
        trump: str = view["trump"] or SUIT_OF[card]
        played = _played(view)
        captured: list[list[str]] = [[] for _ in range(table.n_sides)]
        for t in view["tricks"]:
            captured[table.side[t["winner"]]].extend(p["card"] for p in t["cards"])
        hands[me].remove(card)
        trick.append((me, card))
        seat = (me + 1) % table.n
        if len(trick) == table.n:
            seat = trick_winner(trick, trump)
            captured[table.side[seat]].extend(c for _s, c in trick)
            played.update(c for _s, c in trick)
            trick = []
        captured, trump = table.play_out(hands, trick, trump, played, captured, seat)
        return table.value(view["pitcher"], view["bid"], captured, trump)

    def _auction(self, table: _Table, view: View, hands: list[list[str]], action: Action) -> float:
        """Finish the auction with the greedy rule for the seats still to bid, then play the hand."""
        pitcher, bid, card = finish_auction(table, view, hands, action)
        captured: list[list[str]] = [[] for _ in range(table.n_sides)]
        if card is not None:
            hands[pitcher].remove(card)
            done, trump = table.play_out(
                hands, [(pitcher, card)], SUIT_OF[card], set(), captured, (pitcher + 1) % table.n
            )
        else:
            done, trump = table.play_out(hands, [], None, set(), captured, pitcher)
        return table.value(pitcher, bid, done, trump)


def finish_auction(
    table: _Table, view: View, hands: list[list[str]], action: Action
) -> tuple[int, int, str | None]:
    """The auction after my ``action``, the seats still to bid by the greedy rule: the pitcher, the bid
    and the pitched card (None: the pitcher leads later)."""
    n, me = table.n, table.me
    high, holder = view["high_bid"], view["high_bidder"]
    seat, kind, amount = me, action["type"], action.get("amount", 0)
    while True:
        if kind == "pitch":
            card = action["card"] if seat == me else opening_lead(hands[seat], best_suit(hands[seat], n)[0])
            return seat, 4, card
        if kind == "bid":
            high, holder = amount, seat
        if seat == table.dealer:
            break
        seat = (seat + 1) % n
        kind, amount = bid_choice(hands[seat], n, high, seat == table.dealer)
    assert holder is not None
    return holder, high, None


# --- As the review's referee (replay/review.py, docs/review.md) --------------------------------------

#: The review's settings for this game: ``samples`` to find the best option, ``measure`` samples per
#: batch and at most ``batches`` batches to weigh it against the move played, the thresholds (points
#: lost) and ``win``, what ending the game inside the search is worth (points).
REVIEW = {"samples": 64, "measure": 100, "batches": 8, "inaccuracy": 0.5, "mistake": 1.0, "win": 7.0}


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[StrongBot, float]:
    """The strong bot bounded by ``samples`` alone (no clock), and its unit in points. With
    ``settle`` the search may stop once one option clearly leads."""
    return StrongBot(
        budget_s=math.inf, max_samples=samples, win_bonus=win, settle_from=24 if settle else samples
    ), 1.0
