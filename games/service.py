"""The command service: the one way anything changes a game (ARCHITECTURE.md "The command pipeline").

A command runs one way, once:

    load  ▶ the game row and the events after this process's kept fold, one query (games.tables)
    check ▶ a retried command id is answered from the log in memory; a stale expected_seq is refused
    decide▶ the engine's events (or a table event), the fair-deal proof that goes with them
    append▶ one INSERT (and the game's status in the same statement or transaction when it changes)
    on commit ▶ the table built in memory is kept as the next fold and handed to the after-commit hooks
                (games.hooks: publishing, the computer seats' next turn, metrics), then the
                ``game_finished`` signal; nothing loads it again.

Imports run one way: service ▶ tables ▶ store; publish and worker register hooks and read tables
through games.tables, never the other way round. What a game's log says (results, seating, hints) is
read through games.queries: nothing reads through this module.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from operator import attrgetter
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games import (
    bounds,
    commitment,
    computers,
    engines,
    hooks,
    invites,
    signals,
    store,
    tables,
    timeline,
)
from games.engines.base import IllegalAction, _
from games.errors import CommandReused, Conflict, Forbidden, ServiceError
from games.lessons import play as lessons
from games.models import NAME_LENGTH, DealGroup, Event, Game, Seat
from games.tables import Table, load_table

COMMAND_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,64}$")
# The ids the system gives its own commands (the opening deal, computer moves, demo deals, no-show
# forfeits). A client that used one first would make the system's command look like a retry of the
# client's, and a computer seat would never move: clients may not use them (check_client_command_id).
SYSTEM_COMMAND_ID = re.compile(r"^(opening|bot-|demo-|no-show-)")
MAX_ACTION_BYTES = 4096
log = logging.getLogger(__name__)


# --- Creating games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSpec:
    """Who sits where: a user, a computer level, or nobody yet (an open seat).

    A computer seat is called by its level and ``bot_number`` ("Computer 3 (Strong)",
    games/computers.py), its seat's number (from 1) unless given (a tournament's entrant keeps its
    own at every table); its ``display_name`` is kept for logs and exports only."""

    display_name: str
    user: Any = None
    bot_level: str = ""
    team: int | None = None
    awaiting_player: bool = False
    bot_number: int | None = None
    open_to_all: bool = False  # an open seat anyone may take from the lobby, not by invite only
    name_role: str = ""  # "guest" or "player": called by role and number in the reader's language

    @classmethod
    def computer(cls, number: int, level: str, team: int | None = None) -> SeatSpec:
        """Computer ``number`` of ``level``, named as every page names it (in English here)."""
        return cls(computers.stored_name(number, level), bot_level=level, team=team, bot_number=number)


def create_game(
    engine_name: str,
    config: dict[str, Any],
    seats: list[SeatSpec],
    *,
    seed: int | None = None,
    kind: str = Game.Kind.CASUAL,
    created_by: Any = None,
    spectator_delay: int = 0,
    is_demo: bool = False,
    deal: tuple[str, int] | None = None,
    absent_after: int | None = None,
    club_id: int | None = None,
) -> Game:
    """Validate the config, store the game, its seats and its opening events, in one transaction.

    ``club_id``: a club-only table, for that club's members (the caller checked that its maker is one).

    ``deal``: (group key, index) when other tables are dealt the same cards (a duplicate round):
    the game plays that deal of the group, secret until the group's owner releases it.
    """
    try:
        engine = engines.get(engine_name)
        config = engine.validate_config(config)
    except IllegalAction as exc:
        raise ServiceError.from_illegal(exc) from None
    if len(seats) != config["players"]:
        raise ServiceError(
            "wrong_seat_count",
            _("This table has {players} seats, but {given} players were given."),
            players=config["players"],
            given=len(seats),
        )
    seed = secrets.randbits(63) if seed is None else seed
    opening = commitment.with_commitment(engine, engine.start(config, seed))
    with transaction.atomic():
        group = DealGroup.objects.get_or_create(key=deal[0])[0] if deal is not None else None
        game = Game.objects.create(
            engine=engine.NAME,
            engine_version=engine.VERSION,
            config=config,
            kind=kind,
            created_by=created_by,
            spectator_delay=spectator_delay,
            # Callers read it through bounds.ABSENT_AFTER; None keeps the model's default.
            **({"absent_after": bounds.ABSENT_AFTER.parse(absent_after)} if absent_after is not None else {}),
            is_demo=is_demo,
            club_id=club_id,
            deal_group=group,
            deal_index=deal[1] if deal is not None else None,
        )
        rows = Seat.objects.bulk_create(
            Seat(
                game=game,
                number=n,
                user=spec.user,
                bot_level=spec.bot_level,
                # Callers check their names (a username always fits); a longer one is cut, not a
                # database error (PostgreSQL refuses a value past the column's length).
                display_name=spec.display_name[:NAME_LENGTH],
                bot_number=(spec.bot_number or n + 1) if spec.bot_level else None,
                team=spec.team,
                awaiting_player=spec.awaiting_player,
                open_to_all=spec.awaiting_player and spec.open_to_all,
                name_role=spec.name_role,
            )
            for n, spec in enumerate(seats)
        )
        for seat in rows:  # both databases return the new rows' keys
            if seat.awaiting_player:
                invites.create(seat)
        appended = store.append(game.pk, 0, opening, command_id="opening", actor="system")
        folded = timeline.fold(tables.rows(appended.events))
        levels = tuple(spec.bot_level for spec in seats)
        table = Table(
            game, engine, list(appended.events), folded, engine.replay(folded.engine_events()), levels
        )
        transaction.on_commit(partial(_after_commit, table, hooks.STORED, "system", appended.first_seq))
    return game


# --- Playing ---------------------------------------------------------------------------------------


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


def _check_command(command_id: Any, expected_seq: Any) -> None:
    if not isinstance(command_id, str) or not COMMAND_ID.match(command_id):
        raise ServiceError(
            "bad_command_id",
            _("Each action needs a command id of 1 to 64 letters, digits or the signs _ . : -"),
        )
    if not bounds.SEQ.accepts(expected_seq):
        raise ServiceError("bad_seq", _("Each action must say which move of the table it follows."))


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
        transaction.on_commit(partial(_after_commit, table, hooks.RETRIED, stored[0].actor, stored[0].seq))
    return Result(table.game.pk, stored[0].seq, stored[-1].seq, True)


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


def _same_table_command(kind: str, by: str) -> Same:
    def same(_table: Table, stored: list[Event]) -> bool:
        return stored[0].type == kind and stored[0].data.get("by") == by

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
    table = load_table(game_id)
    _check_command(command_id, expected_seq)
    _check_seat(table, seat)
    _check_action(action)
    actor = actor or f"seat:{seat}"
    decide = _player_move(seat, action)
    return _run(table, command_id, expected_seq, actor, decide, same=_same_action(seat, action, actor))


def _player_move(seat: int, action: dict[str, Any]) -> Decide:
    """What a player's ``action`` appends at the table the command loaded (submit and submit_now)."""

    def decide(table: Table) -> list[dict[str, Any]]:
        if table.game.status != Game.Status.ACTIVE:
            raise ServiceError("game_over", _("This game is over."))
        try:
            events = table.engine.decide(table.state, seat, action)
        except IllegalAction as exc:
            raise ServiceError.from_illegal(exc) from None
        lessons.check(table, seat, action)  # a lesson's step teaches one move (games/lessons)
        return events

    return decide


def submit_now(game_id: int, seat: Any, action: Any, command_id: Any, *, actor: str | None = None) -> Result:
    """Play ``action`` for ``seat`` on the table as it is when the command runs (a client that names
    no ``expected_seq``): legal for that seat now, or refused. A move another seat slips in between the
    load and the append makes the command load again and decide afresh, so a seat that may act at any
    moment (a count, an opening flip) is never refused as stale. A command id seen before returns the
    first result, as ``submit`` does."""
    table = load_table(game_id)
    _check_command(command_id, 0)
    _check_seat(table, seat)
    _check_action(action)
    actor = actor or f"seat:{seat}"
    same = _same_action(seat, action, actor)
    return _run(table, command_id, table.seq, actor, _player_move(seat, action), same=same, positional=False)


def play_turn(
    game_id: int,
    seat: int,
    command_id: str,
    expected_seq: int,
    choose: Callable[[Table], dict[str, Any]],
    *,
    actor: str,
) -> Result:
    """A move chosen on the table as this command loads it (a computer seat's: games.autoplay), so the
    choice and the move share one load. ``choose`` may raise to play nothing. The command id is the
    system's own (deterministic): a redelivered turn finds its move stored and appends nothing."""
    table = load_table(game_id)
    _check_seat(table, seat)

    def decide(table: Table) -> list[dict[str, Any]]:
        action = choose(table)
        _check_action(action)
        try:
            return table.engine.decide(table.state, seat, action)
        except IllegalAction as exc:
            raise ServiceError.from_illegal(exc) from None

    return _run(table, command_id, expected_seq, actor, decide)


def _run(
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
            table = load_table(table.game.pk)
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
    transaction.on_commit(partial(_after_commit, new, hooks.STORED, actor, appended.first_seq))
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
    return Game.Status.ACTIVE  # a demo table deals again at once (see _after_commit)


def _status_update(game: Game, status: str, finished_at: datetime | None, now: datetime) -> store.Then:
    """The UPDATE of the game row that goes with the command's INSERT (store.append's ``then``)."""
    sql = "UPDATE games_game SET status = %s, finished_at = %s, updated_at = %s WHERE id = %s"
    adapt = connection.ops.adapt_datetimefield_value
    return store.Then(sql, [status, adapt(finished_at), adapt(now), game.pk])


# --- Table commands: undo, redo, restart, new game, pause, resume ----------------------------------
#
# Who may use them depends on the table's kind, fixed when it was made (docs/security.md):
# casual tables allow everything and are never rated; rated and tournament tables count, so no move
# is taken back or replayed, and no player stops the computer players (a player who could pause a
# rated table would stall a lost game; a seat that pauses a tournament table stalls its round). A
# tournament table is paused by its organiser only, through tournaments.service.


def _no_takebacks(game: Game) -> None:
    """Undo, redo and restart: casual tables only."""
    if game.kind == Game.Kind.TOURNAMENT:
        raise Forbidden("not_in_tournament", _("Tournament games cannot be undone or restarted."))
    if game.kind == Game.Kind.LESSON:
        # A lesson's steps follow the moves made, which only ever grow (games/lessons/play.py).
        raise Forbidden("not_in_lesson", _("A lesson cannot be undone or restarted: start it again instead."))
    if game.kind != Game.Kind.CASUAL:
        raise Forbidden("not_in_rated", _("Rated games cannot be undone or restarted."))


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


def _table_command(
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
    table = table if table is not None else load_table(game_id)
    _check_command(command_id, expected_seq)
    if allowed is not None:
        allowed(table.game)
    return _run(table, command_id, expected_seq, by, build, same=same, positional=positional)


@dataclass(frozen=True)
class _Marker:
    """A table command's event: undo, redo, restart, new game, pause, resume."""

    allowed: Callable[[str], Callable[[Game], None]]  # by whom (given), at tables of which kinds
    needs: Callable[[Table], bool] = lambda table: True  # what the table must be now, else refusal
    refusal: tuple[str, str] = ("", "")
    positional: bool = True  # refers to the table as the client saw it (see _table_command)


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

    same = _same_table_command(kind, by)
    allowed = marker.allowed(by)
    return _table_command(
        game_id,
        command_id,
        expected_seq,
        "system",
        build,
        allowed=allowed,
        positional=marker.positional,
        same=same,
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

    return system_command(game_id, command_id, build)


def system_command(game_id: int, command_id: Any, build: Decide, *, same: Same | None = None) -> Result:
    """A command the system gives on the table as it is now (abandon, resign): not positional, so
    retried if a move slips in between the load and the append."""
    table = load_table(game_id)
    return _table_command(
        game_id, command_id, table.seq, "system", build, positional=False, same=same, table=table
    )


def resume(game_id: int, command_id: Any, expected_seq: Any, *, by: str) -> Result:
    return _table_event(timeline.RESUME, game_id, command_id, expected_seq, by)


# --- After commit ----------------------------------------------------------------------------------


def _after_commit(table: Table, kind: str, actor: str, first_seq: int) -> None:
    """Once the command is durable: keep its table as the game's fold, run the after-commit hooks with
    it (publishing, the computer seats' next turn, metrics), tell the other parts a game ended."""
    tables.keep(table)
    hooks.run(hooks.Change(table, kind, actor, first_seq))
    outcome = table.outcome()
    if outcome is None:
        return
    if not table.game.is_demo:
        _announce_finished(table.game.pk, outcome, table.timeline.game_number)
    else:
        # If someone else moved the table on first, there is nothing to do.
        with contextlib.suppress(ServiceError):
            new_game(table.game.pk, f"demo-next-{table.seq}", table.seq, by="system")


def _announce_finished(game_id: int, outcome: dict[str, Any], number: int) -> None:
    """Tell the other parts (tournaments, ratings); a failing receiver must not stop the table."""
    for _receiver, result in signals.game_finished.send_robust(
        sender=Game, game_id=game_id, outcome=outcome, number=number
    ):
        if isinstance(result, Exception):
            log.error("a receiver of game_finished failed for game %s: %r", game_id, result)


@transaction.atomic  # the caller's transaction when there is one (a tournament command), else its own
def release_deals(key: str, open_below: int | None) -> list[int]:
    """Release the deals of a group below ``open_below`` (all of them when None): the finished games
    that were secret and are open now, in the order they finished.

    Releases only widen: a deal once shown cannot be hidden again, so a smaller number changes
    nothing. Runs in the caller's transaction; the released tables are published after commit.
    """
    group = DealGroup.objects.select_for_update().filter(key=key).first()
    if group is None:
        return []
    before_closed, before_below = group.closed, group.open_below
    if open_below is None:
        group.closed = True
    else:
        group.open_below = max(group.open_below, open_below)
    if (group.closed, group.open_below) == (before_closed, before_below):
        return []
    group.save(update_fields=["closed", "open_below"])
    released = [
        g
        for g in group.games.exclude(status=Game.Status.ACTIVE).order_by("finished_at", "pk")
        if not (before_closed or (g.deal_index or 0) < before_below) and group.released(g.deal_index or 0)
    ]
    for game in released:
        transaction.on_commit(partial(_publish_released, game.pk))
    return [g.pk for g in released]


def _publish_released(game_id: int) -> None:
    """A released game's spectators, who saw only its opening, get the whole of it."""
    hooks.run(hooks.Change(load_table(game_id), hooks.RELEASED))
