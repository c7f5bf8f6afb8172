"""Skyjo, the twelve-card grid game, exactly as ``shared/rules/skyjo.md`` says.

The engine contract (DESIGN.md) as module-level functions. The rules as
implemented, every action, event and view as JSON: ``docs/games/skyjo.md``.

- ``state.py``: cards, grid geometry, the ``State`` and the event fold ``apply``;
- ``rules.py``: configs, the deal, who acts, legal actions and ``decide``;
- ``views.py``: ``view``, ``reveal``, ``outcome``, ``determinize``.
"""

from __future__ import annotations

from games.engines.skyjo.rules import (
    decide,
    default_config,
    legal_actions,
    sample_configs,
    start,
    to_act,
    validate_config,
)
from games.engines.skyjo.state import State, apply, replay
from games.engines.skyjo.views import components, determinize, hidden_from, outcome, reveal, view

NAME = "skyjo"
VERSION = 1

__all__ = [
    "NAME",
    "VERSION",
    "State",
    "apply",
    "components",
    "decide",
    "default_config",
    "determinize",
    "hidden_from",
    "legal_actions",
    "outcome",
    "replay",
    "reveal",
    "sample_configs",
    "start",
    "to_act",
    "validate_config",
    "view",
]
