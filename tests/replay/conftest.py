"""Fixtures the replay tests share."""

from __future__ import annotations

import pytest

from games.models import Game

from .play import new_game, play


@pytest.fixture
def finished_kazino() -> Game:
    """A two-player single-game Kazino table played to its end by computers."""
    game = new_game("kazino", 2, options={"match": "single"})
    play(game)
    return game
