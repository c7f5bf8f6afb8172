"""The Pitch Expert: the shared search (``games.bots.search``), with whole hands solved exactly at two.

A sample deals the unseen cards (``determinize`` keeps the voids the view records), picked from a
pool of such deals in proportion to how well each explains the opponents' bids (``bid_weight``:
a hand whose greedy bid is the one made is ``agree`` times likelier than one that would have bid
otherwise; a pitcher's trump its best suit likewise). In a sample, a card is valued exactly once
few enough cards are left (``SOLVE_CARDS``: at two players, the whole hand from the first lead):
alpha-beta over the rest of the trick play, my side maximising its value and every other side
minimising it (the paranoid assumption, exact between two sides; the "double-dummy" valuation of
bridge programs). At two players the auction and the first lead (which names trump) are searched
the same way: a bid's value in a sample is the rest of the auction by the greedy rule, then the
hand solved from the pitcher's lead; a bid that may make me the pitcher is searched once per trump
I could name (``ExpertBot.choose``). Elsewhere the rest of the hand is played out with the greedy
heuristics for every seat, as the strong bot does. The value is ``_Table``'s (points, and a bonus
for the hand that ends the game) except in the last hand of a table with a hand limit, where it is
the game's result (``UnitTable``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.bots.pitch import Play, StrongBot, _Table, finish_auction, side_points
from games.bots.pitch_policy import best_suit, bid_choice, opening_lead, suit_value
from games.bots.search import ExpertBase, Position, ReviewSearch, halving
from games.engines import pitch
from games.engines.base import Action, View
from games.engines.pitch import RANK_OF, SUIT_OF, playable, trick_winner

#: How much likelier a sampled hand is when the greedy rule would have made the opponent's bid.
AGREE = 3.0
#: Cards left in all hands (after the card valued) from which the trick play is solved, by players
#: (0: any other count). Two players: the whole hand (a solve of 11 cards takes about 2 ms); three
#: players' 17 cards take about 40 ms and four players' 23 up to 2 s, so there the last tricks only.
SOLVE_CARDS = {2: 12, 0: 10}
#: Valuations of an auction move or a first lead, each a whole hand solved (about 3 ms).
BID_SIMS = 360
#: At two players, the weight of a dealer who steals a bid of mine the greedy rule would let stand.
STEAL = 0.5
#: Suits searched as trump for a bid of mine (the best by ``suit_value``): each is one more candidate
#: per bid, and the halving's first rounds must still give every candidate several samples.
LEAD_SUITS = 2


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


class UnitTable(_Table):
    """``_Table``'s value, except in the hand that ends the game at the table's hand limit: there the
    game's result counts (``win`` × my side's share of first place), the final margin only breaks
    ties. Maximising points is not maximising the chance to win: a pitcher one point ahead needs no
    risky bid, one point behind needs the one that can turn it."""

    def __init__(self, view: View, win: float = 25.0) -> None:
        super().__init__(view, win)
        limit = view["config"].get("max_hands")
        self.last_hand = limit is not None and view["hand"] >= limit
        self.first_seat = [self.side.index(s) for s in range(self.n_sides)]

    def value(self, pitcher: int, bid: int, captured: list[list[str]], trump: str) -> float:
        if not self.last_hand:
            return super().value(pitcher, bid, captured, trump)
        ps = self.side[pitcher]
        points = side_points(captured, trump, ps, bid)
        after = [self.scores[self.first_seat[s]] + points[s] for s in range(self.n_sides)]
        mine = self.side[self.me]
        margin = after[mine] - max(p for s, p in enumerate(after) if s != mine)
        if after[ps] >= self.target:
            return (self.win if ps == mine else 0.0) + margin
        best = max(after)
        return (self.win / after.count(best) if after[mine] == best else 0.0) + margin


class _Solver:
    """Alpha-beta over the trick play of one sampled deal (mutates then restores its lists).

    Of a seat's plain cards (neither trump nor counting) of one suit with no card left between them
    in anyone's hand or the trick, only one is tried: they win and lose the same tricks and count
    nothing (a quarter less time at two players; a table of positions met again at the start of a
    trick saved nothing: two hands rarely reach the same position by two orders).
    """

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
        for card in self._distinct(playable(hand, trick, self.trump), hands, trick):
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

    def _distinct(self, legal: list[str], hands: list[list[str]], trick: list[Play]) -> list[str]:
        trump = self.trump
        plain = [c for c in legal if RANK_OF[c] <= 9 and SUIT_OF[c] != trump]
        if len(plain) < 2:
            return legal
        live = {c for h in hands for c in h} | {c for _s, c in trick}
        out = [c for c in legal if RANK_OF[c] > 9 or SUIT_OF[c] == trump]
        plain.sort(key=lambda c: (SUIT_OF[c], RANK_OF[c]))
        before = ""
        for card in plain:
            suit = SUIT_OF[card]
            if not (
                before
                and SUIT_OF[before] == suit
                and not any(f"{r}{suit}" in live for r in range(RANK_OF[before] + 1, RANK_OF[card]))
            ):
                out.append(card)
            before = card
        return out


class PitchPosition:
    def __init__(
        self,
        view: View,
        win_bonus: float,
        solve_cards: int,
        pool: int = 8,
        solve_bids: bool = True,
        steal: float = 0.0,
    ) -> None:
        self.view = view
        self.solve_bids = solve_bids
        self.solved: dict[tuple[object, ...], float] = {}
        self.steal = steal
        self.pool = pool
        self.weigh = bid_weight(view) if pool > 1 else None
        self.table = UnitTable(view, win_bonus)
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
        whole = self.table.n * pitch.HAND_SIZE - 1 <= self.solve_cards  # a whole hand is solvable
        if action["type"] != "play":
            if whole and self.solve_bids:
                return self._bid(sample, action)
            return self.strong._evaluate(self.table, view, sample, action)
        if view["trump"] is None and whole:  # the pitcher's first lead names trump
            hands = [list(h) for h in sample.hands]
            return self._from_lead(hands, self.table.me, view["bid"], action["card"])
        if view["trump"] is None or sum(len(h) for h in sample.hands) - 1 > self.solve_cards:
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

    def _bid(self, sample: pitch.State, action: Action) -> float:
        """A bid in one sample: the seats still to bid by the greedy rule (as ``bid_weight`` reads the
        bids made), then the trick play solved from the pitcher's first lead: a pitched card, the
        ``lead`` the bid's candidate names when I am the pitcher (``ExpertBot.choose``), else the
        greedy lead of the best suit."""
        table = self.table
        n, me = table.n, table.me
        hands = [list(h) for h in sample.hands]
        holder, high, pitched = finish_auction(table, self.view, hands, action)
        if pitched is not None:
            return self._from_lead(hands, holder, 4, pitched)
        lead = action.get("lead") if holder == me else None
        if lead is None:
            lead = opening_lead(hands[holder], best_suit(hands[holder], n)[0])
        dealer = table.dealer
        steals = n == 2 and action["type"] == "bid" and me != dealer and holder == me
        if not steals or not self.steal:
            return self._from_lead(hands, holder, high, lead)
        # The greedy dealer lets my bid stand; a dealer who steals it instead is weighed in
        # (``STEAL``): a dealer who steals whatever is bid turns a high bid of mine into its set-back.
        stolen = self._from_lead(
            [list(h) for h in hands],
            dealer,
            high,
            opening_lead(hands[dealer], best_suit(hands[dealer], n)[0]),
        )
        return (1 - self.steal) * self._from_lead(hands, holder, high, lead) + self.steal * stolen

    def _from_lead(self, hands: list[list[str]], pitcher: int, bid: int, card: str) -> float:
        """The pitcher leads ``card`` (naming trump): the rest of the hand solved (mutates ``hands``).
        Remembered for the sample: several bids of mine can end in the same pitcher, bid and lead."""
        key = (tuple(map(tuple, hands)), pitcher, bid, card)
        if key in self.solved:
            return self.solved[key]
        table = self.table
        hands[pitcher].remove(card)
        solver = _Solver(table, pitcher, bid, SUIT_OF[card])
        captured: list[list[str]] = [[] for _ in range(table.n_sides)]
        found = solver.run(hands, [(pitcher, card)], captured, (pitcher + 1) % table.n, -1e9, 1e9)
        if len(self.solved) > 4096:
            self.solved.clear()
        self.solved[key] = found
        return found


class ExpertBot(ExpertBase):
    """Sequential halving over sampled deals; ``win_bonus``: points a hand that decides the game adds;
    ``solve_cards``: the cards left in all hands from which the trick play is solved exactly (None:
    ``SOLVE_CARDS`` for the table's players);
    ``pool``: deals drawn for each sample, weighed by the opponents' bids (1: no weighing)."""

    SIMS = 600
    CAP_S = 1.5

    def __init__(
        self,
        sims: int | None = None,
        cap_s: float | None = None,
        win_bonus: float = 25.0,
        solve_cards: int | None = None,
        pool: int = 8,
        bid_sims: int = BID_SIMS,
        steal: float = STEAL,
    ) -> None:
        super().__init__(sims, cap_s)
        self.bid_sims = bid_sims
        self.steal = steal
        self.win_bonus = win_bonus
        self.solve_cards = solve_cards
        self.pool = pool

    def position(self, view: View, legal_actions: list[Action]) -> Position:
        solve_cards = self.solve_cards
        if solve_cards is None:
            solve_cards = SOLVE_CARDS.get(view["players"], SOLVE_CARDS[0])
        return PitchPosition(view, self.win_bonus, solve_cards, self.pool, steal=self.steal)

    def candidates(self, view: View, legal_actions: list[Action]) -> list[Action]:
        """Of plain cards that cannot differ (``plain_twins``) one; of pitches, the top card of my
        ``LEAD_SUITS`` best suits (a low pitch hands the lead and the trick's trump to whoever beats it)."""
        if legal_actions[0]["type"] == "play":
            twins = plain_twins(view, [a["card"] for a in legal_actions])
            return [a for a in legal_actions if a["card"] not in twins]
        hand: list[str] = view["cards"]
        tops = set(_leads(hand, view["players"]))
        return [a for a in legal_actions if a["type"] != "pitch" or a["card"] in tops]

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        """In the auction, a bid that may make me the pitcher is searched once per trump I could then
        name (its lead: the top card of one of my ``LEAD_SUITS`` best suits), so the bid is judged by the best trump on average
        over the samples, not the best one in each sample (which would read the other hands)."""
        if len(legal_actions) < 2 or view["trump"] is not None or not self._whole(view):
            return super().choose(view, legal_actions, rng)
        sims = min(self.sims, self.bid_sims)
        if view["phase"] != "bidding":  # the first lead: whole hands solved too
            return halving(self.position(view, legal_actions), legal_actions, rng, sims, self.cap_s)[0][1]
        leads = _leads(view["cards"], view["players"])
        options: list[Action] = []
        for action in self.candidates(view, legal_actions):
            if action["type"] == "bid":
                options += [{**action, "lead": card} for card in leads]
            else:
                options.append(action)
        best = halving(self.position(view, options), options, rng, sims, self.cap_s)[0][1]
        return {k: v for k, v in best.items() if k != "lead"}

    def _whole(self, view: View) -> bool:
        solve_cards = self.solve_cards
        if solve_cards is None:
            solve_cards = SOLVE_CARDS.get(view["players"], SOLVE_CARDS[0])
        return bool(view["players"] * pitch.HAND_SIZE - 1 <= solve_cards)


def _leads(hand: list[str], players: int, suits: int = LEAD_SUITS) -> list[str]:
    """The top card of each of my ``suits`` best suits for trump (``suit_value``): the trumps searched."""
    held = sorted(sorted({SUIT_OF[c] for c in hand}), key=lambda s: -suit_value(hand, s, players))[:suits]
    return [max((c for c in hand if SUIT_OF[c] == suit), key=RANK_OF.__getitem__) for suit in held]


def plain_twins(view: View, legal: list[str]) -> set[str]:
    """Legal plain cards (neither trump nor counting) that can only do what a lower one of mine does:
    the same suit, and every card ranked between them already played in a finished trick."""
    trump = view["trump"]
    if trump is None:
        return set()
    gone = {p["card"] for t in view["tricks"] for p in t["cards"]}
    plain = sorted(
        (c for c in legal if RANK_OF[c] <= 9 and SUIT_OF[c] != trump), key=lambda c: (SUIT_OF[c], RANK_OF[c])
    )
    twins: set[str] = set()
    for before, card in zip(plain, plain[1:], strict=False):
        suit = SUIT_OF[card]
        if SUIT_OF[before] == suit and all(
            f"{r}{suit}" in gone for r in range(RANK_OF[before] + 1, RANK_OF[card])
        ):
            twins.add(card)
    return twins


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[ReviewSearch, float]:
    """The Expert as the review's referee (``games.bots.review_bot``), in points."""
    return ReviewSearch(lambda sims: ExpertBot(sims, math.inf, win_bonus=win), samples, settle), 1.0
