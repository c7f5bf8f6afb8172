"""Skyjo's rules: configs, the deal, legal actions and ``decide`` (actions into events).

Every rule decision lands in an event (who starts, wipes, the closer, the round's
points, the next deal), so ``apply`` in ``state.py`` stays a plain fold.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, TypeGuard

from games.engines.base import Action, Config, Event, IllegalAction, _
from games.engines.skyjo.state import (
    CELLS,
    COLUMNS,
    FULL_DECK,
    OPENING,
    OVER,
    PLAY,
    State,
    apply,
    hidden_cells,
    live_cells,
    opened_count,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 8
DEFAULT_TARGET = 100
MAX_TARGET = 10_000
_DECK_COUNTS = Counter(FULL_DECK)

# The fields of each action besides "type".
_FIELDS: dict[str, tuple[str, ...]] = {
    "reveal": ("cell",),
    "take_discard": ("cell",),
    "draw": (),
    "place": ("cell",),
    "discard": ("cell",),
    "turn": ("cell",),
}


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- configs


def default_config(players: int) -> Config:
    return validate_config({"players": players})


def validate_config(config: Config) -> Config:
    """The normalised config: players 2..8, target (default 100), optional deck of the 150 cards."""
    if not isinstance(config, dict):
        raise IllegalAction("bad_config", _("A game's options must be given as a set of named values."))
    unknown = sorted(str(key) for key in config if key not in ("players", "target", "deck"))
    if unknown:
        raise IllegalAction(
            "unknown_option", _("Skyjo has no option called {option}."), option=unknown[0][:40]
        )
    players = config.get("players")
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(
            "bad_players", _("Skyjo is for {low} to {high} players."), low=MIN_PLAYERS, high=MAX_PLAYERS
        )
    target = config.get("target", DEFAULT_TARGET)
    if not _is_int(target) or not 1 <= target <= MAX_TARGET:
        raise IllegalAction(
            "bad_target", _("The target must be a whole number from 1 to {high}."), high=MAX_TARGET
        )
    normal: Config = {"players": players, "target": target}
    deck = config.get("deck")
    if deck is not None:
        if (
            not isinstance(deck, list)
            or not all(_is_int(card) for card in deck)
            or Counter(deck) != _DECK_COUNTS
        ):
            raise IllegalAction(
                "bad_deck",
                _(
                    "A stacked deck must list the 150 Skyjo cards: five -2, ten -1, fifteen 0, ten of each 1 to 12."
                ),
            )
        normal["deck"] = list(deck)
    return normal


def sample_configs() -> list[Config]:
    """Every player count; low targets keep the contract run fast; the defaults and a stacked deck too."""
    targets = {2: 30, 3: 25, 4: 20, 5: 15, 6: 15, 7: 10, 8: 10}
    configs = [validate_config({"players": n, "target": t}) for n, t in targets.items()]
    configs.append(default_config(2))
    configs.append(default_config(4))
    configs.append(validate_config({"players": 2, "target": 30, "deck": sorted(FULL_DECK)}))
    return configs


# ---------------------------------------------------------------- the deal


def _rng(seed: int, what: str, n: int) -> random.Random:
    return random.Random(f"{seed}:{what}:{n}")


def deal_event(players: int, hand: int, order: list[int]) -> Event:
    """Seat p gets order[12p : 12p+12] in cell order; the next card opens the discard; the rest is the draw pile."""
    grids = [order[CELLS * seat : CELLS * (seat + 1)] for seat in range(players)]
    rest = order[CELLS * players :]
    return {"type": "dealt", "hand": hand, "grids": grids, "discard": rest[0], "draw_pile": rest[1:]}


def _shuffled_deck(seed: int, hand: int) -> list[int]:
    order = list(FULL_DECK)
    _rng(seed, "deal", hand).shuffle(order)
    return order


def deal_of(config: Config, seed: int, hand: int) -> dict[str, Any]:
    """Round ``hand``'s deal as it will be logged, for the fair-deal commitment (docs/fair-deals.md):
    the grids and the first discard become known as the round is played; the draw pile is committed
    card by card, so that only the cards drawn from it are ever opened."""
    order = config["deck"] if hand == 1 and "deck" in config else _shuffled_deck(seed, hand)
    event = deal_event(config["players"], hand, list(order))
    return {"open": {"grids": event["grids"], "discard": event["discard"]}, "stock": event["draw_pile"]}


def deals_in(events: list[Event]) -> dict[int, dict[str, Any]]:
    """Every round dealt in ``events``: its grids and first discard, and the cards drawn from its
    draw pile until a reshuffle (a reshuffled pile comes from the discards, not from the deal)."""
    deals: dict[int, dict[str, Any]] = {}
    drawn: list[int] | None = None
    for event in events:
        kind = event["type"]
        if kind == "dealt":
            drawn = []
            deals[event["hand"]] = {
                "open": {"grids": event["grids"], "discard": event["discard"]},
                "drawn": drawn,
            }
        elif kind == "reshuffled":
            drawn = None
        elif kind == "drew" and drawn is not None:
            drawn.append(event["card"])
    return deals


def start(config: Config, seed: int) -> list[Event]:
    config = validate_config(config)
    if not _is_int(seed):
        raise IllegalAction("bad_seed", _("The seed must be a whole number."))
    order = config["deck"] if "deck" in config else _shuffled_deck(seed, 1)
    return [{"type": "setup", "config": config, "seed": seed}, deal_event(config["players"], 1, list(order))]


# ---------------------------------------------------------------- who acts, and what they may do


def to_act(state: State) -> list[int]:
    if state.phase == OPENING:
        return [seat for seat in range(state.players) if opened_count(state, seat) < 2]
    if state.phase == PLAY and state.turn is not None:
        return [state.turn]
    return []


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    hidden = hidden_cells(state, seat)
    if state.phase == OPENING:
        return [{"type": "reveal", "cell": cell} for cell in hidden]
    live = live_cells(state, seat)
    if state.drawn is not None:
        return [{"type": "place", "cell": cell} for cell in live] + [
            {"type": "discard", "cell": cell} for cell in hidden
        ]
    actions: list[Action] = [{"type": "take_discard", "cell": cell} for cell in live] if state.discard else []
    if state.draw_pile:
        actions.append({"type": "draw"})
    actions.extend({"type": "turn", "cell": cell} for cell in hidden)
    return actions


# ---------------------------------------------------------------- decide


def _check_shape(action: Any) -> tuple[str, int | None]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", _("An action must be a set of named values with a type."))
    kind = action["type"]
    if kind not in _FIELDS:
        raise IllegalAction("unknown_action", _("Skyjo has no action called {action}."), action=kind[:40])
    fields = _FIELDS[kind]
    extra = sorted(str(key) for key in action if key != "type" and key not in fields)
    if extra:
        raise IllegalAction("unexpected_field", _("This action takes no {field}."), field=extra[0][:40])
    if not fields:
        return kind, None
    if "cell" not in action:
        raise IllegalAction("missing_cell", _("Say which cell of your grid (0 to 11)."))
    cell = action["cell"]
    if not _is_int(cell) or not 0 <= cell < CELLS:
        raise IllegalAction("bad_cell", _("A cell is a number from 0 to 11, row by row from the top left."))
    return kind, cell


def _check_seat(state: State, seat: Any) -> int:
    if not _is_int(seat) or not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", _("There is no such seat at this table."))
    if state.phase == OVER:
        raise IllegalAction("game_over", _("The game is over."))
    if seat not in to_act(state):
        if state.phase == OPENING:
            raise IllegalAction("already_opened", _("You have already turned your two opening cards."))
        raise IllegalAction("not_your_turn", _("It is not your turn."))
    return int(seat)


def _check_allowed(state: State, seat: int, kind: str, cell: int | None) -> None:
    """Refuse, with a reason a player understands, anything ``legal_actions`` would not list."""
    if state.phase == OPENING and kind != "reveal":
        raise IllegalAction("opening", _("First turn up two cards of your grid."))
    if state.phase == PLAY:
        if kind == "reveal":
            raise IllegalAction(
                "not_opening", _("The opening is over: take the discard, draw or turn a card.")
            )
        if state.drawn is not None and kind not in ("place", "discard"):
            raise IllegalAction("must_use_drawn", _("Place the card you drew on your grid, or discard it."))
        if state.drawn is None and kind in ("place", "discard"):
            raise IllegalAction("nothing_drawn", _("You have not drawn a card."))
        if kind == "draw" and not state.draw_pile:
            raise IllegalAction("draw_pile_empty", _("The draw pile is empty."))
        if kind == "take_discard" and not state.discard:
            raise IllegalAction("discard_empty", _("The discard pile is empty."))
    if cell is None:
        return
    card = state.cards[seat][cell]
    if card is None:
        raise IllegalAction(
            "cell_wiped", _("That column was wiped out: cell {cell} is no longer in play."), cell=cell
        )
    if kind in ("reveal", "turn", "discard") and state.up[seat][cell]:
        raise IllegalAction(
            "cell_face_up", _("Cell {cell} is already face up: choose a hidden card."), cell=cell
        )


def decide(state: State, seat: int, action: Action) -> list[Event]:
    """The events that ``action`` by ``seat`` produces; IllegalAction if it is not allowed."""
    kind, cell = _check_shape(action)
    seat = _check_seat(state, seat)
    _check_allowed(state, seat, kind, cell)
    if kind == "reveal":
        return _opening_reveal(state, seat, cell)
    return _Turn(state, seat).play(kind, cell)


def _opening_reveal(state: State, seat: int, cell: int | None) -> list[Event]:
    assert cell is not None
    events: list[Event] = [{"type": "revealed", "seat": seat, "cell": cell, "card": state.cards[seat][cell]}]
    after = apply(state, events[0])
    if not to_act(after):
        events.append({"type": "round_started", "hand": state.hand, "seat": first_player(_opened(after))})
    return events


def _opened(state: State) -> list[list[int]]:
    return [
        [card for card, up in zip(cards, ups, strict=True) if up and card is not None]
        for cards, ups in zip(state.cards, state.up, strict=True)
    ]


def first_player(opened: list[list[int]]) -> int:
    """Highest total of the opened cards; then the highest single card; then the lowest seat."""
    return max(range(len(opened)), key=lambda seat: (sum(opened[seat]), max(opened[seat]), -seat))


def round_points(totals: list[int], closer: int) -> tuple[list[int], bool]:
    """Each seat's points for the round, and whether the closer's total was doubled.

    The closer must be strictly lowest; otherwise a positive total is doubled.
    """
    mine = totals[closer]
    doubled = mine > 0 and any(total <= mine for seat, total in enumerate(totals) if seat != closer)
    points = list(totals)
    if doubled:
        points[closer] = 2 * mine
    return points, doubled


def places(scores: list[int]) -> list[int]:
    """1-based place per seat, lowest score first; equal scores share a place."""
    return [1 + sum(other < score for other in scores) for score in scores]


class _Turn:
    """Builds the events of one move, folding each into a scratch state as it goes."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    def play(self, kind: str, cell: int | None) -> list[Event]:
        state, seat = self.state, self.seat
        if kind == "draw":
            self.emit({"type": "drew", "seat": seat, "card": state.draw_pile[0]})
            if not self.state.draw_pile and len(self.state.discard) > 1:
                self.reshuffle()
            return self.events
        assert cell is not None
        here = state.cards[seat][cell]
        if kind == "take_discard":
            self.emit(
                {
                    "type": "took_discard",
                    "seat": seat,
                    "cell": cell,
                    "card": state.discard[-1],
                    "replaced": here,
                }
            )
        elif kind == "place":
            self.emit({"type": "placed", "seat": seat, "cell": cell, "card": state.drawn, "replaced": here})
        elif kind == "discard":
            self.emit({"type": "discarded", "seat": seat, "card": state.drawn})
            self.emit({"type": "turned", "seat": seat, "cell": cell, "card": here})
        else:  # turn
            self.emit({"type": "turned", "seat": seat, "cell": cell, "card": here})
        self.wipe_columns(seat, (cell % 4,))
        self.end_turn()
        return self.events

    def reshuffle(self) -> None:
        """The draw pile ran out: every discard but the top one becomes the new draw pile."""
        state = self.state
        pile = list(state.discard[:-1])
        _rng(state.seed, f"reshuffle-{state.hand}", state.reshuffles + 1).shuffle(pile)
        self.emit({"type": "reshuffled", "draw_pile": pile})

    def wipe_columns(self, seat: int, columns: tuple[int, ...] = (0, 1, 2, 3)) -> None:
        """Wipe each of ``columns`` that shows three equal face-up cards, left to right, top card first.

        After a move only the column of the cell it touched can have completed.
        """
        grid, up = self.state.cards[seat], self.state.up[seat]
        for column in columns:
            top, middle, bottom = COLUMNS[column]
            card = grid[top]
            if (
                card is not None
                and card == grid[middle] == grid[bottom]
                and up[top]
                and up[middle]
                and up[bottom]
            ):
                self.emit({"type": "wiped", "seat": seat, "column": column, "cards": [card, card, card]})
                grid, up = self.state.cards[seat], self.state.up[seat]

    def end_turn(self) -> None:
        state, seat = self.state, self.seat
        if state.closer is None and not hidden_cells(state, seat):
            self.emit({"type": "closed", "seat": seat})
        following = (seat + 1) % state.players
        if following == self.state.closer:
            self.end_round()
        else:
            self.emit({"type": "next_turn", "seat": following})

    def end_round(self) -> None:
        for seat in range(self.state.players):
            hidden = hidden_cells(self.state, seat)
            if hidden:
                cards = [self.state.cards[seat][cell] for cell in hidden]
                self.emit({"type": "final_reveal", "seat": seat, "cells": hidden, "cards": cards})
                self.wipe_columns(seat)
        state = self.state
        assert state.closer is not None
        grids = [list(grid) for grid in state.cards]
        totals = [sum(card for card in grid if card is not None) for grid in grids]
        points, doubled = round_points(totals, state.closer)
        scores = [score + gained for score, gained in zip(state.scores, points, strict=True)]
        self.emit(
            {
                "type": "round_ended",
                "hand": state.hand,
                "closer": state.closer,
                "totals": totals,
                "doubled": doubled,
                "points": points,
                "scores": scores,
                "grids": grids,
            }
        )
        if max(scores) >= state.target:
            best = min(scores)
            winners = [seat for seat, score in enumerate(scores) if score == best]
            self.emit({"type": "game_ended", "scores": scores, "winners": winners, "places": places(scores)})
        else:
            hand = state.hand + 1
            self.emit(deal_event(state.players, hand, _shuffled_deck(state.seed, hand)))
