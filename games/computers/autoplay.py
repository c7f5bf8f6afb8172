"""A computer seat's turn: the bot chooses from the seat's view on the table the command loads, and the
move is appended through the service in the same pipeline (one load, one INSERT)."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

from games import bots
from games.commands import moves
from games.errors import ServiceError
from games.eventlog import tables
from games.eventlog.tables import Table
from games.lessons import play as lessons

log = logging.getLogger(__name__)


def bot_command_id(seq: int, seat: int) -> str:
    """Deterministic, so a redelivered task finds its move already stored."""
    return f"bot-{seq}-{seat}"


class _Skip(Exception):
    """Nothing to play (the reason is the task's answer)."""


def choose(table: Table, seq: int, seat: int) -> dict[str, Any]:
    """The computer's move for ``seat`` from that seat's view only; _Skip when it has none to make."""
    if table.timeline.paused or table.over() or seat not in table.to_act():
        raise _Skip("idle")
    levels = table.computer_levels()
    if seat >= len(levels) or not levels[seat]:
        # A seat handed to a computer since this process read the levels (games/computers/standin.py).
        table.levels = None
        tables.invalidate(table.game.pk)
        levels = table.computer_levels()
    if seat >= len(levels) or not levels[seat]:
        raise _Skip("not a bot")
    if (part := lessons.scripted(table, seat)) is not None:
        return part  # a lesson's computer plays its part of the script
    bot = bots.get(table.game.engine, levels[seat])
    view = table.engine.view(table.state, seat)
    legal = table.engine.legal_actions(table.state, seat)
    # Seeded by what the seat sees, not by the game's id: the same deal played the same way gets the
    # same moves again (simulate_tournament --seed), whatever table it was dealt at.
    seen = json.dumps(view, sort_keys=True, separators=(",", ":"))
    action: dict[str, Any] = bot.choose(view, legal, random.Random(f"{seq}:{seat}:{seen}"))
    return action


def play_bot_turn(game_id: int, seq: int, seat: int) -> str:
    """Play one move for a computer seat if the table is still where the task was scheduled."""
    try:
        result = moves.play_turn(
            game_id,
            seat,
            bot_command_id(seq, seat),
            seq,
            lambda table: choose(table, seq, seat),
            actor=f"bot:{seat}",
        )
    except _Skip as skip:
        return str(skip)
    except ServiceError as exc:
        if exc.code == "unknown_game":
            return "gone"
        if exc.code == "stale_seq":
            return "stale"
        if exc.code == "not_your_seat":
            return "not a bot"
        log.error("bot at game %s seat %s chose a refused move: %s", game_id, seat, exc.code)
        raise
    # A redelivered turn whose move is stored: nothing appended (the move is published again, and the
    # next computer turn scheduled again, if it is still the table's last: games.commands.runner._existing).
    return "stale" if result.duplicate else "played"
