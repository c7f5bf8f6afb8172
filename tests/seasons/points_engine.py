"""The tiny test engine with a points ranking (a game's winner scores 10, the other 3), so that the
platform's side of the ranking (which games count) is tested without a whole Kazino game."""

from __future__ import annotations

from typing import Any

from tests.games.tiny_engine import *  # noqa: F403

NAME = "tinypoints"


def points_ranking(outcome: dict[str, Any]) -> list[list[int]]:
    return [[10 if place == 1 else 3 for place in outcome["places"]]]
