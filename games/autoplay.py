"""A computer seat's turn: load the table, let the bot choose from the seat's view, submit."""

from __future__ import annotations

import json
import logging
import random

from games import bots, service
from games.errors import ServiceError

log = logging.getLogger(__name__)


def bot_command_id(seq: int, seat: int) -> str:
    """Deterministic, so a redelivered task finds its move already stored."""
    return f"bot-{seq}-{seat}"


def play_bot_turn(game_id: int, seq: int, seat: int) -> str:
    """Play one move for a computer seat if the table is still where the task was scheduled."""
    try:
        table = service.load_table(game_id)
    except ServiceError:
        return "gone"
    if table.seq != seq:
        return "stale"
    if (
        table.timeline.paused
        or table.timeline.abandoned
        or table.outcome() is not None
        or seat not in table.to_act()
    ):
        return "idle"
    seat_row = table.game.seats.filter(number=seat).first()
    if seat_row is None or not seat_row.is_bot:
        return "not a bot"
    bot = bots.get(table.game.engine, seat_row.bot_level)
    view = table.engine.view(table.state, seat)
    legal = table.engine.legal_actions(table.state, seat)
    # Seeded by what the seat sees, not by the game's id: the same deal played the same way gets the
    # same moves again (simulate_tournament --seed), whatever table it was dealt at.
    seen = json.dumps(view, sort_keys=True, separators=(",", ":"))
    action = bot.choose(view, legal, random.Random(f"{seq}:{seat}:{seen}"))
    try:
        service.submit(game_id, seat, action, bot_command_id(seq, seat), seq, actor=f"bot:{seat}")
    except ServiceError as exc:
        if exc.code == "stale_seq":
            return "stale"
        log.error("bot at game %s seat %s chose a refused move: %s", game_id, seat, exc.code)
        raise
    return "played"
