"""A computer stands in for a person who left a game that others play on (a tournament's absentee at
a table of three or more, #30): the seat keeps its person (who is still named and scored there) and
gains a computer level, so the computer plays its turns from then on.

Levels are kept per process with a game's fold (``tables.computer_levels``): this process forgets
them here, and a process that still holds the old ones reads them again when it is asked to play a
seat it thought a person's (``autoplay.choose``); the turn watchdog schedules the rest.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction

from games.computers import worker
from games.eventlog import tables
from games.models import Game, Seat


def hand_to_computer(game_id: int, seat: int, level: str) -> None:
    """From now on a computer of ``level`` plays ``seat`` of game ``game_id`` (inside the caller's
    transaction; its turn is scheduled once it commits)."""
    Seat.objects.filter(game_id=game_id, number=seat).update(bot_level=level)
    tables.invalidate(game_id)
    transaction.on_commit(partial(_play_on, game_id))


def _play_on(game_id: int) -> None:
    tables.invalidate(game_id)
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is not None:
        worker.schedule_computer_turns(game)


def stood_in(seats: list[dict[str, object]]) -> bool:
    """Whether a computer stood in for a person at any of these seats (``queries.seating``'s)."""
    return any(s.get("user_id") and s.get("bot_level") for s in seats)
