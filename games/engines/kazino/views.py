"""What each audience sees, everything for arbiters, and states sampled from a view."""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import View

from .cards import DECK, RANK, play_values
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
    hands, unknown = _unseen_hands(unknown, v["hand_counts"], seat, mine, table, rng)
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


#: Deals drawn before placing the capturing cards of the opponents' piles by hand.
_TRIES = 64


def _captures(card: str, pile: Pile) -> bool:
    """Whether ``card`` can take the owned ``pile``: its value (a build) or its rank (a tripe)."""
    if pile.kind == "build":
        return pile.value in play_values(card)
    return RANK[card] == RANK[pile.cards[0]]


def _unseen_hands(
    unknown: list[str],
    counts: list[int],
    seat: int | None,
    mine: tuple[str, ...],
    table: tuple[Pile, ...],
    rng: random.Random,
) -> tuple[list[tuple[str, ...]], list[str]]:
    """The hands (``mine`` for ``seat``) and the rest of the pack, dealt from ``unknown``.

    A player who owns a build or a tripe holds a card that takes it (the rules let no one build or
    tripe otherwise, and let no one play that card away); a deal where an owner holds none leaves that
    player without a legal move later. So deals are drawn until every owner holds one (exact: uniform
    over the consistent deals); after ``_TRIES`` misses, one such card is placed in the owner's hand
    for each pile still uncovered and the rest dealt at random."""
    owned = {s: [p for p in table if p.owner == s] for s in range(len(counts)) if s != seat}
    for _ in range(_TRIES):
        rng.shuffle(unknown)
        hands, rest = _deal(unknown, counts, seat, mine, {})
        if all(any(_captures(c, p) for c in hands[s]) for s, piles in owned.items() for p in piles):
            return hands, rest
    placed: dict[int, list[str]] = {}
    pool = unknown[:]
    for s, piles in owned.items():
        chosen = placed.setdefault(s, [])
        for pile in piles:
            if any(_captures(c, pile) for c in chosen):
                continue
            takers = [c for c in pool if _captures(c, pile)]
            if takers and len(chosen) < counts[s]:
                card = rng.choice(takers)
                chosen.append(card)
                pool.remove(card)
    return _deal(pool, counts, seat, mine, placed)


def _deal(
    cards: list[str], counts: list[int], seat: int | None, mine: tuple[str, ...], placed: dict[int, list[str]]
) -> tuple[list[tuple[str, ...]], list[str]]:
    hands: list[tuple[str, ...]] = []
    rest = list(cards)
    for s, count in enumerate(counts):
        if s == seat:
            hands.append(mine)
            continue
        first = placed.get(s, [])
        need = count - len(first)
        hands.append(tuple(first) + tuple(rest[:need]))
        rest = rest[need:]
    return hands, rest
