"""The Kazino state and the pure fold of events into it.

``apply`` only moves cards as the events say: every rule check happens in
``decide`` before an event exists, so an old log replays the same forever.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Event

from .cards import VALUE


@dataclass(frozen=True)
class Pile:
    """One thing on the table: a loose card, a build or a tripe.

    ``cards[0]`` is the base (the loose card the pile started from) and names
    the pile in actions (``"on"``). ``value`` is a loose card's value (Ace 1),
    a build's value, or a tripe's rank value; ``owner`` is None for a loose card.
    """

    cards: tuple[str, ...]
    kind: str  # "card" | "build" | "tripe"
    value: int
    owner: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Pile:
        return self  # immutable all the way down, like a tuple of strings


def loose(card: str) -> Pile:
    return Pile((card,), "card", VALUE[card], None)


@dataclass(frozen=True)
class GameResult:
    game: int
    dealer: int
    captured: tuple[int, ...]
    points: tuple[int, ...]
    sweep_to: int | None

    def __deepcopy__(self, memo: dict[int, Any]) -> GameResult:
        return self  # immutable all the way down


@dataclass(frozen=True)
class State:
    config: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    finished: bool = False
    game: int = 0  # 1-based number of the game (52-card deal) within the match
    dealer: int = 0
    deal: int = 0  # 1..6 within the game
    turn: int = 0
    deck: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ((), ())
    table: tuple[Pile, ...] = ()
    captured: tuple[tuple[str, ...], ...] = ((), ())
    last_capturer: int | None = None
    totals: tuple[int, ...] = (0, 0)
    history: tuple[GameResult, ...] = ()
    winners: tuple[int, ...] = ()


def replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without its per-call introspection (the fold's hot path)."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _set(pair: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _replace_pile(table: tuple[Pile, ...], base: str, pile: Pile) -> tuple[Pile, ...]:
    return tuple(pile if p.cards[0] == base else p for p in table)


def _setup(state: State, event: Event) -> State:
    return State(config=dict(event["config"]), seed=event["seed"], dealer=event["config"]["dealer"])


def _game_start(state: State, event: Event) -> State:
    dealer = event["dealer"]
    return replace(
        state,
        game=event["game"],
        dealer=dealer,
        deal=0,
        turn=1 - dealer,
        deck=tuple(event["deck"]),
        hands=((), ()),
        table=(),
        captured=((), ()),
        last_capturer=None,
    )


def _deal(state: State, event: Event) -> State:
    dealt = len(event["table"]) + sum(len(h) for h in event["hands"])
    return replace(
        state,
        deal=event["deal"],
        turn=1 - state.dealer,
        deck=state.deck[dealt:],
        hands=tuple(tuple(h) for h in event["hands"]),
        table=state.table + tuple(loose(c) for c in event["table"]),
    )


def _capture(state: State, event: Event) -> State:
    seat, card = event["seat"], event["card"]
    taken = [c for group in event["groups"] for c in group]
    gone = set(taken)
    return replace(
        state,
        turn=1 - seat,
        hands=_set(state.hands, seat, _without(state.hands[seat], card)),
        table=tuple(p for p in state.table if p.cards[0] not in gone),
        captured=_set(state.captured, seat, state.captured[seat] + tuple(taken) + (card,)),
        last_capturer=seat,
    )


def _build(state: State, event: Event) -> State:
    return _onto_pile(state, event, "build", event["value"])


def _tripe(state: State, event: Event) -> State:
    return _onto_pile(state, event, "tripe", VALUE[event["card"]])


def _onto_pile(state: State, event: Event, kind: str, value: int) -> State:
    """The seat's card laid on the table pile ``event["on"]`` names, which becomes a ``kind`` of ``value``
    held by the seat; the other seat plays next."""
    seat, card, base = event["seat"], event["card"], event["on"]
    old = next(p for p in state.table if p.cards[0] == base)
    pile = Pile(old.cards + (card,), kind, value, seat)
    return replace(
        state,
        turn=1 - seat,
        hands=_set(state.hands, seat, _without(state.hands[seat], card)),
        table=_replace_pile(state.table, base, pile),
    )


def _trail(state: State, event: Event) -> State:
    seat, card = event["seat"], event["card"]
    return replace(
        state,
        turn=1 - seat,
        hands=_set(state.hands, seat, _without(state.hands[seat], card)),
        table=state.table + (loose(card),),
    )


def _game_end(state: State, event: Event) -> State:
    to = event["to"]
    captured, table = state.captured, state.table
    if to is not None:
        captured = _set(captured, to, captured[to] + tuple(event["sweep"]))
        table = ()
    points = tuple(event["points"])
    result = GameResult(event["game"], state.dealer, tuple(event["captured"]), points, to)
    return replace(
        state,
        captured=captured,
        table=table,
        totals=(state.totals[0] + points[0], state.totals[1] + points[1]),
        history=state.history + (result,),
    )


def _match_end(state: State, event: Event) -> State:
    return replace(state, finished=True, winners=tuple(event["winners"]))


APPLIERS = {
    "setup": _setup,
    "game_start": _game_start,
    "deal": _deal,
    "capture": _capture,
    "build": _build,
    "tripe": _tripe,
    "trail": _trail,
    "game_end": _game_end,
    "match_end": _match_end,
}


def apply(state: State, event: Event) -> State:
    return APPLIERS[event["type"]](state, event)
