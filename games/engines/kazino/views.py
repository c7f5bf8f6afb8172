"""What each audience sees, everything for arbiters, and states sampled from a view."""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import View

from .cards import DECK
from .state import GameResult, Pile, State


def pile_json(pile: Pile) -> dict[str, Any]:
    return {"cards": list(pile.cards), "kind": pile.kind, "value": pile.value, "owner": pile.owner}


def result_json(result: GameResult) -> dict[str, Any]:
    return {
        "game": result.game,
        "dealer": result.dealer,
        "captured": list(result.captured),
        "points": list(result.points),
        "sweep_to": result.sweep_to,
    }


def to_act(state: State) -> list[int]:
    return [] if state.finished or state.game == 0 else [state.turn]


def view(state: State, seat: int | None) -> View:
    return {
        "game": "kazino",
        "players": 2,
        "seat": seat,
        "config": {k: v for k, v in state.config.items() if k != "deck"},
        "hand": state.game,
        "deal": state.deal,
        "dealer": state.dealer,
        "to_act": to_act(state),
        "scores": list(state.totals),
        "finished": state.finished,
        "winners": list(state.winners) if state.finished else None,
        "my_cards": list(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(h) for h in state.hands],
        "table": [pile_json(p) for p in state.table],
        "captured": [list(c) for c in state.captured],
        "captured_counts": [len(c) for c in state.captured],
        "last_capturer": state.last_capturer,
        "deck_count": len(state.deck),
        "games": [result_json(r) for r in state.history],
    }


def reveal(state: State) -> View:
    return {
        **view(state, None),
        "config": dict(state.config),
        "hands": [list(h) for h in state.hands],
        "deck": list(state.deck),
    }


def hidden_from(state: State, seat: int | None) -> list[str]:
    hidden = list(state.deck)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden.extend(hand)
    return hidden


def determinize(v: View, rng: random.Random) -> State:
    """A full state agreeing with the view ``v``: the unseen cards dealt at random."""
    seat = v["seat"]
    table = tuple(Pile(tuple(p["cards"]), p["kind"], p["value"], p["owner"]) for p in v["table"])
    captured = tuple(tuple(c) for c in v["captured"])
    mine: tuple[str, ...] = tuple(v["my_cards"]) if seat is not None else ()
    known = set(mine).union(*(p.cards for p in table), *captured)
    unknown = [c for c in DECK if c not in known]
    rng.shuffle(unknown)
    hands: list[tuple[str, ...]] = []
    for s, count in enumerate(v["hand_counts"]):
        if s == seat:
            hands.append(mine)
        else:
            hands.append(tuple(unknown[:count]))
            unknown = unknown[count:]
    history = tuple(
        GameResult(r["game"], r["dealer"], tuple(r["captured"]), tuple(r["points"]), r["sweep_to"])
        for r in v["games"]
    )
    return State(
        config=dict(v["config"]),
        seed=0,
        finished=v["finished"],
        game=v["hand"],
        dealer=v["dealer"],
        deal=v["deal"],
        turn=v["to_act"][0] if v["to_act"] else 0,
        deck=tuple(unknown),
        hands=tuple(hands),
        table=table,
        captured=captured,
        last_capturer=v["last_capturer"],
        totals=tuple(v["scores"]),
        history=history,
        winners=tuple(v["winners"] or ()),
    )
