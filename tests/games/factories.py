"""Tables for the store and service tests, on the tiny engine."""

from __future__ import annotations

from typing import Any

from games.commands import moves, runner
from games.commands.create import SeatSpec, create_game
from games.models import Game


def tiny_game(players: int = 2, bots: dict[int, str] | None = None, **kwargs: Any) -> Game:
    bots = bots or {}
    seats = [SeatSpec(display_name=f"P{n}", bot_level=bots.get(n, "")) for n in range(players)]
    return create_game("tiny", {"players": players, "goal": kwargs.pop("goal", 10)}, seats, **kwargs)


def play(game: Game, seat: int, n: int, command_id: str, expected_seq: int, **kwargs: Any) -> runner.Result:
    return moves.submit(game.pk, seat, {"type": "add", "n": n}, command_id, expected_seq, **kwargs)
