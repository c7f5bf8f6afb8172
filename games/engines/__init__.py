"""The four rule engines behind one contract; ``get(name)`` returns the module.

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

from games.engines.base import Config, Engine, IllegalAction, _

__all__ = ["Engine", "IllegalAction", "compose", "get", "names", "register"]

_ENGINES: dict[str, str] = {
    "skyjo": "games.engines.skyjo",
    "dominoes": "games.engines.dominoes",
    "kazino": "games.engines.kazino",
    "pitch": "games.engines.pitch",
}


_EXTRA: dict[str, str] = {}


def names() -> list[str]:
    """The product's four games (engines registered for tests are not listed)."""
    return list(_ENGINES)


def register(name: str, module: str) -> None:
    """Make an extra engine module available to ``get`` (tests use a tiny one)."""
    _EXTRA[name] = module


def get(name: str) -> Engine:
    """The engine module called ``name``; IllegalAction if there is none."""
    module = _ENGINES.get(name) or _EXTRA.get(name) if isinstance(name, str) else None
    if module is None:
        raise IllegalAction("unknown_game", _("There is no game called {name}."), name=str(name)[:40])
    return cast(Engine, importlib.import_module(module))


#: The config key of a stacked deal (the cards in order), which no player may choose.
STACKED_DEAL = "deck"


def compose(engine: Engine | str, chosen: Mapping[str, Any] | None, players: int) -> Config:
    """The config of a table of ``players`` with the options ``chosen``: the one way to make one.

    Every option left out takes the rules' default *for the options chosen*, because the engine
    fills it in while it validates: All Fives plays to 250 with two players and 200 with three or
    four. Starting from ``default_config(players)`` and overriding some options would carry the
    defaults of other options along (Block's target of 100 into an All Fives game), so no caller
    does that. IllegalAction when the options are not a table the engine can play.
    """
    module = get(engine) if isinstance(engine, str) else engine
    if chosen is not None and not isinstance(chosen, Mapping):
        raise IllegalAction("bad_config", _("The game settings must be a set of named options."))
    if chosen and STACKED_DEAL in chosen:
        # The engines take a stacked deal for lessons and the rules' pictures, which make their
        # configs themselves; a table anyone asks for is always shuffled (a rated game would be rigged).
        raise IllegalAction("unknown_option", _("There is no option called {name}."), name=STACKED_DEAL)
    return module.validate_config({**(chosen or {}), "players": players})
