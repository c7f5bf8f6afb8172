"""What follows a move: new deals, the end of a game, the next game, the end of the match."""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, Config, Event

from .cards import DECK, ORDER, RANK, card_points
from .state import State, apply

HAND_SIZE = 4
TABLE_SIZE = 4


def deck_of(config: Config, seed: int, game: int) -> list[str]:
    """The order of game ``game``'s deck: shuffled from the seed, or stacked by the config (game 1)."""
    if game == 1 and "deck" in config:
        return list(config["deck"])
    deck = list(DECK)
    random.Random(f"{seed}:deck:{game}").shuffle(deck)
    return deck


def game_start_event(state: State, game: int, dealer: int) -> Event:
    """A new game: the full order of its shuffled (or, for game 1, stacked) deck."""
    return {
        "type": "game_start",
        "game": game,
        "dealer": dealer,
        "deck": deck_of(state.config, state.seed, game),
    }


def _packets(deck: list[str], dealer: int) -> list[dict[str, Any]]:
    """The six deals ``deal_event`` makes from a game's deck, each packet in canonical order."""
    first = 1 - dealer
    deals: list[dict[str, Any]] = []
    at = TABLE_SIZE
    for number in range(len(deck) // (2 * HAND_SIZE)):
        hands: list[list[str]] = [[], []]
        hands[first] = sorted(deck[at : at + HAND_SIZE], key=ORDER.__getitem__)
        hands[dealer] = sorted(deck[at + HAND_SIZE : at + 2 * HAND_SIZE], key=ORDER.__getitem__)
        table = sorted(deck[:TABLE_SIZE], key=ORDER.__getitem__) if number == 0 else []
        deals.append({"table": table, "hands": hands})
        at += 2 * HAND_SIZE
    return deals


def deal_of(config: Config, seed: int, game: int) -> dict[str, Any]:
    """Game ``game``'s deals, for the fair-deal commitment (docs/fair-deals.md): which cards go to
    the table and to each hand in each of its six deals. The whole deck is dealt and played, so all
    of it becomes known; the order inside a packet never matters and is not committed to."""
    dealer = (config["dealer"] + game - 1) % 2  # the deal alternates from game to game
    return {"open": {"dealer": dealer, "deals": _packets(deck_of(config, seed, game), dealer)}, "stock": []}


def deals_in(events: list[Event]) -> dict[int, dict[str, Any]]:
    """Every game started in ``events``, as ``deal_of`` describes it, from its logged deck."""
    return {
        e["game"]: {
            "open": {"dealer": e["dealer"], "deals": _packets(list(e["deck"]), e["dealer"])},
            "drawn": [],
        }
        for e in events
        if e["type"] == "game_start"
    }


def deal_event(state: State) -> Event:
    """The next deal from the front of the deck: table first (deal 1 only), then non-dealer, then dealer."""
    deck, first = state.deck, 1 - state.dealer
    table = list(deck[:TABLE_SIZE]) if state.deal == 0 else []
    at = len(table)
    hands: list[list[str]] = [[], []]
    hands[first] = list(deck[at : at + HAND_SIZE])
    hands[1 - first] = list(deck[at + HAND_SIZE : at + 2 * HAND_SIZE])
    return {"type": "deal", "deal": state.deal + 1, "table": table, "hands": hands}


def game_points(state: State, captured: list[list[str]]) -> list[int]:
    points = []
    for cards in captured:
        score = card_points(len(cards))
        if state.config["kings_aces_bonus"]:
            for rank in ("K", "A"):
                if sum(1 for c in cards if RANK[c] == rank) == 4:
                    score += 10
        points.append(score)
    return points


def game_end_event(state: State) -> Event:
    """The last capturer sweeps the table; points by cards captured (and the bonus option)."""
    to = state.last_capturer
    sweep = [c for p in state.table for c in p.cards]
    captured = [list(state.captured[0]), list(state.captured[1])]
    if to is not None:
        captured[to].extend(sweep)
    return {
        "type": "game_end",
        "game": state.game,
        "sweep": sweep,
        "to": to,
        "captured": [len(captured[0]), len(captured[1])],
        "points": game_points(state, captured),
    }


def match_winners(state: State) -> list[int] | None:
    """Winners once a game has ended, or None when another game is to be played."""
    a, b = state.totals
    if state.config["match"] == "single":
        return [0, 1] if a == b else [0 if a > b else 1]
    target = state.config["target"]
    if max(a, b) < target or a == b:
        return None
    return [0 if a > b else 1]


def follow_up(state: State, seat: int, action: Action) -> list[Event]:
    """The events of a legal ``action`` and everything it sets off (deals, game end, next game)."""
    events: list[Event] = []

    def push(event: Event) -> None:
        nonlocal state
        state = apply(state, event)
        events.append(event)

    push({**action, "seat": seat})
    if not (state.hands[0] or state.hands[1]):
        if state.deck:
            push(deal_event(state))
        else:
            push(game_end_event(state))
            winners = match_winners(state)
            if winners is not None:
                push({"type": "match_end", "winners": winners})
            else:
                push(game_start_event(state, state.game + 1, 1 - state.dealer))
                push(deal_event(state))
    return events
