"""Computer players by engine and level: ``get(engine_name, level)``.

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.bots.base import Bot, RandomBot

LEVELS = ("random", "greedy", "strong", "expert")

__all__ = ["LEVELS", "Bot", "RandomBot", "get", "review_bot", "review_settings"]


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


def _module(engine_name: str) -> Any:
    try:
        return importlib.import_module(f"games.bots.{engine_name}")
    except ModuleNotFoundError:
        return None


def review_settings(engine_name: str) -> dict[str, float] | None:
    """The review's default settings for ``engine_name`` (its bot module's ``REVIEW``); None when
    its games cannot be reviewed (no bot module defines a referee for it)."""
    module = _module(engine_name)
    found = getattr(module, "REVIEW", None) if callable(getattr(module, "review_bot", None)) else None
    return dict(found) if found is not None else None


def review_bot(
    engine_name: str, samples: int, win: float, *, settle: bool, level: str = "strong"
) -> tuple[Any, float]:
    """The engine's bot of ``level`` (``strong`` or ``expert``) as the review's referee, bounded by
    ``samples`` alone, and its unit in points (``review_bot`` in ``games.bots.<engine_name>``, or in
    ``games.bots.<engine_name>_expert``)."""
    module = _module(engine_name) if level == "strong" else _module(f"{engine_name}_expert")
    if not callable(getattr(module, "review_bot", None)):
        raise ValueError(f"no {level} reviewer for {engine_name!r}: choose another REVIEW_LEVEL")
    found: tuple[Any, float] = module.review_bot(samples, win, settle=settle)
    return found
