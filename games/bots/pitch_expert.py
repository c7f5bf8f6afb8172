"""The Pitch Expert: the shared search (``games.bots.search``), with the last tricks solved exactly.

A sample deals the unseen cards (``determinize`` keeps the voids the view records), picked from a
pool of such deals in proportion to how well each explains the opponents' bids (``bid_weight``:
a hand whose greedy bid is the one made is ``agree`` times likelier than one that would have bid
otherwise; a pitcher's trump its best suit likewise). In a sample, a card is valued exactly once
few enough cards are left (``SOLVE_CARDS``: at two players, the whole hand from the first lead):
alpha-beta over the rest of the trick play, my side maximising its value and every other side
minimising it (the paranoid assumption, exact between two sides; the "double-dummy" valuation of
bridge programs). Earlier, and for bids, the rest of the hand is played out with the greedy
heuristics for every seat, as the strong bot does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.bots.pitch import Play, StrongBot, _Table
from games.bots.pitch_policy import best_suit, bid_choice
from games.bots.search import ExpertBase, Position, ReviewSearch
from games.engines import pitch
from games.engines.base import Action, View
from games.engines.pitch import playable, trick_winner

#: How much likelier a sampled hand is when the greedy rule would have made the opponent's bid.
AGREE = 3.0
#: Cards left in all hands (after the card valued) from which the trick play is solved, by players
#: (0: any other count). Two players: the whole hand (a solve of 11 cards takes about 2 ms); three
#: players' 17 cards take about 40 ms and four players' 23 up to 2 s, so there the last tricks only.
SOLVE_CARDS = {2: 12, 0: 10}


def bid_weight(view: View, agree: float = AGREE) -> Callable[[pitch.State], float] | None:
    """The weight of a sampled deal given the opponents' bids and the pitcher's trump; None if none."""
    n: int = view["players"]
    me: int = view["seat"]
    side = [pitch.side_of(view["config"], s) for s in range(n)]
    played: dict[int, list[str]] = {s: [] for s in range(n)}
    for t in view["tricks"]:
        for p in t["cards"]:
            played[p["seat"]].append(p["card"])
    for p in view["trick"]:
        played[p["seat"]].append(p["card"])
    checks: list[tuple[int, int, bool, int]] = []  # (seat, high before, dealer?, amount)
    high = 0
    for entry in view["bids"]:
        seat, amount = entry["seat"], entry["bid"]
        if side[seat] != side[me]:
            checks.append((seat, high, seat == view["dealer"], amount))
        high = max(high, amount)
    pitcher = view.get("pitcher")
    trump = view.get("trump")
    trump_check = pitcher is not None and trump is not None and side[pitcher] != side[me]
    if not checks and not trump_check:
        return None

    def weight(state: pitch.State) -> float:
        w = 1.0
        dealt = {s: [*state.hands[s], *played[s]] for s in range(n)}
        for seat, before, dealer, amount in checks:
            kind, want = bid_choice(dealt[seat], n, before, dealer)
            greedy = 4 if kind == "pitch" else want if kind == "bid" else 0
            w *= agree if greedy == amount else 1.0
        if trump_check:
            assert pitcher is not None
            w *= agree if best_suit(dealt[pitcher], n)[0] == trump else 1.0
        return w

    return weight


class _Solver:
    """Alpha-beta over the trick play of one sampled deal (mutates then restores its lists)."""

    def __init__(self, table: _Table, pitcher: int, bid: int, trump: str) -> None:
        self.table = table
        self.pitcher = pitcher
        self.bid = bid
        self.trump = trump
        self.mine = table.side[table.me]

    def run(
        self,
        hands: list[list[str]],
        trick: list[Play],
        captured: list[list[str]],
        seat: int,
        alpha: float,
        beta: float,
    ) -> float:
        table = self.table
        if not hands[seat] and not trick:
            return table.value(self.pitcher, self.bid, captured, self.trump)
        hand = hands[seat]
        maximising = table.side[seat] == self.mine
        best = -1e9 if maximising else 1e9
        for card in playable(hand, trick, self.trump):
            hand.remove(card)
            trick.append((seat, card))
            if len(trick) == table.n:
                winner = trick_winner(trick, self.trump)
                side = captured[table.side[winner]]
                side.extend(c for _s, c in trick)
                done = trick[:]
                trick.clear()
                v = self.run(hands, trick, captured, winner, alpha, beta)
                trick.extend(done)
                del side[-table.n :]
            else:
                v = self.run(hands, trick, captured, (seat + 1) % table.n, alpha, beta)
            trick.pop()
            hand.append(card)
            if maximising:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


class PitchPosition:
    def __init__(self, view: View, win_bonus: float, solve_cards: int, pool: int = 8) -> None:
        self.view = view
        self.pool = pool
        self.weigh = bid_weight(view) if pool > 1 else None
        self.table = _Table(view, win_bonus)
        self.strong = StrongBot(win_bonus=win_bonus)
        self.solve_cards = solve_cards
        self.trick: list[Play] = [(p["seat"], p["card"]) for p in view["trick"]]
        self.captured: list[list[str]] = [[] for _ in range(self.table.n_sides)]
        for t in view["tricks"]:
            self.captured[self.table.side[t["winner"]]].extend(p["card"] for p in t["cards"])

    def sample(self, rng: random.Random) -> pitch.State:
        if self.weigh is None:
            return pitch.determinize(self.view, rng)
        pool = [pitch.determinize(self.view, rng) for _ in range(self.pool)]
        return rng.choices(pool, weights=[self.weigh(s) for s in pool])[0]

    def value(self, sample: pitch.State, action: Action, stream: float) -> float:
        view = self.view
        if (
            action["type"] != "play"
            or view["trump"] is None
            or sum(len(h) for h in sample.hands) - 1 > self.solve_cards
        ):
            return self.strong._evaluate(self.table, view, sample, action)
        table, trump, me = self.table, view["trump"], self.table.me
        hands = [list(h) for h in sample.hands]
        trick = list(self.trick)
        captured = [list(c) for c in self.captured]
        hands[me].remove(action["card"])
        trick.append((me, action["card"]))
        seat = (me + 1) % table.n
        if len(trick) == table.n:
            seat = trick_winner(trick, trump)
            captured[table.side[seat]].extend(c for _s, c in trick)
            trick = []
        solver = _Solver(table, view["pitcher"], view["bid"], trump)
        return solver.run(hands, trick, captured, seat, -1e9, 1e9)


class ExpertBot(ExpertBase):
    """Sequential halving over sampled deals; ``win_bonus``: points a hand that decides the game adds;
    ``solve_cards``: the cards left in all hands from which the trick play is solved exactly (None:
    ``SOLVE_CARDS`` for the table's players);
    ``pool``: deals drawn for each sample, weighed by the opponents' bids (1: no weighing)."""

    SIMS = 2500
    CAP_S = 1.5

    def __init__(
        self,
        sims: int | None = None,
        cap_s: float | None = None,
        win_bonus: float = 25.0,
        solve_cards: int | None = None,
        pool: int = 8,
    ) -> None:
        super().__init__(sims, cap_s)
        self.win_bonus = win_bonus
        self.solve_cards = solve_cards
        self.pool = pool

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        solve_cards = self.solve_cards
        if solve_cards is None:
            solve_cards = SOLVE_CARDS.get(view["players"], SOLVE_CARDS[0])
        return PitchPosition(view, self.win_bonus, solve_cards, self.pool)


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[ReviewSearch, float]:
    """The Expert as the review's referee (``games.bots.review_bot``), in points."""
    return ReviewSearch(lambda sims: ExpertBot(sims, math.inf, win_bonus=win), samples, settle), 1.0
