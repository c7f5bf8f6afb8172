"""Kazino (Casino), the two-player fishing game: rules of record in rules/kazino.md.

The engine contract of DESIGN.md as module-level functions. The parts live in
small modules: ``cards`` (notation and values), ``state`` (the state and the
fold of events), ``moves`` (legal moves), ``checks`` (refusals), ``flow``
(deals, game end, match end) and ``views`` (views, reveal, determinize).
Player documentation and every JSON shape: docs/games/kazino.md.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, Config, Event, IllegalAction, View, _

from . import flow as _flow
from . import views as _views
from .cards import DECK
from .checks import check_seat, check_shape, is_int, refusal
from .flow import deal_event, follow_up, game_start_event
from .moves import card_moves, legal_moves
from .sheet import score_sheet as score_sheet
from .state import State
from .state import apply as _apply

NAME = "kazino"
VERSION = 1
# No partial score (docs/tournaments.md, "The round clock"): a Kazino game is scored only at its end,
# from the cards each player captured, and the cards left on the table go to the last capture
# (rules/kazino.md, "End of a game and scoring"): a game stopped before has no score to stand on.
PARTIAL_SCORE = False
# Events whose data everyone may see (move logs show it); never "setup" (the seed), "game_start"
# (the deck) or "deal" (the hands).
PUBLIC_EVENTS = frozenset({"capture", "build", "tripe", "trail", "game_end", "match_end"})

DEFAULTS: Config = {"players": 2, "match": "target", "target": 160, "kings_aces_bonus": False, "dealer": 0}
MATCH_MODES = ("target", "single")
MAX_TARGET = 10_000


def default_config(players: int) -> Config:
    config = {**DEFAULTS, "players": players}
    return validate_config(config)


def validate_config(config: Config) -> Config:
    if not isinstance(config, dict):
        raise IllegalAction("bad_config", _("A game configuration is an object of options."))
    unknown = sorted(str(k) for k in config if k not in DEFAULTS and k != "deck")
    if unknown:
        raise IllegalAction(
            "unknown_option", _("Kazino has no option called {name}."), name=", ".join(unknown)[:80]
        )
    out: Config = {**DEFAULTS, **config}
    if not is_int(out["players"]) or out["players"] != 2:
        raise IllegalAction("bad_players", _("Kazino is played by exactly 2 players."))
    if out["match"] not in MATCH_MODES:
        raise IllegalAction("bad_match", _('The match is either "target" or "single".'))
    if not is_int(out["target"]) or not 1 <= out["target"] <= MAX_TARGET:
        raise IllegalAction(
            "bad_target", _("The target is a whole number of points from 1 to {most}."), most=MAX_TARGET
        )
    if not isinstance(out["kings_aces_bonus"], bool):
        raise IllegalAction("bad_option", _("The 4 Kings / 4 Aces bonus is either on or off."))
    if not is_int(out["dealer"]) or out["dealer"] not in (0, 1):
        raise IllegalAction("bad_dealer", _("The first dealer is seat 0 or seat 1."))
    if out.get("deck", 0) is None:
        del out["deck"]
    if "deck" in out:
        deck = out["deck"]
        if not isinstance(deck, list) or len(deck) != len(DECK) or set(deck) != set(DECK):
            raise IllegalAction("bad_deck", _("A stacked deck lists each of the 52 cards exactly once."))
        out["deck"] = list(deck)
    return out


def sample_configs() -> list[Config]:
    """The default match, both modes, every option, both first dealers.

    Random play rarely reaches 160 quickly (about 22 games a match), so short targets fill most
    of the list and keep the contract suite's thousand random games fast.
    """
    variants: list[Config] = [
        {"match": "single"},
        {"match": "single", "dealer": 1},
        {"match": "single", "kings_aces_bonus": True},
        {"match": "single", "kings_aces_bonus": True, "dealer": 1},
        {"target": 20},
        {"target": 20, "dealer": 1, "kings_aces_bonus": True},
        {"target": 40, "kings_aces_bonus": True, "dealer": 1},
        {"target": 30},
        {"target": 50, "dealer": 1},
    ]
    return [default_config(2), *(validate_config({"players": 2, **v}) for v in variants)]


def start(config: Config, seed: int) -> list[Event]:
    config = validate_config(config)
    if not is_int(seed):
        raise IllegalAction("bad_seed", _("The seed must be a whole number."))
    setup: Event = {"type": "setup", "config": config, "seed": seed}
    state = _apply(State(), setup)
    first_game = game_start_event(state, 1, config["dealer"])
    return [setup, first_game, deal_event(_apply(state, first_game))]


def apply(state: State, event: Event) -> State:
    return _apply(state, event)


def replay(events: list[Event]) -> State:
    state = State()
    for event in events:
        state = _apply(state, event)
    return state


def to_act(state: State) -> list[int]:
    return _views.to_act(state)


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    return legal_moves(state, seat)


def decide(state: State, seat: int, action: Action) -> list[Event]:
    check_seat(state, seat)
    check_shape(state, seat, action)
    for candidate in card_moves(state, seat, action["card"]):
        if candidate == action:
            return follow_up(state, seat, candidate)
    raise refusal(state, seat, action)


def view(state: State, seat: int | None) -> View:
    return _views.view(state, seat)


def reveal(state: State) -> View:
    return _views.reveal(state)


def outcome(state: State) -> dict[str, Any] | None:
    if not state.finished:
        return None
    winners = list(state.winners)
    return {
        "winners": winners,
        "places": [1 if s in winners else 2 for s in range(2)],
        "scores": list(state.totals),
        "score_scale": 1,
        "teams": None,
        "match": state.config["match"],
        "games": [_views.result_json(r) for r in state.history],
    }


def determinize(view: View, rng: random.Random) -> State:
    return _views.determinize(view, rng)


def components(state: State) -> list[str]:
    cards = list(state.deck)
    for hand in state.hands:
        cards.extend(hand)
    for pile in state.table:
        cards.extend(pile.cards)
    for pile_cards in state.captured:
        cards.extend(pile_cards)
    return cards


def hidden_from(state: State, seat: int | None) -> list[str]:
    return _views.hidden_from(state, seat)


def deal_of(config: Config, seed: int, hand: int) -> dict[str, Any]:
    return _flow.deal_of(config, seed, hand)


def deals_in(events: list[Event]) -> dict[int, dict[str, Any]]:
    return _flow.deals_in(events)


def points_ranking(outcome: dict[str, Any]) -> list[list[int]]:
    """The rules' points ranking (rules/kazino.md, "Matches": every online game's points count in the
    ranking): each game of a finished match, with the points each seat scored in it. A match to 160
    holds many games, a match of "single" mode one; each game counts on its own."""
    return [[int(p) for p in g["points"]] for g in outcome.get("games", [])]


def rematch_config(config: Config) -> Config:
    """The next match at the same table: the other player deals first (rules page, "Matches")."""
    return {**config, "dealer": 1 - config["dealer"]}
