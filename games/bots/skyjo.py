"""Skyjo computer players: ``GreedyBot`` (best immediate expected value) and ``StrongBot`` (sampling search).

Both see only the seat's view and legal actions. Unseen cards are valued by their
known distribution: the 150 cards less every card the view shows.

``StrongBot`` scores moves with a planning evaluator (half-built columns, the card
left on the discard pile for the next seat, a safety margin before closing). Near the
end of a round it searches: perfect-information Monte Carlo over full states sampled
by the engine's ``determinize`` (which uses the view alone), each short-listed move
played out to the end of the round with a quick policy for every seat. The rollouts
see who closes and who is doubled, so the search times the close.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.bots.tally import PairedTally
from games.engines import skyjo
from games.engines.base import Action, View
from games.engines.skyjo.state import CELLS, FULL_DECK, OPENING, State

HIDDEN = 99  # a cell code: face down
WIPED = 100  # a cell code: its column was wiped out
_FULL = Counter(FULL_DECK)


class Picture:
    """One seat's picture of the table: grids as cell codes and the distribution of unseen cards."""

    def __init__(
        self,
        me: int,
        grids: list[list[int]],
        top: int | None,
        drawn: int | None,
        closer: int | None,
        unseen: Counter[int],
        reshuffles: int = 0,
    ) -> None:
        self.me = me
        self.reshuffles = reshuffles
        self.grids = grids
        self.top = top
        self.drawn = drawn
        self.closer = closer
        total = sum(unseen.values())
        self.probs = (
            [(card, count / total) for card, count in sorted(unseen.items()) if count > 0] if total else []
        )
        self.mean = sum(card * p for card, p in self.probs) if total else 5.0

    @classmethod
    def from_view(cls, view: View) -> Picture:
        grids = [
            [
                cell["card"] if cell["status"] == "up" else WIPED if cell["status"] == "wiped" else HIDDEN
                for cell in grid
            ]
            for grid in view["grids"]
        ]
        seen: Counter[int] = Counter(view["discard"])
        for grid in grids:
            seen.update(code for code in grid if code < HIDDEN)
        drawn = view["drawn"]["card"] if view["drawn"] and "card" in view["drawn"] else None
        if drawn is not None:
            seen[drawn] += 1
        top = view["discard"][0] if view["discard"] else None
        return cls(view["seat"], grids, top, drawn, view["closer"], _FULL - seen, view["reshuffles"])

    def prob(self, card: int) -> float:
        for value, p in self.probs:
            if value == card:
                return p
        return 0.0


def codes(state: State, seat: int) -> list[int]:
    return [
        WIPED if card is None else card if up else HIDDEN
        for card, up in zip(state.cards[seat], state.up[seat], strict=True)
    ]


#: For each cell, the two other cells of its column.
PARTNERS: tuple[tuple[int, int], ...] = tuple(
    (c0, c1) for cell in range(CELLS) for c0, c1 in [tuple(c for c in range(cell % 4, CELLS, 4) if c != cell)]
)


def _partners(grid: list[int], cell: int) -> tuple[int, int]:
    a, b = PARTNERS[cell]
    return grid[a], grid[b]


def place_gain(grid: list[int], cell: int, card: int, mean: float) -> float:
    """Expected change of the grid's total when ``card`` goes face up on ``cell`` (negative is good)."""
    old = grid[cell]
    before = mean if old == HIDDEN else old
    a, b = _partners(grid, cell)
    if a == card and b == card:
        return -(before + 2 * card)  # the column is wiped
    return card - before


def turn_gain(grid: list[int], cell: int, pic: Picture) -> float:
    """Expected change when hidden ``cell`` is turned: zero, unless it may complete a column."""
    a, b = _partners(grid, cell)
    if a == b and a < HIDDEN:
        return -3 * a * pic.prob(a)
    return 0.0


def pair_bonus(grid: list[int], cell: int, card: int, pic: Picture) -> float:
    """A column-planning term: a card placed next to an equal face-up card, with the third cell open."""
    a, b = _partners(grid, cell)
    if card <= 0 or (a == card and b == card):
        return 0.0
    if (a == card and b == HIDDEN) or (b == card and a == HIDDEN):
        return -0.3 * card * min(1.0, 10 * pic.prob(card))
    return 0.0


def estimated_total(grid: list[int], mean: float) -> float:
    return sum(mean if code == HIDDEN else code for code in grid if code != WIPED)


def closing_cost(pic: Picture, grid_after: list[int], margin: float = 0.0) -> float:
    """The expected doubling cost if this move leaves no hidden card and nobody has closed yet.

    Once the draw pile has run out in this round, the cost is ignored: two players who
    both refuse to close could otherwise go round for ever.
    """
    if pic.closer is not None or HIDDEN in grid_after or pic.reshuffles:
        return 0.0
    mine = estimated_total(grid_after, pic.mean)
    others = [estimated_total(g, pic.mean) - margin for seat, g in enumerate(pic.grids) if seat != pic.me]
    if mine > 0 and others and min(others) <= mine:
        return mine
    return 0.0


def _after(grid: list[int], cell: int, card: int) -> list[int]:
    after = list(grid)
    after[cell] = card
    a, b = _partners(grid, cell)
    if a == card == b:
        for c in (cell % 4, cell % 4 + 4, cell % 4 + 8):
            after[c] = WIPED
    return after


def _turned(grid: list[int], cell: int, pic: Picture) -> list[int]:
    after = list(grid)
    after[cell] = round(pic.mean)
    return after


class Evaluator:
    """Scores every legal action by the expected change of the seat's total (lower is better).

    With ``planning``, it also values half-built columns, charges the value of the card
    left on top of the discard pile to the next player, and closes only with a margin.
    """

    def __init__(self, pic: Picture, planning: bool = False, margin: float = 0.0, tempo: float = 0.0) -> None:
        self.pic = pic
        self.grid = pic.grids[pic.me]
        self.planning = planning
        self.margin = margin
        # Turning a card brings the close nearer: good when ahead, bad when behind.
        self.reveal_bonus = 0.0
        if tempo and pic.closer is None:
            mine = estimated_total(self.grid, pic.mean)
            best_other = min(estimated_total(g, pic.mean) for s, g in enumerate(pic.grids) if s != pic.me)
            self.reveal_bonus = -tempo if mine < best_other else tempo
        players = len(pic.grids)
        following = (pic.me + 1) % players
        self.next_grid = pic.grids[following] if planning and following != pic.closer else None
        self.gift_weight = 1.0 / (players - 1)
        self._gifts: dict[int, float] = {}
        self.hidden_gift = sum(p * self.gift(card) for card, p in pic.probs) if self.next_grid else 0.0

    def gift(self, card: int | None) -> float:
        """What ``card`` on top of the discard pile is worth to the next player: a cost to us."""
        if self.next_grid is None:
            return 0.0
        if card is None or card == HIDDEN:
            return self.hidden_gift
        if card not in self._gifts:
            grid = self.next_grid
            best = min(place_gain(grid, c, card, self.pic.mean) for c in range(CELLS) if grid[c] != WIPED)
            self._gifts[card] = max(0.0, -best - 2.5) * self.gift_weight
        return self._gifts[card]

    def place(self, cell: int, card: int) -> float:
        gain = place_gain(self.grid, cell, card, self.pic.mean)
        if self.planning:
            gain += pair_bonus(self.grid, cell, card, self.pic) + self.gift(self.grid[cell])
        if self.grid[cell] == HIDDEN:
            gain += closing_cost(self.pic, _after(self.grid, cell, card), self.margin) + self.reveal_bonus
        return gain

    def turn(self, cell: int, top: int | None) -> float:
        gain = turn_gain(self.grid, cell, self.pic) + self.gift(top) + self.reveal_bonus
        return gain + closing_cost(self.pic, _turned(self.grid, cell, self.pic), self.margin)

    def best_with(self, card: int) -> float:
        """The best outcome holding a drawn ``card``: place it, or discard it and turn a hidden card."""
        options = [self.place(cell, card) for cell in range(CELLS) if self.grid[cell] != WIPED]
        options += [self.turn(cell, card) for cell in range(CELLS) if self.grid[cell] == HIDDEN]
        return min(options)

    def draw(self) -> float:
        return sum(p * self.best_with(card) for card, p in self.pic.probs)

    def score(self, action: Action) -> float:
        kind = action["type"]
        if kind == "draw":
            return self.draw()
        cell = action["cell"]
        if kind == "take_discard":
            assert self.pic.top is not None
            return self.place(cell, self.pic.top)
        if kind == "place":
            assert self.pic.drawn is not None
            return self.place(cell, self.pic.drawn)
        if kind == "turn":
            return self.turn(cell, self.pic.top)
        if kind == "discard":
            return self.turn(cell, self.pic.drawn)
        return 0.0  # an opening reveal: every hidden card is alike


def _best(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    low = min(score for score, _action in scored)
    return rng.choice([action for score, action in scored if score <= low + 1e-9])


class GreedyBot:
    """Plays the move with the best immediate expected value."""

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        evaluator = Evaluator(Picture.from_view(view))
        return _best([(evaluator.score(action), action) for action in legal_actions], rng)


# ---------------------------------------------------------------- the strong bot


def quick_move(state: State, seat: int, mean: float) -> Action:
    """The rollout policy: cheap thresholds on the sampled state's face-up cards."""
    grid = codes(state, seat)
    hidden = [cell for cell in range(CELLS) if grid[cell] == HIDDEN]
    if state.phase == OPENING:
        return {"type": "reveal", "cell": hidden[0]}
    live = [cell for cell in range(CELLS) if grid[cell] != WIPED]
    mine_closes = state.closer is None and len(hidden) == 1 and not state.reshuffles

    def risky(cell: int, card: float) -> bool:
        """Closing on this move would get the seat doubled."""
        if not mine_closes or grid[cell] != HIDDEN:
            return False
        after = list(grid)
        after[cell] = int(card)
        mine = estimated_total(after, mean)
        others = [estimated_total(codes(state, s), mean) for s in range(state.players) if s != seat]
        return mine > 0 and min(others) <= mine

    def best_place(card: int) -> tuple[float, int]:
        return min((place_gain(grid, cell, card, mean), cell) for cell in live if not risky(cell, card))

    if state.drawn is not None:
        gain, cell = best_place(state.drawn) if any(not risky(c, state.drawn) for c in live) else (99.0, -1)
        safe_hidden = [c for c in hidden if not risky(c, mean)]
        if gain < -1.0 or not hidden or (cell >= 0 and not safe_hidden):
            return {"type": "place", "cell": cell if cell >= 0 else live[0]}
        return {"type": "discard", "cell": (safe_hidden or hidden)[0]}
    top = state.discard[-1]
    if any(not risky(c, top) for c in live):
        gain, cell = best_place(top)
        if gain < -2.5 or not state.draw_pile:
            return {"type": "take_discard", "cell": cell}
    if state.draw_pile:
        return {"type": "draw"}
    return {"type": "turn", "cell": hidden[0]}


def rollout(state: State, seat: int, action: Action, mean: float, win: float = 100.0) -> float:
    """Play ``action`` then the quick policy for everyone to the end of the round; the seat's margin.

    ``win`` is what ending the game as its winner (or loser: minus) adds to the margin.
    """
    events = skyjo.decide(state, seat, action)
    for _step in range(1_000):
        for event in events:
            if event["type"] == "round_ended":
                return _round_value(event, seat, state.target, win)
            state = skyjo.apply(state, event)
        mover = skyjo.to_act(state)[0]
        events = skyjo.decide(state, mover, quick_move(state, mover, mean))
    totals = [estimated_total(codes(state, s), mean) for s in range(state.players)]  # a round without end
    return sum(totals) / (len(totals) - 1) - totals[seat] * len(totals) / (len(totals) - 1)


def _round_value(event: dict[str, Any], seat: int, target: int, win: float = 100.0) -> float:
    points: list[int] = event["points"]
    scores: list[int] = event["scores"]
    others = [p for s, p in enumerate(points) if s != seat]
    value = sum(others) / len(others) - points[seat]
    if max(scores) >= target:  # the game ends: winning is all that counts
        best_other = min(score for s, score in enumerate(scores) if s != seat)
        value += win if scores[seat] <= best_other else -win
    return value


@dataclass(eq=False)
class StrongBot:
    """The planning evaluator, and a sampling search where the round's end is near.

    Early in a round the planning evaluator decides (columns, gifts to the next seat,
    a safety margin before closing). Once any seat has at most ``near`` hidden cards,
    or someone has closed, the ``shortlist`` best moves are compared by perfect-information
    Monte Carlo: each sample from ``determinize`` is played out to the end of the round
    for every short-listed move (the same samples for every move), at most ``samples``
    samples or ``budget`` seconds per move, whichever ends first.
    """

    samples: int = 300
    budget: float = 0.15
    shortlist: int = 4
    near: int = 3
    margin: float = 2.0
    win_bonus: float = 100.0
    settle_from: int = 24

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        pic = Picture.from_view(view)
        evaluator = Evaluator(pic, planning=True, margin=self.margin)
        scored = [(evaluator.score(action), action) for action in legal_actions]
        if view["phase"] == OPENING or len(legal_actions) == 1 or not self._near_the_end(view):
            return _best(scored, rng)
        order = sorted(range(len(scored)), key=lambda i: scored[i][0])
        shortlist = [legal_actions[i] for i in order[: self.shortlist]]
        return self._search(view, shortlist, pic.mean, rng)

    def _near_the_end(self, view: View) -> bool:
        return view["closer"] is not None or min(view["hidden"]) <= self.near

    def _search(self, view: View, shortlist: list[Action], mean: float, rng: random.Random) -> Action:
        return shortlist[self._tally(view, shortlist, mean, rng).best()]

    def _tally(self, view: View, actions: list[Action], mean: float, rng: random.Random) -> PairedTally:
        deadline = time.perf_counter() + self.budget
        seat = view["seat"]
        tally = PairedTally(len(actions), min_samples=self.settle_from)
        while tally.samples < self.samples and time.perf_counter() < deadline:
            sample = skyjo.determinize(view, rng)
            tally.add([rollout(sample, seat, action, mean, self.win_bonus) for action in actions])
            if tally.settled():
                break
        return tally

    def scores(
        self, view: View, legal_actions: list[Action], rng: random.Random
    ) -> list[tuple[float, Action]]:
        """Each legal action with its value in points for the seat (higher is better), best first.

        Where ``choose`` would use the evaluator, a value is minus its score (the expected change
        of the seat's total, planning terms included); where it would search, it is the mean
        margin of the sampled rollouts of every legal action (the others' average round points
        minus mine, ± ``win_bonus`` when the round ends the game). An opening reveal is worth 0.
        ``budget=math.inf`` ignores the clock: ``samples`` alone bounds the search.
        """
        pic = Picture.from_view(view)
        if view["phase"] == OPENING or len(legal_actions) == 1 or not self._near_the_end(view):
            evaluator = Evaluator(pic, planning=True, margin=self.margin)
            values = [-evaluator.score(action) for action in legal_actions]
        else:
            tally = self._tally(view, legal_actions, pic.mean, rng)
            values = [total / max(tally.samples, 1) for total in tally.totals]
        order = sorted(range(len(legal_actions)), key=lambda i: (-values[i], i))
        return [(values[i], legal_actions[i]) for i in order]


# --- As the review's referee (replay/review.py, docs/review.md) --------------------------------------

#: The review's settings for this game: ``samples`` to find the best option, ``measure`` samples per
#: batch and at most ``batches`` batches to weigh it against the move played, the thresholds (points
#: lost) and ``win``, what ending the game inside the search is worth (points).
REVIEW = {"samples": 32, "measure": 64, "batches": 8, "inaccuracy": 3.0, "mistake": 6.0, "win": 0.0}


def review_bot(samples: int, win: float, *, settle: bool) -> tuple[StrongBot, float]:
    """The strong bot bounded by ``samples`` alone (no clock), and its unit in points. With
    ``settle`` the search may stop once one option clearly leads."""
    return StrongBot(
        samples=samples, budget=math.inf, win_bonus=win, settle_from=24 if settle else samples
    ), 1.0
