"""Moves: a player's action at its seat (``submit``, ``submit_now``) and a computer seat's
(``play_turn``), each checked, decided by the engine and run through ``runner``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from games.commands import runner
from games.commands.runner import Decide, Result, Same
from games.engines.base import IllegalAction, _
from games.errors import Forbidden, ServiceError
from games.eventlog import store, tables, timeline
from games.eventlog.tables import Table
from games.lessons import play as lessons
from games.models import Event, Game

MAX_ACTION_BYTES = 4096


def _check_action(action: Any) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("bad_action", _("An action must be an object with a type."))
    if len(repr(action)) > MAX_ACTION_BYTES:
        raise ServiceError("bad_action", _("This action is too large."))
    if action["type"].startswith(timeline.TABLE_PREFIX):
        raise ServiceError("unknown_action", _("This is not a move of the game."))


def _check_seat(table: Table, seat: Any) -> None:
    players = table.game.config["players"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise Forbidden("not_your_seat", _("There is no such seat at this table."))


def _same_action(seat: int, action: dict[str, Any], actor: str) -> Same:
    """Whether stored events are what this seat's action made: the same actor, and the engine's
    events for this action in the position before them (engines decide without chance or clock)."""

    def same(table: Table, stored: list[Event]) -> bool:
        if stored[0].actor != actor:
            return False
        before = tables.folded_upto(table, stored[0].seq - 1)
        try:
            events = before.engine.decide(before.state, seat, action)
        except IllegalAction:
            return False
        # Stored data went through JSON: compare in that form.
        made = json.loads(json.dumps(events))
        return made == [store.as_engine_event(e) for e in stored[: len(made)]]

    return same


def submit(
    game_id: int,
    seat: Any,
    action: Any,
    command_id: Any,
    expected_seq: Any,
    *,
    actor: str | None = None,
) -> Result:
    """Play ``action`` for ``seat``. Raises ServiceError (a code and a sentence) and appends nothing
    when the input is bad, the move illegal or ``expected_seq`` stale; a command_id seen before
    returns the first result and appends nothing."""
    return _play(game_id, seat, action, command_id, expected_seq, actor, positional=True)


def submit_now(game_id: int, seat: Any, action: Any, command_id: Any, *, actor: str | None = None) -> Result:
    """Play ``action`` for ``seat`` on the table as it is when the command runs (a client that names
    no ``expected_seq``): legal for that seat now, or refused. A move another seat slips in between the
    load and the append makes the command load again and decide afresh, so a seat that may act at any
    moment (a count, an opening flip) is never refused as stale. A command id seen before returns the
    first result, as ``submit`` does."""
    return _play(game_id, seat, action, command_id, 0, actor, positional=False)


def _play(
    game_id: int,
    seat: Any,
    action: Any,
    command_id: Any,
    expected_seq: Any,
    actor: str | None,
    *,
    positional: bool,
) -> Result:
    table = tables.load_table(game_id)
    runner.check_command(command_id, expected_seq)
    _check_seat(table, seat)
    _check_action(action)
    actor = actor or f"seat:{seat}"
    same = _same_action(seat, action, actor)
    seq = expected_seq if positional else table.seq
    return runner.run(
        table, command_id, seq, actor, _player_move(seat, action), same=same, positional=positional
    )


def _player_move(seat: int, action: dict[str, Any]) -> Decide:
    """What a player's ``action`` appends at the table the command loaded (submit and submit_now)."""

    def decide(table: Table) -> list[dict[str, Any]]:
        if table.game.status != Game.Status.ACTIVE:
            raise ServiceError("game_over", _("This game is over."))
        events = _decide(table, seat, action)
        lessons.check(table, seat, action)  # a lesson's step teaches one move (games/lessons)
        return events

    return decide


def _decide(table: Table, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        return table.engine.decide(table.state, seat, action)
    except IllegalAction as exc:
        raise ServiceError.from_illegal(exc) from None


def play_turn(
    game_id: int,
    seat: int,
    command_id: str,
    expected_seq: int,
    choose: Callable[[Table], dict[str, Any]],
    *,
    actor: str,
) -> Result:
    """A move chosen on the table as this command loads it (a computer seat's: games.computers.autoplay), so
    the choice and the move share one load. ``choose`` may raise to play nothing. The command id is the
    system's own (deterministic): a redelivered turn finds its move stored and appends nothing."""
    table = tables.load_table(game_id)
    _check_seat(table, seat)

    def decide(table: Table) -> list[dict[str, Any]]:
        action = choose(table)
        _check_action(action)
        return _decide(table, seat, action)

    return runner.run(table, command_id, expected_seq, actor, decide)
