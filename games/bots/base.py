"""The bot interface and the random level, which fits every engine.

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from games.engines.base import Action, View


class Bot(Protocol):
    """A computer player: sees one seat's view and its legal actions, nothing else."""

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return rng.choice(legal_actions)


def describe(bot: Any) -> str:
    return type(bot).__name__
