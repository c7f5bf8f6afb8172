"""The pipeline every command of a game runs through, once (ARCHITECTURE.md "One move").

    load  ▶ the game row and the events after this process's kept fold, one query (games.eventlog.tables)
    check ▶ a retried command id is answered from the log in memory; a stale expected_seq is refused
    decide▶ the engine's events (or a table event), the fair-deal proof that goes with them
    append▶ one INSERT (and the game's status in the same statement or transaction when it changes)
    on commit ▶ the table built in memory is kept as the next fold and handed to the after-commit hooks
                (games.hooks: publishing, the computer seats' next turn, metrics, a demo's next deal),
                then the ``game_finished`` signal; nothing loads it again.

The commands themselves decide (``moves``, ``controls``, ``resignation``, ``create``); this module
runs what they decide. Imports run one way: commands ▶ tables ▶ store; publish and worker register
hooks and read tables through games.eventlog.tables, never the other way round.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games import bounds, hooks, signals
from games.engines.base import _
from games.errors import CommandReused, Conflict, ServiceError
from games.eventlog import commitment, store, tables, timeline
from games.eventlog.tables import Table
from games.models import Event, Game

COMMAND_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,64}$")
# The ids the system gives its own commands (the opening deal, computer moves, demo deals, no-show
# forfeits). A client that used one first would make the system's command look like a retry of the
# client's, and a computer seat would never move: clients may not use them (check_client_command_id).
SYSTEM_COMMAND_ID = re.compile(r"^(opening|bot-|demo-|no-show-)")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Result:
    """What a command did: the seq range it appended (or had appended, for a retried command)."""

    game_id: int
    first_seq: int
    last_seq: int
    duplicate: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "first_seq": self.first_seq,
            "seq": self.last_seq,
            "duplicate": self.duplicate,
        }


def check_command(command_id: Any, expected_seq: Any) -> None:
    # fullmatch: "$" alone also matches before a final newline, so "ok\n" passed as an id.
    if not isinstance(command_id, str) or not COMMAND_ID.fullmatch(command_id):
        raise ServiceError(
            "bad_command_id",
            _("Each action needs a command id of 1 to 64 letters, digits or the signs _ . : -"),
        )
    if not bounds.SEQ.accepts(expected_seq):
        raise ServiceError("bad_seq", _("Each action must say which move of the table it follows."))


def check_client_command_id(command_id: Any) -> None:
    """Refuse a client's command id that the system keeps for its own commands (SYSTEM_COMMAND_ID)."""
    if isinstance(command_id, str) and SYSTEM_COMMAND_ID.match(command_id):
        raise ServiceError(
            "bad_command_id", _("This command id belongs to the table itself: choose another.")
        )


Same = Callable[[Table, list[Event]], bool]
Decide = Callable[[Table], list[dict[str, Any]]]


def _existing(table: Table, command_id: str, same: Same | None = None) -> Result | None:
    """The first answer to a command id already stored: a retry appends nothing.

    Read from the table as loaded (its events are the whole log up to now). ``same`` tells whether
    the stored command is this one. Another command under a used id is refused (``command_reused``):
    acknowledging it would tell the client a move was stored that never was.
    """
    stored = table.stored(command_id)
    if not stored:
        return None
    if same is not None and not same(table, stored):
        raise CommandReused()
    if stored[-1].seq == table.seq:
        # The log's last command, sent again: its first attempt may have lost its connection after the
        # commit, before publishing and waking the computer seats. Do that again: clients ignore an
        # update they have, a turn is played once, a result is recorded once.
        transaction.on_commit(partial(after_commit, table, hooks.RETRIED, stored[0].actor, stored[0].seq))
    return Result(table.game.pk, stored[0].seq, stored[-1].seq, True)


def same_table_command(kind: str, by: str) -> Same:
    """Whether stored events are this table command: a ``kind`` event given by ``by``."""

    def same(_table: Table, stored: list[Event]) -> bool:
        return stored[0].type == kind and stored[0].data.get("by") == by

    return same


def run(
    table: Table,
    command_id: str,
    expected_seq: int,
    actor: str,
    decide: Decide,
    *,
    same: Same | None = None,
    positional: bool = True,
) -> Result:
    """The pipeline from a loaded table: retry check, position check, decide, append.

    ``positional`` commands refer to the table as the client saw it, so a stale ``expected_seq``
    refuses them; the others (pause, resume, abandon) apply to the table as it is, loading it again
    if a move slips in between the load and the append (each load reads only what is new)."""
    for attempt in range(3):
        if attempt:
            table = tables.load_table(table.game.pk)
        if (done := _existing(table, command_id, same)) is not None:
            return done
        if positional and expected_seq > table.seq:
            # Not a table that moved on: a seq this table never had (a client's mistake, not a race).
            raise ServiceError(
                "bad_seq",
                _("This table has no event {expected} yet (it is at {actual}): send the seq you saw."),
                expected=expected_seq,
                actual=table.seq,
            )
        if positional and table.seq != expected_seq:
            raise Conflict(expected_seq, table.seq)
        events = decide(table)
        try:
            return _append(table, events, command_id, actor)
        except Conflict:
            if positional or attempt == 2:
                raise
    raise AssertionError("unreachable")


def _append(table: Table, events: list[dict[str, Any]], command_id: str, actor: str) -> Result:
    """Append a command's events to the table it was decided on, and build the table after it in memory.

    The append is one INSERT (atomic by itself). The game's status is a projection of the log: when the
    command changes it (a game's last move, an undo of it, an abandon), the store writes both in one
    statement or transaction, so that a connection lost between them cannot leave a finished game marked
    as running. Side effects wait for the commit (at once, unless the caller holds a transaction).
    """
    game, engine = table.game, table.engine
    after = _state_after(table, events)
    # In the same command, so in the same INSERT: a commitment to the next hands, or the game's reveal.
    events = [*events, *commitment.follow_up(engine, table.events, table.timeline, events, after)]
    pending = [
        timeline.Row(
            table.seq + 1 + n, e["type"], {k: v for k, v in e.items() if k != "type"}, actor, command_id
        )
        for n, e in enumerate(events)
    ]
    folded = timeline.extend(table.timeline, pending)
    if folded is None or after is None:
        # A table event changes which events count: fold the log again, in memory, with the new rows.
        folded = timeline.fold([*tables.rows(table.events), *pending])
        after = engine.replay(folded.engine_events())
    status = _status(game, engine, after, folded)
    now = timezone.now()
    finished_at = now if status != Game.Status.ACTIVE else None
    then = _status_update(game, status, finished_at, now) if status != game.status else None
    appended = store.append(
        game.pk, table.seq, events, command_id=command_id, actor=actor, head_hash=table.head_hash, then=then
    )
    if appended.duplicate:  # the same command, stored by a retry that got there first
        return Result(game.pk, appended.first_seq, appended.last_seq, True)
    if then is not None:
        game.status, game.finished_at, game.updated_at = status, finished_at, now
    new = table.with_events(appended.events, folded, after)
    transaction.on_commit(partial(after_commit, new, hooks.STORED, actor, appended.first_seq))
    return Result(game.pk, appended.first_seq, appended.last_seq, False)


def _state_after(table: Table, events: list[dict[str, Any]]) -> Any | None:
    """The engine state after a command's events; None for a table command (it changes which events
    count: only a fold of the log can tell)."""
    if any(e["type"] in timeline.TABLE_EVENTS for e in events):
        return None
    state = table.state
    for event in events:
        state = table.engine.apply(state, event)
    return state


def _status(game: Game, engine: Any, state: Any, folded: timeline.Timeline) -> str:
    """The game's status after a command, from the fold: finished, abandoned, or still being played."""
    if folded.abandoned:
        return Game.Status.ABORTED
    if folded.resigned is not None:
        return Game.Status.FINISHED
    if engine.outcome(state) is not None and not game.is_demo:
        return Game.Status.FINISHED
    return Game.Status.ACTIVE  # a demo table deals again at once (games.commands.controls)


def _status_update(game: Game, status: str, finished_at: datetime | None, now: datetime) -> store.Then:
    """The UPDATE of the game row that goes with the command's INSERT (store.append's ``then``)."""
    sql = "UPDATE games_game SET status = %s, finished_at = %s, updated_at = %s WHERE id = %s"
    adapt = connection.ops.adapt_datetimefield_value
    return store.Then(sql, [status, adapt(finished_at), adapt(now), game.pk])


def table_command(
    game_id: int,
    command_id: Any,
    expected_seq: Any,
    by: str,
    build: Decide,
    *,
    allowed: Callable[[Game], None] | None = None,
    positional: bool = True,
    same: Same | None = None,
    table: Table | None = None,
) -> Result:
    """Append a table event. ``allowed`` refuses the command at tables of the wrong kind (before the
    log is looked at: the kind never changes). ``positional`` commands (undo, restart…) refer to the
    table as the client saw it, so a stale ``expected_seq`` refuses them; pause and resume do not depend
    on the position and apply to the table as it is, retrying if a computer move slips in first."""
    table = table if table is not None else tables.load_table(game_id)
    check_command(command_id, expected_seq)
    if allowed is not None:
        allowed(table.game)
    return run(table, command_id, expected_seq, by, build, same=same, positional=positional)


def system_command(game_id: int, command_id: Any, build: Decide, *, same: Same | None = None) -> Result:
    """A command the system gives on the table as it is now (abandon, resign): not positional, so
    retried if a move slips in between the load and the append."""
    table = tables.load_table(game_id)
    return table_command(
        game_id, command_id, table.seq, "system", build, positional=False, same=same, table=table
    )


def after_commit(table: Table, kind: str, actor: str, first_seq: int) -> None:
    """Once the command is durable: keep its table as the game's fold, run the after-commit hooks with
    it (publishing, the computer seats' next turn, metrics, a demo's next deal), tell the other parts a
    game ended."""
    tables.keep(table)
    hooks.run(hooks.Change(table, kind, actor, first_seq))
    outcome = table.outcome()
    if outcome is None:
        return
    if not table.game.is_demo:  # a demo table deals its next game instead (games.commands.controls)
        _announce_finished(table.game.pk, outcome, table.timeline.game_number)


def _announce_finished(game_id: int, outcome: dict[str, Any], number: int) -> None:
    """Tell the other parts (tournaments, ratings); a failing receiver must not stop the table."""
    for _receiver, result in signals.game_finished.send_robust(
        sender=Game, game_id=game_id, outcome=outcome, number=number
    ):
        if isinstance(result, Exception):
            log.error("a receiver of game_finished failed for game %s: %r", game_id, result)
