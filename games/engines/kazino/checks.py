"""Refusals: the shape of an action, then why a well-formed action is not legal.

Every refusal is an IllegalAction with a stable code and a sentence for players.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Action, IllegalAction, _

from .cards import MAX_BUILD, RANK, VALUE, play_values
from .moves import covered, index_of
from .state import Pile, State

FIELDS: dict[str, frozenset[str]] = {
    "capture": frozenset({"type", "card", "value", "groups"}),
    "build": frozenset({"type", "card", "on", "value"}),
    "tripe": frozenset({"type", "card", "on"}),
    "trail": frozenset({"type", "card"}),
}


def is_int(x: Any) -> bool:
    """A whole number, and not a bool (``True == 1`` in Python)."""
    return isinstance(x, int) and not isinstance(x, bool)


def check_seat(state: State, seat: Any) -> None:
    if not is_int(seat) or not 0 <= seat < 2:
        raise IllegalAction("bad_seat", _("There is no seat {seat} at this table."), seat=str(seat)[:20])
    if state.finished:
        raise IllegalAction("game_over", _("The match is over."))
    if seat != state.turn:
        raise IllegalAction("not_your_turn", _("It is not your turn."))


def check_shape(state: State, seat: int, action: Any) -> None:
    """Refuse anything that is not a well-formed action naming cards that exist."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", _("An action is an object with a type."))
    kind = action["type"]
    if kind not in FIELDS:
        raise IllegalAction(
            "unknown_action", _("There is no action called {name} in Kazino."), name=kind[:40]
        )
    if set(action) != FIELDS[kind]:
        raise IllegalAction(
            "bad_fields",
            _("A {name} action has exactly these fields: {fields}."),
            name=kind,
            fields=", ".join(sorted(FIELDS[kind])),
        )
    card = action["card"]
    if not isinstance(card, str) or card not in RANK:
        raise IllegalAction("bad_card", _("That is not a card."))
    if card not in state.hands[seat]:
        raise IllegalAction("card_not_in_hand", _("You do not hold {card}."), card=card)
    if "value" in action and not is_int(action["value"]):
        raise IllegalAction("bad_value", _("The value must be a whole number."))
    if "on" in action:
        on = action["on"]
        if not isinstance(on, str) or not any(p.cards[0] == on for p in state.table):
            raise IllegalAction(
                "no_such_pile", _("Name a pile on the table by its first card, as the table shows it.")
            )
    if "groups" in action:
        groups = action["groups"]
        if (
            not isinstance(groups, list)
            or not groups
            or not all(isinstance(g, list) and g and all(isinstance(c, str) for c in g) for g in groups)
        ):
            raise IllegalAction("bad_groups", _("The groups must be lists of table cards."))


def refusal(state: State, seat: int, action: Action) -> IllegalAction:
    """Why a well-formed action is not among the legal ones."""
    kind, card = action["type"], action["card"]
    hand = state.hands[seat]
    rest = tuple(c for c in hand if c != card)
    owned = [p for p in state.table if p.owner == seat]
    keep = IllegalAction(
        "must_keep_capturer",
        _("You must keep in hand a card that can capture each of your builds and tripes."),
    )
    if kind == "trail":
        return IllegalAction(
            "must_not_trail", _("You own a build or a tripe on the table: you may not just trail a card.")
        )
    if kind == "capture":
        return _capture_refusal(state, card, action["value"], action["groups"], keep)
    pile = next(p for p in state.table if p.cards[0] == action["on"])
    others = [p for p in owned if p is not pile]
    if kind == "tripe":
        if pile.kind == "build" or RANK[pile.cards[0]] != RANK[card]:
            return IllegalAction("tripe_same_rank", _("A tripe is made on a card of the same rank."))
        if not any(RANK[c] == RANK[card] for c in rest):
            return IllegalAction(
                "must_hold_rank", _("To make a tripe you must keep another card of that rank in hand.")
            )
        return keep
    if pile.kind == "tripe":
        return IllegalAction("tripe_locked", _("A tripe is locked: nobody may add another value to it."))
    value = pile.value + VALUE[card]
    if value > MAX_BUILD:
        return IllegalAction("build_too_high", _("A build is worth 14 at most."))
    if action["value"] != value:
        return IllegalAction("wrong_value", _("That build would be worth {value}."), value=value)
    built = Pile(pile.cards + (card,), "build", value, seat)
    if not covered(rest, [built]):
        return IllegalAction(
            "must_hold_capturer", _("To build {value} you must keep a card that captures it."), value=value
        )
    if not covered(rest, others):
        return keep
    return IllegalAction("illegal_move", _("That move is not allowed here."))


def _capture_refusal(
    state: State, card: str, value: int, groups: list[list[str]], keep: IllegalAction
) -> IllegalAction:
    if value not in play_values(card):
        if RANK[card] == "A":
            return IllegalAction("wrong_value", _("An Ace is played at 1 or at 14."))
        return IllegalAction("wrong_value", _("{card} is played at {value}."), card=card, value=VALUE[card])
    on_table = {c for p in state.table for c in p.cards}
    named = [c for g in groups for c in g]
    if any(c not in on_table for c in named) or len(set(named)) != len(named):
        return IllegalAction("not_on_table", _("Name each table card once, and only cards on the table."))
    for pile in state.table:
        if pile.kind != "card" and pile.cards[0] in named:
            if pile.kind == "tripe" and RANK[pile.cards[0]] != RANK[card]:
                return IllegalAction("cannot_take_pile", _("A tripe is taken only by a card of its rank."))
            if pile.kind == "build" and pile.value != value:
                return IllegalAction(
                    "cannot_take_pile",
                    _("A build is taken whole, by a card of its value ({value})."),
                    value=pile.value,
                )
    options = index_of(state.table).captures(RANK[card], value)
    if not options:
        return IllegalAction(
            "nothing_to_capture", _("{card} captures nothing at {value}."), card=card, value=value
        )
    for option in options:
        if {c for g in option for c in g} == set(named):
            if option != groups:
                return IllegalAction(
                    "use_listed_groups",
                    _("Name this capture with its groups as the legal moves list them."),
                )
            return keep
    if len(named) < sum(len(g) for g in options[0]):
        return IllegalAction(
            "must_capture_most",
            _("If you capture, you must take everything the card can take at that value."),
        )
    return IllegalAction("illegal_move", _("That move is not allowed here."))
