"""A lesson table in play: which scripted move each seat is at, and the check of the learner's move.

The service asks ``check`` before it decides a move at a lesson table; the computer's turn asks
``scripted`` (games.computers.autoplay). A seat's place in the script is the number of moves it has made:
lesson tables have no undo, so the log only grows.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import _
from games.errors import ServiceError
from games.eventlog.tables import Table
from games.lessons import LEARNER, Lesson, of_engine, same_action
from games.models import Game


def lesson_of(table: Table) -> Lesson | None:
    if table.game.kind != Game.Kind.LESSON:
        return None
    return of_engine(table.game.engine)


def made(table: Table, seat: int) -> int:
    """How many moves ``seat`` has made at this table (commands, not the events they appended)."""
    actors = (f"seat:{seat}", f"bot:{seat}")
    return sum(1 for e in table.events if e.actor in actors and e.cmd_index == 0)


def scripted(table: Table, seat: int) -> dict[str, Any] | None:
    """The seat's next scripted move; None at an ordinary table or past the end of the script."""
    lesson = lesson_of(table)
    if lesson is None:
        return None
    moves = lesson.moves(seat)
    n = made(table, seat)
    if n >= len(moves):
        return None
    # The script holds on the lesson's deal; on any other (a new game once this one is over) the
    # game is an ordinary one.
    legal = table.engine.legal_actions(table.state, seat)
    return moves[n] if any(same_action(moves[n], action) for action in legal) else None


def check(table: Table, seat: int, action: dict[str, Any]) -> None:
    """Refuse a legal move that is not the one the step teaches, with the step's explanation (nothing
    is stored: the learner tries again). The engine has already refused an illegal one."""
    expected = scripted(table, seat)
    if expected is None or same_action(action, expected):
        return
    lesson = lesson_of(table)
    step = lesson.learn_step(made(table, seat)) if lesson is not None and seat == LEARNER else None
    if step is None:
        raise ServiceError("lesson_move", _("In this lesson the computer plays its own moves."))
    raise ServiceError("lesson_move", step.wrong)
