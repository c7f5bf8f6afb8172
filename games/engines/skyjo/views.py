"""What each audience may see (``view``), everything (``reveal``), the result, and ``determinize``.

Nobody sees a hidden grid card, not even its owner; the drawn card is shown only
to the drawer until it is placed or discarded; the draw pile is only a count.
Everything else is public, the whole discard pile (newest first) included.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace
from typing import Any

from games.engines.base import IllegalAction, View, _
from games.engines.skyjo.rules import places, to_act
from games.engines.skyjo.state import CELLS, FULL_DECK, OVER, State

_PHASES = ("setup", "opening", "play", "scored", "over")


def _cell(card: int | None, up: bool) -> dict[str, Any]:
    if card is None:
        return {"status": "wiped"}
    if up:
        return {"status": "up", "card": card}
    return {"status": "hidden"}


def _viewer(state: State, seat: Any) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", _("There is no such seat at this table."))
    return seat


def view(state: State, seat: int | None) -> View:
    viewer = _viewer(state, seat)
    grids = [
        [_cell(card, up) for card, up in zip(cards, ups, strict=True)]
        for cards, ups in zip(state.cards, state.up, strict=True)
    ]
    drawn: dict[str, Any] | None = None
    if state.drawn is not None:
        drawn = {"seat": state.turn}
        if viewer is not None and viewer == state.turn:
            drawn["card"] = state.drawn
    return {
        "game": "skyjo",
        "seat": viewer,
        "players": state.players,
        "target": state.target,
        "hand": state.hand,
        "phase": state.phase,
        "finished": state.phase == OVER,
        "to_act": to_act(state),
        "turn": state.turn,
        "starter": state.starter,
        "closer": state.closer,
        "scores": list(state.scores),
        "grids": grids,
        "hidden": [sum(1 for cell in grid if cell["status"] == "hidden") for grid in grids],
        "showing": [sum(cell.get("card", 0) for cell in grid) for grid in grids],
        "discard": list(reversed(state.discard)),
        "draw_pile": len(state.draw_pile),
        "drawn": drawn,
        "reshuffles": state.reshuffles,
        "rounds": copy.deepcopy(list(state.history)),
        "outcome": outcome(state),
    }


def reveal(state: State) -> View:
    """Every card, for replays after the hand and for arbiters; never the seed."""
    shown = view(state, None)
    shown["grids"] = [
        [
            {**_cell(card, up), "card": card} if card is not None else _cell(card, up)
            for card, up in zip(cards, ups, strict=True)
        ]
        for cards, ups in zip(state.cards, state.up, strict=True)
    ]
    shown["draw_order"] = list(state.draw_pile)
    if state.drawn is not None:
        shown["drawn"] = {"seat": state.turn, "card": state.drawn}
    return shown


def _standing(scores: list[int], rounds: int) -> dict[str, Any]:
    """Who leads by ``scores`` (the lowest wins) after ``rounds`` rounds, in the outcome's form."""
    best = min(scores)
    return {
        "winners": [seat for seat, score in enumerate(scores) if score == best],
        "places": places(scores),
        "scores": scores,
        "score_scale": 1,
        "teams": None,
        "rounds": rounds,
    }


def outcome(state: State) -> dict[str, Any] | None:
    if state.phase != OVER:
        return None
    return _standing(list(state.scores), state.hand)


def partial_outcome(state: State) -> dict[str, Any]:
    """The game as it stands: the totals of the rounds finished (lowest first), the round in play not
    counted. Once the game is over, its outcome."""
    done = outcome(state)
    if done is not None:
        return done
    scores = list(state.scores) or [0] * state.players
    return {**_standing(scores, max(0, state.hand - 1)), "partial": True}


def components(state: State) -> list[Any]:
    cards: list[Any] = [card for grid in state.cards for card in grid if card is not None]
    cards.extend(state.discard)
    cards.extend(state.draw_pile)
    if state.drawn is not None:
        cards.append(state.drawn)
    return cards


def hidden_from(state: State, seat: int | None) -> list[str]:
    """Skyjo's cards are repeating integers, not notations: redaction has its own tests."""
    return []


def determinize(view: View, rng: random.Random) -> State:
    """A full state that agrees with ``view``: the unseen cards dealt at random to the unseen places.

    The unseen cards are the 150 less every card the view shows (face-up grid cards,
    the discard pile, the viewer's own drawn card); they fill the hidden cells, another
    seat's drawn card and the draw pile, in a random order. The seed is made up too.
    """
    try:
        return _determinize(view, rng)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise IllegalAction("bad_view", _("This is not a Skyjo view.")) from exc


def _determinize(view: View, rng: random.Random) -> State:
    if view.get("game") != "skyjo" or view["phase"] not in _PHASES:
        raise ValueError("not a Skyjo view")
    seen: Counter[int] = Counter(view["discard"])
    for grid in view["grids"]:
        seen.update(cell["card"] for cell in grid if cell["status"] == "up")
    drawn_info = view["drawn"]
    if drawn_info is not None and "card" in drawn_info:
        seen[drawn_info["card"]] += 1
    unseen = list((Counter(FULL_DECK) - seen).elements())
    rng.shuffle(unseen)
    pool = iter(unseen)

    cards: list[tuple[int | None, ...]] = []
    ups: list[tuple[bool, ...]] = []
    for grid in view["grids"]:
        if len(grid) != CELLS:
            raise ValueError("a grid has twelve cells")
        row: list[int | None] = []
        for cell in grid:
            status = cell["status"]
            row.append(None if status == "wiped" else cell["card"] if status == "up" else next(pool))
        cards.append(tuple(row))
        ups.append(tuple(cell["status"] != "hidden" for cell in grid))
    drawn: int | None = None
    if drawn_info is not None:
        drawn = drawn_info["card"] if "card" in drawn_info else next(pool)
    draw_pile = tuple(pool)
    if len(draw_pile) != view["draw_pile"]:
        raise ValueError("the unseen cards do not fit the hidden places")
    return replace(
        State(),
        players=view["players"],
        target=view["target"],
        seed=rng.randrange(2**31),
        hand=view["hand"],
        phase=view["phase"],
        cards=tuple(cards),
        up=tuple(ups),
        discard=tuple(reversed(view["discard"])),
        draw_pile=draw_pile,
        drawn=drawn,
        turn=view["turn"],
        starter=view["starter"],
        closer=view["closer"],
        reshuffles=view["reshuffles"],
        scores=tuple(view["scores"]),
        history=tuple(copy.deepcopy(view["rounds"])),
    )
