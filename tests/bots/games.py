"""Bots playing positions out for the bot tests, through the engine contract only."""

from __future__ import annotations

import random
import time
from typing import Any, NamedTuple


class Played(NamedTuple):
    state: Any
    moves: int
    slowest: float  # the longest choice, in seconds


def play_out(
    engine: Any,
    state: Any,
    players: list[Any],
    rng: random.Random,
    *,
    any_seat: bool = False,
    max_moves: int | None = None,
) -> Played:
    """Seat i's moves chosen by ``players[i]`` until the game ends (or ``max_moves``): the first seat to
    act moves, or with ``any_seat`` one drawn from ``rng`` among those that may. Every choice must be
    one of the legal actions."""
    moves, slowest = 0, 0.0
    while (seats := engine.to_act(state)) and (max_moves is None or moves < max_moves):
        seat = rng.choice(seats) if any_seat else seats[0]
        legal = engine.legal_actions(state, seat)
        started = time.perf_counter()
        action = players[seat].choose(engine.view(state, seat), legal, rng)
        slowest = max(slowest, time.perf_counter() - started)
        assert action in legal, f"seat {seat} ({type(players[seat]).__name__}) chose {action!r}, not legal"
        state = after(engine, state, seat, action)
        moves += 1
    return Played(state, moves, slowest)


def after(engine: Any, state: Any, seat: int, action: Any) -> Any:
    """The state once ``seat``'s ``action`` is decided and its events applied."""
    for event in engine.decide(state, seat, action):
        state = engine.apply(state, event)
    return state
