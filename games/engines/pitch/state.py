"""The Pitch state and the fold of events into it (``apply`` judges no rule and draws no card)."""

from __future__ import annotations

from typing import Any, NamedTuple

from games.engines.base import Config, Event
from games.engines.pitch.cards import Trick


class State(NamedTuple):
    """Immutable: ``apply`` returns a new one (``_replace`` is the cheapest copy Python offers)."""

    config: Config = {}  # never mutated
    players: int = 0
    seed: int | None = None
    hand_no: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    in_play: frozenset[str] = frozenset()  # the cards dealt this hand
    phase: str = "setup"  # setup, bidding, play, over
    bids: tuple[tuple[int, int], ...] = ()  # (seat, amount), 0 = pass, 4 = pitched
    pitcher: int | None = None
    bid: int = 0
    trump: str | None = None
    leader: int = 0
    trick: Trick = ()
    tricks: tuple[tuple[Trick, int], ...] = ()  # completed tricks of this hand and their winners
    scores: tuple[int, ...] = ()
    last_hand: dict[str, Any] | None = None
    winners: tuple[int, ...] = ()
    # Every hand's result so far (public): the score sheet of a player who reloads or a spectator
    # who arrives late shows the whole game, not only the hands their page saw (#33).
    past_hands: tuple[dict[str, Any], ...] = ()


def apply(state: State, event: Event) -> State:
    kind = event["type"]
    if kind == "play":
        seat, card = event["seat"], event["card"]
        return state._replace(hands=_without(state.hands, seat, card), trick=(*state.trick, (seat, card)))
    if kind == "trick":
        winner = event["winner"]
        return state._replace(tricks=(*state.tricks, (state.trick, winner)), trick=(), leader=winner)
    if kind == "pass" or kind == "bid":
        return state._replace(bids=(*state.bids, (event["seat"], event.get("amount", 0))))
    if kind == "pitch":
        seat, card = event["seat"], event["card"]
        return state._replace(
            bids=(*state.bids, (seat, 4)),
            pitcher=seat,
            bid=4,
            phase="play",
            leader=seat,
            hands=_without(state.hands, seat, card),
            trick=((seat, card),),
        )
    if kind == "pitcher":
        return state._replace(pitcher=event["seat"], bid=event["bid"], phase="play", leader=event["seat"])
    if kind == "trump":
        return state._replace(trump=event["suit"])
    if kind == "score":
        summary = _summary(event)
        return state._replace(
            scores=tuple(event["scores"]), last_hand=summary, past_hands=(*state.past_hands, summary)
        )
    if kind == "deal":
        hands = tuple(tuple(h) for h in event["hands"])
        return state._replace(
            hand_no=event["hand"],
            dealer=event["dealer"],
            hands=hands,
            in_play=frozenset(c for h in hands for c in h),
            phase="bidding",
            bids=(),
            pitcher=None,
            bid=0,
            trump=None,
            leader=(event["dealer"] + 1) % len(hands),
            trick=(),
            tricks=(),
        )
    if kind == "end":
        return state._replace(phase="over", winners=tuple(event["winners"]))
    if kind == "setup":
        config = event["config"]
        return State(
            config=config, players=config["players"], seed=event["seed"], scores=(0,) * config["players"]
        )
    raise ValueError(f"unknown pitch event type {kind!r}")


def _summary(score: dict[str, Any]) -> dict[str, Any]:
    """A hand's score event without its type, copied one level down so no caller shares its lists."""
    return {k: v.copy() if isinstance(v, (dict, list)) else v for k, v in score.items() if k != "type"}


def _without(hands: tuple[tuple[str, ...], ...], seat: int, card: str) -> tuple[tuple[str, ...], ...]:
    hand = hands[seat]
    i = hand.index(card)
    return (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])


def replay(events: list[Event]) -> State:
    state = State()
    for event in events:
        state = apply(state, event)
    return state


def high_bid(state: State) -> tuple[int, int | None]:
    """The current high bid and who holds it (the latest bidder at that height: a steal takes it)."""
    best, holder = 0, None
    for seat, amount in state.bids:
        if amount and amount >= best:
            best, holder = amount, seat
    return best, holder


def to_act(state: State) -> list[int]:
    if state.phase == "bidding":
        return [(state.dealer + 1 + len(state.bids)) % state.players]
    if state.phase == "play":
        if not state.trick:
            return [state.leader]
        return [(state.trick[-1][0] + 1) % state.players]
    return []
