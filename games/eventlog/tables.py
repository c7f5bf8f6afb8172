"""The read side of a table: its log folded into a ``Table``, and the last fold of each recent game kept
in this process.

Everything that looks at a table's state imports this module: the service (which decides and appends),
publishing, the computer seats' scheduling, sockets, the API and replays. It imports nothing of theirs
(ARCHITECTURE.md "One move").

A load reads the game row and the events stored since the kept fold in one query, checks that the
last event folded is still stored with the same hash, and applies the new ones; a table event (undo,
restart…) or any doubt folds the whole log again. The service hands the table it built for a command
back to ``keep`` once the command is stored, so the next command in this process reads only what
others appended since.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, models

from games import engines
from games.access import seats
from games.engines.base import Engine, _
from games.errors import NotFound
from games.eventlog import resigned, store, timeline
from games.eventlog.timeline import Timeline
from games.models import Event, Game, Seat


@dataclass
class Table:
    """A game as the service sees it: the log folded through table events and the engine.

    ``levels``: each seat's computer level ("" for a person), when known (``computer_levels``).
    ``commands``: where each command id's events start in ``events``, when worked out (``stored``).
    """

    game: Game
    engine: Engine
    events: list[Event]
    timeline: timeline.Timeline
    state: Any
    levels: tuple[str, ...] | None = field(default=None, repr=False)
    commands: dict[str, int] | None = field(default=None, repr=False)

    @property
    def seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    @property
    def head_hash(self) -> str | None:
        return self.events[-1].hash if self.events else None

    def to_act(self) -> list[int]:
        return self.engine.to_act(self.state)

    def outcome(self) -> dict[str, Any] | None:
        if self.timeline.resigned is not None:  # the game ended before its end: games/commands/resignation.py
            return resigned.outcome(self.engine, self.game.config, self.timeline.resigned)
        return self.engine.outcome(self.state)

    def over(self) -> bool:
        """Played to its end, or stopped before it (a forfeit, a no-show): no move is left to make."""
        return self.timeline.abandoned or self.outcome() is not None

    def computer_levels(self) -> tuple[str, ...]:
        """Each seat's computer level, "" for a person: read once per game and process (a seat's
        level never changes; ``invalidate`` forgets it when a seat does)."""
        if self.levels is None:
            self.levels = _levels(self.game.pk)
            _keep_levels(self.game.pk, self.levels)
        return self.levels

    def computer_seats(self) -> set[int]:
        return {n for n, level in enumerate(self.computer_levels()) if level}

    def stored(self, command_id: str) -> list[Event]:
        """The events a command id appended (a command's events are contiguous), none if it is new:
        an index kept with the fold, so a retry check does not read the whole log each time."""
        if self.commands is None:
            self.commands = _index({}, self.events, 0)
        first = self.commands.get(command_id)
        if first is None:
            return []
        end = first
        while end < len(self.events) and self.events[end].command_id == command_id:
            end += 1
        return self.events[first:end]

    def with_events(self, new: list[Event], folded: Timeline, state: Any) -> Table:
        """This table followed by the stored events ``new``, as ``folded`` and ``state`` say."""
        commands = None if self.commands is None else _index(dict(self.commands), new, len(self.events))
        return Table(self.game, self.engine, [*self.events, *new], folded, state, self.levels, commands)


def _index(commands: dict[str, int], events: Sequence[Event], offset: int) -> dict[str, int]:
    for n, event in enumerate(events):
        commands.setdefault(event.command_id, offset + n)
    return commands


def rows(events: Sequence[Event]) -> list[timeline.Row]:
    return [timeline.Row(e.seq, e.type, e.data, e.actor, e.command_id) for e in events]


def get_game(game_id: Any) -> Game:
    """A table's game row; NotFound for anything else (a tournament's log is no table)."""
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        raise NotFound("unknown_game", _("There is no such game."))
    try:
        # Another part's event stream (a tournament's log) is no table: nothing here can fold it.
        return Game.objects.tables().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("unknown_game", _("There is no such game.")) from None


def get_seen_game(game_id: Any, requester: seats.Requester) -> Game:
    """``get_game`` for a reader: a table they may not see
    (``games.access.seats.may_see``: a secret deal's) is NotFound word for word as an id no table has."""
    game = get_game(game_id)
    if not seats.may_see(requester, game):
        raise NotFound("unknown_game", _("There is no such game."))
    return game


# --- Kept folds ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Fold:
    """A folded log kept between loads: never changed once kept (engine states are immutable)."""

    version: int
    events: list[Event]
    timeline: timeline.Timeline
    state: Any
    levels: tuple[str, ...] | None = None
    commands: dict[str, int] | None = None


_folds: OrderedDict[int, _Fold] = OrderedDict()
_folds_lock = threading.Lock()
# A process that serves more live tables than it keeps folds of folds each table's whole log again at
# every move (a worker's pool process sees every table): FOLDS_KEPT in the environment (infra/settings.py).
FOLDS_KEPT = settings.FOLDS_KEPT


def invalidate(game_id: int) -> None:
    """Forget what this process keeps of a game (its fold and its seats' levels): call it when a seat
    changes (an invite claimed, a seat's token rotated), so that nothing here outlives the change."""
    with _folds_lock:
        _folds.pop(game_id, None)


def forget_all() -> None:
    """Forget every kept fold (a benchmark's cold process; tests)."""
    with _folds_lock:
        _folds.clear()


def keep(table: Table) -> None:
    """Keep ``table`` as its game's last fold (the service, once a command it built it for is stored)."""
    _keep(
        table.game.pk,
        _Fold(table.engine.VERSION, table.events, table.timeline, table.state, table.levels, table.commands),
    )


def _keep(game_id: int, fold: _Fold) -> None:
    if FOLDS_KEPT <= 0:
        return
    with _folds_lock:
        current = _folds.get(game_id)
        if (
            current is None
            or not current.events
            or (fold.events and fold.events[-1].seq >= current.events[-1].seq)
        ):
            if fold.levels is None and current is not None:
                fold = _Fold(
                    fold.version, fold.events, fold.timeline, fold.state, current.levels, fold.commands
                )
            _folds[game_id] = fold
        _folds.move_to_end(game_id)
        while len(_folds) > FOLDS_KEPT:
            _folds.popitem(last=False)


def _keep_levels(game_id: int, levels: tuple[str, ...]) -> None:
    with _folds_lock:
        current = _folds.get(game_id)
        if current is not None and current.levels is None:
            _folds[game_id] = _Fold(
                current.version, current.events, current.timeline, current.state, levels, current.commands
            )


def _levels(game_id: int) -> tuple[str, ...]:
    return tuple(Seat.objects.filter(game_id=game_id).order_by("number").values_list("bot_level", flat=True))


# --- Loading ---------------------------------------------------------------------------------------


def load_table(game: Game | int, upto: int | None = None) -> Table:
    """Fold a game's log (up to ``upto`` when given) into its current table.

    With an id, the game row comes with the events in one query: those after the kept fold (the last
    one folded included, to check its hash), or the whole log.
    """
    return _load(game, upto)


def _load(game: Game | int, upto: int | None = None) -> Table:
    if upto is not None:
        if not isinstance(game, Game):
            game = get_game(game)
        engine = engines.get(game.engine)
        events = store.load(game.pk, upto)
        folded = timeline.fold(rows(events))
        return Table(game, engine, events, folded, engine.replay(folded.engine_events()))
    game_id = game.pk if isinstance(game, Game) else game
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        raise NotFound("unknown_game", _("There is no such game."))
    with _folds_lock:
        cached = _folds.get(game_id)
    last = cached.events[-1] if cached is not None and cached.events else None
    row, events = _read(game_id, last.seq if last is not None else 1, with_game=not isinstance(game, Game))
    if isinstance(game, Game):
        row = game
    elif row is None or row.kind == Game.Kind.LOG:
        if row is None and last is not None:
            invalidate(game_id)  # the event folded is gone (a test database flushed): start again
            return _load(game_id)
        row = get_game(game_id)  # NotFound, or a game with no event yet
    engine = engines.get(row.engine)
    if cached is not None and last is not None:
        if cached.version == engine.VERSION:
            table = _extend(row, engine, cached, events)
            if table is not None:
                return table
        events = store.load(game_id)
    folded = timeline.fold(rows(events))
    table = Table(row, engine, events, folded, engine.replay(folded.engine_events()))
    keep(table)
    return table


def _extend(game: Game, engine: Engine, cached: _Fold, read: list[Event]) -> Table | None:
    last = cached.events[-1]
    if not read or read[0].seq != last.seq or read[0].hash != last.hash:
        return None  # the log is not the one folded (a test database flushed, say)
    new = read[1:]
    if not new:
        return Table(
            game, engine, list(cached.events), cached.timeline, cached.state, cached.levels, cached.commands
        )
    table = extended(
        Table(game, engine, cached.events, cached.timeline, cached.state, cached.levels, cached.commands), new
    )
    if table is None:
        return None
    keep(table)
    return table


def extended(table: Table, new: list[Event]) -> Table | None:
    """``table`` followed by the stored events ``new``, folded in memory; None when one of them is a
    table event (which changes what counts: fold the whole log again, ``refolded``)."""
    folded = timeline.extend(table.timeline, rows(new))
    if folded is None:
        return None
    state = table.state
    for event in new:
        if timeline.is_engine_event(event.type):
            state = table.engine.apply(state, {"type": event.type, **event.data})
    return table.with_events(new, folded, state)


def refolded(table: Table, new: list[Event]) -> Table:
    """``table`` followed by ``new``, whatever they are: extended, or the whole log folded again in
    memory (no query)."""
    quick = extended(table, new)
    if quick is not None:
        return quick
    folded = timeline.fold(rows([*table.events, *new]))
    return table.with_events(new, folded, table.engine.replay(folded.engine_events()))


def folded_upto(table: Table, upto: int) -> Table:
    """The table as it was at ``upto``, folded in memory from the events ``table`` holds."""
    events = [e for e in table.events if e.seq <= upto]
    folded = timeline.fold(rows(events))
    return Table(
        table.game, table.engine, events, folded, table.engine.replay(folded.engine_events()), table.levels
    )


# --- What spectators see -----------------------------------------------------------------------------


def command_ends(events: Sequence[Event]) -> list[int]:
    """The seq that ends each command, in order."""
    ends: list[int] = []
    for index, event in enumerate(events):
        if index + 1 == len(events) or events[index + 1].command_id != event.command_id:
            ends.append(event.seq)
    return ends


def moves_back(events: Sequence[Event], delay: int, upto: int | None = None) -> int:
    """The seq spectators may see: the end of the last command at least ``delay`` moves old (the first
    command's end when there are not so many), among ``events[:upto]``. Read from the end: it costs
    what the last few commands hold, not the whole log."""
    index = (len(events) if upto is None else upto) - 1
    if index < 0:
        return 0
    for _step in range(max(0, delay)):
        start = index
        while start > 0 and events[start - 1].command_id == events[index].command_id:
            start -= 1
        if start == 0:
            break  # the first command: spectators see at least its end
        index = start - 1
    return events[index].seq


def previous_end(events: Sequence[Event]) -> int:
    """The seq that ends the command before the last one (0 when there is only one)."""
    index = len(events) - 1
    last = events[index].command_id if events else None
    while index >= 0 and events[index].command_id == last:
        index -= 1
    return events[index].seq if index >= 0 else 0


def spectator_cut(table: Table) -> int:
    """The seq spectators may see of this table now.

    A table whose cards other tables are still playing (a duplicate round) shows spectators only
    its opening: what they saw played here would tell them the hands over there. (Asking costs a
    query only for a game of a deal group.)

    A move delay hides the last moves while someone could still be helped by what a spectator
    relays to a player; once the game is over there is no one left to help, and no later move would
    ever release the last ones: spectators then see it all, its end and outcome included, at once
    (docs/live-tables.md).
    """
    if table.game.deal_is_secret():
        ends = command_ends(table.events)
        return ends[0] if ends else 0
    if table.game.spectator_delay and table.over():
        return table.seq
    return moves_back(table.events, table.game.spectator_delay)


# --- One query: the game row and its new events -------------------------------------------------------


@dataclass(frozen=True)
class _Columns:
    """A model's columns in a SELECT, and how their values are turned into Python values (the
    converters Django's compiler would apply), worked out once per database vendor."""

    model: type[models.Model]
    names: list[str]
    converters: list[tuple[int, list[Callable[..., Any]], Any]]

    @classmethod
    def of(cls, model: type[models.Model], alias: str, skip: tuple[str, ...] = ()) -> _Columns:
        fields = [f for f in model._meta.concrete_fields if f.attname not in skip]
        names = [f"{alias}.{connection.ops.quote_name(str(f.column))}" for f in fields]
        converters = []
        for index, f in enumerate(fields):
            col = f.get_col(alias)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if found:
                converters.append((index, found, col))
        return cls(model, names, converters)

    def values(self, row: Sequence[Any]) -> list[Any]:
        values = list(row)
        for index, found, col in self.converters:
            value = values[index]
            for converter in found:
                value = converter(value, col, connection)
            values[index] = value
        return values


@dataclass(frozen=True)
class _Reader:
    sql: str
    game: _Columns
    event: _Columns


_readers: dict[str, _Reader] = {}
_GAME_FIELDS = [f.attname for f in Game._meta.concrete_fields]
_EVENT_FIELDS = [f.attname for f in Event._meta.concrete_fields]


def _reader(with_game: bool) -> _Reader:
    key = f"{connection.vendor}:{with_game}"
    reader = _readers.get(key)
    if reader is None:
        game = _Columns.of(Game, "g")
        event = _Columns.of(Event, "e", skip=("game_id",))
        selected = [*game.names, *event.names] if with_game else event.names
        joined = " INNER JOIN games_game g ON g.id = e.game_id" if with_game else ""
        sql = (
            f"SELECT {', '.join(selected)} FROM games_event e{joined}"
            " WHERE e.game_id = %s AND e.seq >= %s ORDER BY e.seq"
        )
        reader = _readers[key] = _Reader(sql, game if with_game else _Columns(Game, [], []), event)
    return reader


def _read(game_id: int, from_seq: int, with_game: bool) -> tuple[Game | None, list[Event]]:
    """The game row (``with_game``) and its events from ``from_seq`` on, in one query; (None, []) when
    there is no such event."""
    reader = _reader(with_game)
    with connection.cursor() as cursor:
        cursor.execute(reader.sql, [game_id, from_seq])
        found = cursor.fetchall()
    if not found:
        return None, []
    width = len(reader.game.names)
    game = (
        Game.from_db(connection.alias, _GAME_FIELDS, reader.game.values(found[0][:width]))
        if with_game
        else None
    )
    alias = connection.alias
    events = []
    for row in found:
        values = reader.event.values(row[width:])
        # The concrete fields' order: id, game_id, seq, type, data, …
        events.append(Event.from_db(alias, _EVENT_FIELDS, [values[0], game_id, *values[1:]]))
    return game, events
