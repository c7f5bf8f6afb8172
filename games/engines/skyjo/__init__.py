"""Skyjo, the twelve-card grid game, exactly as ``shared/rules/skyjo.md`` says.

The engine contract (DESIGN.md) as module-level functions. The rules as
implemented, every action, event and view as JSON: ``docs/games/skyjo.md``.

- ``state.py``: cards, grid geometry, the ``State`` and the event fold ``apply``;
- ``rules.py``: configs, the deal, who acts, legal actions and ``decide``;
- ``views.py``: ``view``, ``reveal``, ``outcome``, ``determinize``.
"""

from __future__ import annotations

from games.engines.skyjo.rules import (
    deal_of,
    deals_in,
    decide,
    default_config,
    legal_actions,
    sample_configs,
    start,
    to_act,
    validate_config,
)
from games.engines.skyjo.sheet import score_sheet
from games.engines.skyjo.state import State, apply, replay
from games.engines.skyjo.views import (
    components,
    determinize,
    hidden_from,
    outcome,
    partial_outcome,
    reveal,
    view,
)

NAME = "skyjo"
VERSION = 1
# A game stopped at a tournament's time is scored by the rounds already finished (rules/skyjo.md:
# "Round totals accumulate"): those totals are public and final; the round in play, whose hidden
# cards nobody knows, counts nothing (docs/tournaments.md, "The round clock").
PARTIAL_SCORE = True
# Actions whose options a player cannot tell apart (the opening reveals: every hidden card is alike),
# so choosing among them is no decision a review judges.
ALIKE_ACTIONS = frozenset({"reveal"})
# Events whose data everyone may see (move logs show it). Never "setup" (the seed), "dealt" (the
# grids and the draw order), "drew" (the drawer's card) or "reshuffled" (the new draw order).
PUBLIC_EVENTS = frozenset(
    {
        "revealed",
        "round_started",
        "took_discard",
        "placed",
        "discarded",
        "turned",
        "wiped",
        "closed",
        "next_turn",
        "final_reveal",
        "round_ended",
        "game_ended",
    }
)

__all__ = [
    "ALIKE_ACTIONS",
    "score_sheet",
    "NAME",
    "PARTIAL_SCORE",
    "PUBLIC_EVENTS",
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
