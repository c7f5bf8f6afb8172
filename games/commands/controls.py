"""The table's controls: undo, redo, restart, new game, pause, resume, and the system's abandon.

Each appends one table event (games/eventlog/timeline.py folds them) through ``runner``: one
shape, ``_table_event``, told apart by a marker (who may, what the table must be now, whether the
client's seq matters).

Who may use them depends on the table's kind, fixed when it was made (docs/security.md): casual tables
allow everything and are never rated; rated and tournament tables count, so no move is taken back or
replayed, and no player stops the computer players (a player who could pause a rated table would stall
a lost game; a seat that pauses a tournament table stalls its round). A tournament table is paused by
its organiser only, through tournaments.service.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from games import hooks
from games.commands import runner
from games.commands.runner import Result
from games.engines.base import _
from games.errors import Forbidden, ServiceError, casual_only
from games.eventlog import commitment, store, timeline
from games.eventlog.tables import Table
from games.models import Game


def _no_takebacks(game: Game) -> None:
    """Undo, redo and restart: casual tables only."""
    casual_only(
        game,
        tournament=("not_in_tournament", _("Tournament games cannot be undone or restarted.")),
        # A lesson's steps follow the moves made, which only ever grow (games/lessons/play.py).
        lesson=("not_in_lesson", _("A lesson cannot be undone or restarted: start it again instead.")),
        rated=("not_in_rated", _("Rated games cannot be undone or restarted.")),
    )


def _new_game_allowed(game: Game) -> None:
    """A new game: any time at a casual table; at a rated one once the game is over (see new_game);
    never at a tournament's (its games are the tournament's to start)."""
    if game.kind == Game.Kind.TOURNAMENT:
        raise Forbidden("not_in_tournament", _("Tournament games cannot be undone or restarted."))


def _pause_allowed(by: str) -> Callable[[Game], None]:
    """Pause and resume: a player at a casual table; at a tournament table its organiser (any ``by``
    that is not a seat: tournaments.service checks who the organiser is); at a rated table nobody."""

    def check(game: Game) -> None:
        if game.kind == Game.Kind.CASUAL:
            return
        if game.kind == Game.Kind.TOURNAMENT:
            if by.startswith("seat:"):
                raise Forbidden(
                    "organiser_only", _("Only the organiser can pause or resume a tournament table.")
                )
            return
        if game.kind == Game.Kind.LESSON:
            raise Forbidden("not_in_lesson", _("A lesson cannot be paused."))
        raise Forbidden("not_in_rated", _("Rated games cannot be paused."))

    return check


@dataclass(frozen=True)
class _Marker:
    """A table command's event: undo, redo, restart, new game, pause, resume."""

    allowed: Callable[[str], Callable[[Game], None]]  # by whom (given), at tables of which kinds
    needs: Callable[[Table], bool] = lambda table: True  # what the table must be now, else refusal
    refusal: tuple[str, str] = ("", "")
    positional: bool = True  # refers to the table as the client saw it (see runner.table_command)


_MARKERS = {
    timeline.UNDO: _Marker(
        lambda by: _no_takebacks,
        attrgetter("timeline.can_undo"),
        ("nothing_to_undo", _("There is no move to take back.")),
    ),
    timeline.REDO: _Marker(
        lambda by: _no_takebacks,
        attrgetter("timeline.can_redo"),
        ("nothing_to_redo", _("There is no move to play again.")),
    ),
    timeline.RESTART: _Marker(lambda by: _no_takebacks),
    timeline.NEW_GAME: _Marker(
        lambda by: _new_game_allowed,
        lambda table: (
            table.game.kind not in (Game.Kind.RATED, Game.Kind.LESSON) or table.outcome() is not None
        ),
        ("game_not_over", _("A rated game is played to its end before the next one starts.")),
    ),
    # Pause and resume do not depend on the position: they apply to the table as it is.
    timeline.PAUSE: _Marker(
        _pause_allowed,
        lambda table: not table.timeline.paused,
        ("already_paused", _("The computer players are already paused.")),
        positional=False,
    ),
    timeline.RESUME: _Marker(
        _pause_allowed,
        attrgetter("timeline.paused"),
        ("not_paused", _("The computer players are not paused.")),
        positional=False,
    ),
}


def _table_event(
    kind: str,
    game_id: int,
    command_id: Any,
    expected_seq: Any,
    by: str,
    then: Callable[[Table], list[dict[str, Any]]] = lambda table: [],
) -> Result:
    """The one shape of the table commands: a ``kind`` event by ``by`` (and the events ``then``
    gives: a deal), refused unless the table is as its marker ``needs``."""
    marker = _MARKERS[kind]

    def build(table: Table) -> list[dict[str, Any]]:
        if not marker.needs(table):
            raise ServiceError(*marker.refusal)
        return [{"type": kind, "by": by}, *then(table)]

    return runner.table_command(
        game_id,
        command_id,
        expected_seq,
        "system",
        build,
        allowed=marker.allowed(by),
        positional=marker.positional,
        same=runner.same_table_command(kind, by),
    )


def undo(game_id: int, command_id: Any, expected_seq: Any, *, by: str) -> Result:
    """Take back the last human action and every computer reply after it."""
    return _table_event(timeline.UNDO, game_id, command_id, expected_seq, by)


def redo(game_id: int, command_id: Any, expected_seq: Any, *, by: str) -> Result:
    return _table_event(timeline.REDO, game_id, command_id, expected_seq, by)


def restart(game_id: int, command_id: Any, expected_seq: Any, *, by: str) -> Result:
    """Start the game again with the same deal (now known to the players: casual tables only)."""

    def opening(table: Table) -> list[dict[str, Any]]:
        return [store.as_engine_event(e) for e in table.events if e.command_id == "opening"]

    return _table_event(timeline.RESTART, game_id, command_id, expected_seq, by, then=opening)


def new_game(game_id: int, command_id: Any, expected_seq: Any, *, by: str) -> Result:
    """Start a new game at the same table, with a new deal.

    At a rated table only once the game is over: the next game is a fresh one, rated on its own
    (tournaments.ratings rates each game of a table), and a game cannot be left for a new one before
    it ends (that would throw away a loss).
    """

    def opening(table: Table) -> list[dict[str, Any]]:
        seed = secrets.randbits(63)
        return commitment.with_commitment(table.engine, table.engine.start(next_game_config(table), seed))

    return _table_event(timeline.NEW_GAME, game_id, command_id, expected_seq, by, then=opening)


def next_game_config(table: Table) -> dict[str, Any]:
    """The config of the table's next game: engines that alternate something between games (Kazino's
    dealer) say how with ``rematch_config(config)``; others play the same config again."""
    rematch = getattr(table.engine, "rematch_config", None)
    config = table.game.config
    if rematch is not None:
        for _ in range(table.timeline.game_number):
            config = rematch(config)
    return config


def pause(game_id: int, command_id: Any, expected_seq: Any, *, by: str) -> Result:
    """Stop the computer players (someone is reading the rules or the score sheet; an organiser is
    holding a tournament table)."""
    return _table_event(timeline.PAUSE, game_id, command_id, expected_seq, by)


def abandon(game_id: int, command_id: Any, *, reason: str, by: str) -> Result:
    """Stop a game for good (a no-show forfeit): no move is taken after it; the log stays."""

    def build(table: Table) -> list[dict[str, Any]]:
        if table.game.status != Game.Status.ACTIVE:
            raise ServiceError("game_over", _("This game is over."))
        return [{"type": timeline.ABANDON, "reason": reason, "by": by}]

    return runner.system_command(game_id, command_id, build)


def resume(game_id: int, command_id: Any, expected_seq: Any, *, by: str) -> Result:
    return _table_event(timeline.RESUME, game_id, command_id, expected_seq, by)


def deal_again(change: hooks.Change) -> None:
    """A demo table deals its next game as soon as one ends (its status stays active: runner._status),
    so the lobby always has one being played."""
    table = change.table
    if change.kind == hooks.RELEASED or not table.game.is_demo or table.outcome() is None:
        return
    # If someone else moved the table on first, there is nothing to do.
    with contextlib.suppress(ServiceError):
        new_game(table.game.pk, f"demo-next-{table.seq}", table.seq, by="system")
