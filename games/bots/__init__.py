"""Computer players by engine and level: ``get(engine_name, level)``.

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.bots.base import Bot, RandomBot

LEVELS = ("random", "greedy", "strong", "expert")

__all__ = ["LEVELS", "Bot", "RandomBot", "get"]


def get(engine_name: str, level: str) -> Bot:
    """The bot of ``level`` for ``engine_name``.

    ``random`` fits every engine; ``greedy`` and ``strong`` come from the
    engine's own module ``games.bots.<engine_name>``, which defines
    ``GreedyBot`` and ``StrongBot``; ``expert`` from ``games.bots.<engine_name>_expert``
    (``ExpertBot``, on the shared search of ``games.bots.search``).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if level == "random":
        return RandomBot()
    suffix = "_expert" if level == "expert" else ""
    try:
        module: Any = importlib.import_module(f"games.bots.{engine_name}{suffix}")
    except ModuleNotFoundError as exc:
        raise ValueError(f"no {level} bot for {engine_name!r}") from exc
    cls = getattr(module, {"greedy": "GreedyBot", "strong": "StrongBot", "expert": "ExpertBot"}[level])
    bot: Bot = cls()
    return bot
