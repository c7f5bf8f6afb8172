"""Exact values of small endgames from one seat's view: every consistent deal, each played out exactly.

Where the answer can be known — the last tricks of two-player Pitch, the last tiles of a two-player
Block or Draw round, the last deal of a Kazino game, a Skyjo seat's last turn after another went out
(``Skyjo``: an expectimax over the card values, no open hands) — a legal action's value is the mean, over every
deal of the unseen cards or tiles consistent with the seat's view (the other hand with the size the
view shows, the voids the view records; in Draw the stock in every order), of the result when the rest
is played out with every hand open, both sides at their best (alpha-beta over the engine's own
``legal_actions``, ``decide`` and ``apply``). Every consistent deal counts the same.

That is the value under perfect-information play once the deal is fixed (as PIMC values a sample:
Long et al. 2010): the "exact expected value over every deal consistent with the seat's view" of
issue #35 under that assumption, not the value of the imperfect-information game, where a side
cannot always play as if it saw the other hand.

Values are in the review's units (docs/review.md), in points: the margin the hand, round or game ends
with for the seat's side, plus or minus ``win`` when it ends the game (Pitch and dominoes); Kazino's
last deal by the game's points (its card bands) for each side, not by cards.

``values`` answers None for any other position, or when there are more than ``max_deals`` deals.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from games import engines
from games.engines import matching
from games.engines.base import Action, Engine, Event, View

#: Deals enumerated at most (× the legal actions, each an exact solve): a few hundred ms a position.
MAX_DEALS = 1200
#: Draw with a stock: tiles in the hands and the stock at most (a hand of 9 drawn tiles took seconds).
DRAW_TILES = 10


class Game:
    """What the solver needs of one engine: the consistent deals, and the value where a line ends."""

    name = ""

    def bound(self, view: View) -> int | None:
        """How many deals there are before the voids rule some out (cheap: no state is built); None
        when the position is not one this game knows how to solve."""
        raise NotImplementedError

    def deals(self, view: View, template: Callable[[], Any], max_deals: int) -> list[Any] | None:
        """Every full state consistent with ``view`` (``template()``: one of them, from ``determinize``),
        or None when the position is not one this game knows how to solve or has over ``max_deals``."""
        bound = self.bound(view)
        return None if bound is None or bound > max_deals else self.every_deal(view, template)

    def every_deal(self, view: View, template: Callable[[], Any]) -> list[Any]:
        """``deals`` once the bound allows: the opponent's (``1 - view["seat"]``) possible hands."""
        raise NotImplementedError

    def leaf(self, events: list[Event], state: Any, me: int, win: float) -> float | None:
        """My side's value if ``events`` ended what is solved (the hand, round or game), else None."""
        raise NotImplementedError

    def side(self, state: Any, seat: int) -> int:
        return seat

    def solve(
        self, engine: Engine, view: View, legal: list[Action], deals: list[Any], win: float
    ) -> list[float]:
        """Each legal action's mean value over ``deals`` (every one counts the same), each deal solved
        with every hand open (alpha-beta through the engine)."""
        me: int = view["seat"]
        totals = [0.0] * len(legal)
        for state in deals:
            solver = Solver(engine, self, me, win)
            for i, action in enumerate(legal):
                totals[i] += solver.after(state, me, action, -math.inf, math.inf)
        return [total / len(deals) for total in totals]


# --- Dominoes ------------------------------------------------------------------------------------------


class Dominoes(Game):
    name = "dominoes"

    def bound(self, view: View) -> int | None:
        if view["players"] != 2 or view["variant"] not in ("block", "draw") or view["phase"] != "play":
            return None
        if not view["layout"]["tiles"]:
            return None
        unseen = 28 - len(view["hands"][view["seat"]]) - len(view["layout"]["tiles"])
        stock = view["boneyard"] if view["variant"] == "draw" else 0
        if stock and sum(view["hand_sizes"]) + stock > DRAW_TILES:
            return None  # a long line of draws: too deep to solve through the engine in time
        return math.comb(unseen, view["hand_sizes"][1 - view["seat"]]) * math.factorial(stock)

    def every_deal(self, view: View, template: Callable[[], Any]) -> list[Any]:
        from games.engines.dominoes.tiles import MASK, TILE_ID
        from games.engines.dominoes.views import slot_masks

        me = view["seat"]
        other = 1 - me
        seen = {TILE_ID[t] for t in view["hands"][me]} | {TILE_ID[e["tile"]] for e in view["layout"]["tiles"]}
        unseen = [t for t in range(28) if t not in seen]
        size = view["hand_sizes"][other]
        # The voids the view proves (passes and draws); the seat's tiles must fit them (as determinize).
        slots = slot_masks(view["moves"], other, size, False)
        base = template()
        out = []
        for hand in itertools.combinations(unseen, size):
            if matching.match(list(hand), size, lambda tile, slot: not MASK[tile] & slots[slot]) is None:
                continue
            rest = [t for t in unseen if t not in hand]
            hands = list(base.hands)
            hands[other] = tuple(sorted(hand))
            if view["variant"] == "draw":
                for order in itertools.permutations(rest):
                    out.append(base._replace(hands=tuple(hands), boneyard=tuple(order)))
            else:  # Block: the sleeping tiles are never drawn
                out.append(base._replace(hands=tuple(hands), boneyard=tuple(rest)))
        return out

    def leaf(self, events: list[Event], state: Any, me: int, win: float) -> float | None:
        if state.phase == "play":
            return None
        mine = state.side(me)
        margin = (state.scores[mine] - state.scores[1 - mine]) / 2
        if state.phase == "over":
            margin += win if margin > 0 else -win
        return float(margin)

    def side(self, state: Any, seat: int) -> int:
        side: int = state.side(seat)
        return side


# --- Pitch ---------------------------------------------------------------------------------------------


class Pitch(Game):
    name = "pitch"

    def bound(self, view: View) -> int | None:
        if view["players"] != 2 or view["phase"] != "play" or view["trump"] is None:
            return None
        played = sum(len(t["cards"]) for t in view["tricks"]) + len(view["trick"])
        return math.comb(52 - len(view["cards"]) - played, view["hand_counts"][1 - view["seat"]])

    def every_deal(self, view: View, template: Callable[[], Any]) -> list[Any]:
        from games.engines.pitch.cards import DECK, SUIT_OF

        me = view["seat"]
        other = 1 - me
        played = [p["card"] for t in view["tricks"] for p in t["cards"]] + [p["card"] for p in view["trick"]]
        known = set(view["cards"]) | set(played)
        void = set(view["voids"][other])
        unseen = [c for c in DECK if c not in known]
        size = view["hand_counts"][other]
        base = template()
        out = []
        for hand in itertools.combinations([c for c in unseen if SUIT_OF[c] not in void], size):
            hands = list(base.hands)
            hands[other] = hand
            dealt = frozenset(played).union(*hands)
            out.append(base._replace(hands=tuple(hands), in_play=dealt))
        return out

    def leaf(self, events: list[Event], state: Any, me: int, win: float) -> float | None:
        score = next((e for e in events if e["type"] == "score"), None)
        if score is None:
            return None
        changes = score["changes"]
        value = float(changes[me] - changes[1 - me])
        end = next((e for e in events if e["type"] == "end"), None)
        if end is not None:
            value += win if me in end["winners"] else -win
        return value


# --- Kazino --------------------------------------------------------------------------------------------


class Kazino(Game):
    name = "kazino"

    def bound(self, view: View) -> int | None:
        # The last deal: the unseen cards are the opponent's hand, so the one deal is the true one.
        if view["deck_count"] != 0 or view["finished"] or not view["my_cards"]:
            return None
        return 1

    def every_deal(self, view: View, template: Callable[[], Any]) -> list[Any]:
        return [template()]

    def leaf(self, events: list[Event], state: Any, me: int, win: float) -> float | None:
        end = next((e for e in events if e["type"] == "game_end"), None)
        if end is None:
            return None
        points = end["points"]
        return float(points[me] - points[1 - me])


# --- Skyjo ---------------------------------------------------------------------------------------------


class Skyjo(Game):
    """A seat's last turn after another seat went out, when the round ends with it (the closer plays
    next, and no other seat has a hidden card left): the only chance left is the values of the seat's
    own hidden cards and of the card it would draw, drawn from the cards the view has not shown (the
    150 less every face-up grid card, the discard pile and the seat's drawn card, as ``determinize``).

    A deal is one sequence of values for those places, weighted by how many ways the unseen cards give
    it (so that every deal of the cards themselves counts the same). The seat does not see its hidden
    cards, so no search here may choose by them: an action that ends the turn is valued by its mean
    over the deals, and a draw by the mean, over the card drawn, of the best follow-up for that card
    (placing or discarding it) valued over the deals that draw it: an expectimax, not open-hand play.
    Values are the review's Skyjo unit, the others' average round points minus mine (``win`` = 0)."""

    name = "skyjo"

    def _places(self, view: View) -> tuple[list[int], bool] | None:
        """My hidden cells, and whether the next card drawn is unknown yet (I may still draw); None when
        the position is not a last turn that ends the round."""
        me = view["seat"]
        players = view["players"]
        if me is None or view["phase"] != "play" or view["closer"] is None or view["to_act"] != [me]:
            return None
        if (me + 1) % players != view["closer"] or any(h for s, h in enumerate(view["hidden"]) if s != me):
            return None
        cells = [i for i, cell in enumerate(view["grids"][me]) if cell["status"] == "hidden"]
        return cells, view["drawn"] is None and view["draw_pile"] > 0

    @staticmethod
    def _unseen(view: View) -> Counter[int]:
        from games.engines.skyjo.state import FULL_DECK

        seen: Counter[int] = Counter(view["discard"])
        for grid in view["grids"]:
            seen.update(cell["card"] for cell in grid if cell["status"] == "up")
        if view["drawn"] is not None and "card" in view["drawn"]:
            seen[view["drawn"]["card"]] += 1
        return Counter(FULL_DECK) - seen

    def bound(self, view: View) -> int | None:
        places = self._places(view)
        if places is None:
            return None
        cells, drawing = places
        return len(self._unseen(view)) ** (len(cells) + drawing)

    def deals(self, view: View, template: Callable[[], Any], max_deals: int) -> list[Any] | None:
        from games.engines.skyjo.state import replace

        bound = self.bound(view)
        places = self._places(view)
        if bound is None or places is None or bound > max_deals:
            return None
        cells, drawing = places
        unseen = self._unseen(view)
        me = view["seat"]
        base = template()
        out = []
        for values in itertools.product(sorted(unseen), repeat=len(cells) + drawing):
            if _ways(unseen, values) == 0:
                continue
            grid = list(base.cards[me])
            for cell, value in zip(cells, values, strict=False):
                grid[cell] = value
            cards = list(base.cards)
            cards[me] = tuple(grid)
            pile = (values[-1], *base.draw_pile[1:]) if drawing else base.draw_pile
            out.append(replace(base, cards=tuple(cards), draw_pile=pile))
        return out

    def leaf(self, events: list[Event], state: Any, me: int, win: float) -> float | None:
        end = next((e for e in events if e["type"] == "round_ended"), None)
        if end is None:
            return None
        points = end["points"]
        others = [p for seat, p in enumerate(points) if seat != me]
        return float(sum(others) / len(others) - points[me])

    def solve(
        self, engine: Engine, view: View, legal: list[Action], deals: list[Any], win: float
    ) -> list[float]:
        places = self._places(view)
        assert places is not None
        cells, drawing = places
        me: int = view["seat"]
        unseen = self._unseen(view)

        def values_of(state: Any) -> tuple[int, ...]:
            return (*(state.cards[me][c] for c in cells), *((state.draw_pile[0],) if drawing else ()))

        weighted = [(_ways(unseen, values_of(state)), state) for state in deals]
        total = sum(w for w, _state in weighted)

        def ended(state: Any, action: Action) -> float:
            events = engine.decide(state, me, action)
            for event in events:
                state = engine.apply(state, event)
            found = self.leaf(events, state, me, win)
            assert found is not None, "the seat's last turn ends the round"
            return found

        def mean(group: list[tuple[int, Any]], action: Action) -> float:
            return sum(w * ended(state, action) for w, state in group)

        out = []
        for action in legal:
            if action["type"] != "draw":
                out.append(mean(weighted, action) / total)
                continue
            by_card: dict[int, list[tuple[int, Any]]] = {}
            for w, state in weighted:
                after = state
                for event in engine.decide(state, me, action):
                    after = engine.apply(after, event)
                by_card.setdefault(state.draw_pile[0], []).append((w, after))
            best = 0.0
            for group in by_card.values():
                follow = engine.legal_actions(group[0][1], me)
                best += max(mean(group, then) for then in follow)
            out.append(best / total)
        return out


def _ways(unseen: Counter[int], values: tuple[int, ...]) -> int:
    """How many ways the unseen cards give these values in this order (drawn without replacement)."""
    left = Counter(unseen)
    ways = 1
    for value in values:
        ways *= left[value]
        left[value] -= 1
    return max(ways, 0)


GAMES: dict[str, Game] = {g.name: g for g in (Dominoes(), Pitch(), Kazino(), Skyjo())}


# --- The solve -----------------------------------------------------------------------------------------


class Solver:
    """Alpha-beta over one fully known deal, through the engine (two sides: mine maximises)."""

    def __init__(self, engine: Engine, game: Game, me: int, win: float) -> None:
        self.engine = engine
        self.game = game
        self.me = me
        self.win = win
        self.nodes = 0

    def after(self, state: Any, seat: int, action: Action, alpha: float, beta: float) -> float:
        events = self.engine.decide(state, seat, action)
        for event in events:
            state = self.engine.apply(state, event)
        found = self.game.leaf(events, state, self.me, self.win)
        if found is not None:
            return found
        return self.search(state, alpha, beta)

    def search(self, state: Any, alpha: float, beta: float) -> float:
        self.nodes += 1
        seat = self.engine.to_act(state)[0]
        mine = self.game.side(state, seat) == self.game.side(state, self.me)
        best = -math.inf if mine else math.inf
        for action in self.engine.legal_actions(state, seat):
            value = self.after(state, seat, action, alpha, beta)
            if mine:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


def knowable(engine_name: str, view: View, max_deals: int = MAX_DEALS) -> bool:
    """Whether ``values`` would answer (cheap: the count of deals before the voids rule any out)."""
    game = GAMES.get(engine_name)
    bound = None if game is None else game.bound(view)
    return bound is not None and bound <= max_deals


def consistent_deals(engine_name: str, view: View, max_deals: int = MAX_DEALS) -> list[Any] | None:
    """Every full state consistent with ``view`` (one per deal of the unseen cards), or None."""
    game = GAMES.get(engine_name)
    if game is None:
        return None
    engine = engines.get(engine_name)
    return game.deals(view, lambda: engine.determinize(view, random.Random(0)), max_deals)


def values(
    engine_name: str, view: View, legal: list[Action], win: float, max_deals: int = MAX_DEALS
) -> list[tuple[float, Action]] | None:
    """Each legal action with its exact expected value (points), best first; None when not knowable here."""
    deals = consistent_deals(engine_name, view, max_deals)
    if not deals:
        return None
    means = GAMES[engine_name].solve(engines.get(engine_name), view, legal, deals, win)
    ranked = sorted(range(len(legal)), key=lambda i: (-means[i], i))
    return [(means[i], legal[i]) for i in ranked]
