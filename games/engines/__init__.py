"""The four rule engines behind one contract; ``get(name)`` returns the module.

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import importlib
from typing import cast

from games.engines.base import Engine, IllegalAction, _

__all__ = ["Engine", "IllegalAction", "get", "names", "register"]

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
