"""Double-six dominoes: Block, Draw and All Fives for 2, 3 or 4 players (rules/dominoes.md).

The engine contract (DESIGN.md) as module-level functions. The package holds:
``tiles`` (the set and its notation), ``config`` (options and defaults), ``state`` (the
state and the layout's mechanics), ``rules`` (apply, decide, legal actions, scoring) and
``views`` (views, reveal, determinize). Scores are kept in half-points (score_scale 2).
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, Config, Event, IllegalAction, View, _

from . import config as _config
from . import rules as _rules
from . import views as _views
from .sheet import score_sheet
from .state import EMPTY, State

NAME = "dominoes"
VERSION = 1
# A game stopped at a tournament's time is scored by the points already won (rules/dominoes.md: every
# point is scored the moment it is made, in play or at a round's count, and the score only grows):
# the sides' totals now are public and final; the round in play adds nothing more
# (docs/tournaments.md, "The round clock").
PARTIAL_SCORE = True
# Events whose data everyone may see (move logs show it); never "setup" (the seed), "deal" (the
# hands and the boneyard) or "draw" (the drawn tile).
PUBLIC_EVENTS = frozenset({"play", "pass", "next_round", "round_end", "game_over"})

__all__ = [
    "score_sheet",
    "NAME",
    "PARTIAL_SCORE",
    "VERSION",
    "State",
    "apply",
    "components",
    "deal_of",
    "deals_in",
    "decide",
    "default_config",
    "determinize",
    "hidden_from",
    "legal_actions",
    "outcome",
    "partial_outcome",
    "replay",
    "reveal",
    "sample_configs",
    "start",
    "to_act",
    "validate_config",
    "view",
]


def default_config(players: int) -> Config:
    return _config.default_config(players)


def validate_config(config: Config) -> Config:
    return _config.validate_config(config)


def sample_configs() -> list[Config]:
    return _config.sample_configs()


def start(config: Config, seed: int) -> list[Event]:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise IllegalAction("bad_seed", _("The game needs a whole-number seed."))
    return _rules.opening_events(validate_config(config), seed)


def apply(state: State | None, event: Event) -> State:
    return _rules.apply(EMPTY if state is None else state, event)


def replay(events: list[Event]) -> State:
    state = EMPTY
    for event in events:
        state = _rules.apply(state, event)
    return state


def to_act(state: State) -> list[int]:
    return _rules.to_act(state)


def legal_actions(state: State, seat: int) -> list[Action]:
    return _rules.legal_actions(state, seat)


def decide(state: State, seat: int, action: Action) -> list[Event]:
    return _rules.decide(state, seat, action)


def view(state: State, seat: int | None) -> View:
    return _views.view(state, seat)


def reveal(state: State) -> View:
    return _views.reveal(state)


def outcome(state: State) -> dict[str, Any] | None:
    if state.phase != "over":
        return None
    n = state.players
    scores = [state.seat_score(s) for s in range(n)]
    places = [1 + sum(1 for side in state.scores if side > state.seat_score(s)) for s in range(n)]
    return {
        "winners": list(state.winners),
        "places": places,
        "scores": scores,
        "score_scale": 2,
        "teams": _views.teams(state),
        "rounds": state.round_no,
        "reason": state.end_reason,
        "target": state.config["target"],
    }


def partial_outcome(state: State) -> dict[str, Any]:
    """The game as it stands: each side's points so far (highest first). Once over, its outcome."""
    done = outcome(state)
    if done is not None:
        return done
    n = state.players
    sides_now = list(state.scores) or [0] * (2 if state.partnerships else n)
    seat_scores = [sides_now[state.side(s)] for s in range(n)]
    best = max(sides_now)
    return {
        "winners": [s for s in range(n) if seat_scores[s] == best],
        "places": [1 + sum(1 for side in sides_now if side > seat_scores[s]) for s in range(n)],
        "scores": seat_scores,
        "score_scale": 2,
        "teams": _views.teams(state),
        "rounds": state.round_no,
        "reason": "time",
        "target": state.config["target"],
        "partial": True,
    }


def sides(config: Config) -> list[list[int]]:
    """Who plays together: the partnerships, else each seat alone (a resignation's side: games/commands/resignation.py)."""
    players: int = config["players"]
    return [[0, 2], [1, 3]] if config.get("partnerships") else [[s] for s in range(players)]


def determinize(view: View, rng: random.Random) -> State:
    return _views.determinize(view, rng)


def components(state: State) -> list[str]:
    return _views.components(state)


def deal_of(config: Config, seed: int, hand: int) -> dict[str, Any]:
    return _rules.deal_of(config, seed, hand)


def deals_in(events: list[Event]) -> dict[int, dict[str, Any]]:
    return _rules.deals_in(events)


def hidden_from(state: State, seat: int | None) -> list[str]:
    return _views.hidden_from(state, seat)
