"""The append-only event store: append with optimistic concurrency, idempotent commands, hash chain.

Nothing here knows any game's rules; games.commands turns actions into events and calls ``append``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.errors import Conflict
from games.models import Event

GENESIS = "0" * 64
SCHEMA_VERSION = 1


def canonical(event: dict[str, Any]) -> bytes:
    """The bytes an event's hash covers: sorted keys, no spaces, UTF-8."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_hash(
    previous: str, seq: int, type: str, data: Any, actor: str, command_id: str, schema: int
) -> str:
    body = {
        "seq": seq,
        "type": type,
        "data": data,
        "actor": actor,
        "command_id": command_id,
        "schema_version": schema,
    }
    return hashlib.sha256(previous.encode() + b"\n" + canonical(body)).hexdigest()


def event_hash(previous: str, event: Event) -> str:
    return chain_hash(
        previous, event.seq, event.type, event.data, event.actor, event.command_id, event.schema_version
    )


@dataclass(frozen=True)
class Appended:
    """What an append stored: the events of one command. ``duplicate`` when a retry found them."""

    events: list[Event]
    duplicate: bool = False

    @property
    def first_seq(self) -> int:
        return self.events[0].seq

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq


class Then(NamedTuple):
    """One UPDATE to write with an append, all or nothing (the service's status of a game that ends)."""

    sql: str
    params: list[Any]


def head(game_id: int) -> tuple[int, str]:
    """The last ``seq`` of a game and its hash; (0, GENESIS) for a game with no event."""
    row = Event.objects.filter(game_id=game_id).order_by("-seq").values_list("seq", "hash").first()
    return row if row else (0, GENESIS)


def command_events(game_id: int, command_id: str) -> list[Event]:
    return list(Event.objects.filter(game_id=game_id, command_id=command_id).order_by("seq"))


def append(
    game_id: int,
    expected_seq: int,
    events: Sequence[dict[str, Any]],
    *,
    command_id: str,
    actor: str,
    head_hash: str | None = None,
    created_at: datetime | None = None,
    then: Then | None = None,
) -> Appended:
    """Append the events of one command after ``expected_seq``, all or nothing.

    A command_id already stored for this game appends nothing and returns what was stored the
    first time. A game whose last seq is not ``expected_seq`` raises Conflict.

    ``head_hash`` is the hash of event ``expected_seq`` when the caller has just read it (the service
    has): the append then skips reading the head, and the unique (game, seq) constraint and the
    gapless trigger refuse a stale or future ``expected_seq`` inside the INSERT itself.

    ``created_at``: when the command was made, for an imported game (the hash does not cover it).

    ``then``: an UPDATE written with the events, all or nothing: on PostgreSQL in the INSERT's own
    statement (a data-modifying WITH, atomic without a transaction), elsewhere in a transaction.
    """
    if not events:
        raise ValueError("a command appends at least one event")
    try:
        if head_hash is None or expected_seq == 0:
            last_seq, last_hash = head(game_id)
            if last_seq != expected_seq:
                raise Conflict(expected_seq, last_seq)
        else:
            last_seq, last_hash = expected_seq, head_hash
        rows = []
        previous = last_hash
        now = created_at or timezone.now()
        for index, event in enumerate(events):
            data = {k: v for k, v in event.items() if k != "type"}
            row = Event(
                game_id=game_id,
                seq=last_seq + 1 + index,
                type=event["type"],
                data=data,
                actor=actor,
                command_id=command_id,
                cmd_index=index,
                schema_version=SCHEMA_VERSION,
                created_at=now,
            )
            row.hash = previous = event_hash(previous, row)
            rows.append(row)
        # One INSERT of all the command's rows is atomic by itself: no transaction round trips. Inside
        # a caller's transaction, a savepoint keeps a refused insert from spoiling it.
        together = then is not None and connection.vendor != "postgresql"
        if connection.in_atomic_block or together:
            with transaction.atomic():
                _insert(rows, then)
        else:
            _insert(rows, then)
        return Appended(rows)
    except (Conflict, IntegrityError):
        # Lost a race, or a retry: the first answer stands if this command is already stored.
        stored = command_events(game_id, command_id)
        if stored:
            return Appended(stored, duplicate=True)
        raise Conflict(expected_seq, head(game_id)[0]) from None


_COLUMNS = (
    "game_id",
    "seq",
    "type",
    "data",
    "actor",
    "command_id",
    "cmd_index",
    "created_at",
    "schema_version",
    "hash",
)


def _insert(rows: list[Event], then: Then | None = None) -> None:
    """One INSERT … RETURNING id for the rows of a command (and ``then``'s UPDATE: see ``append``).

    The hot path of every move: plain SQL through Django's connection costs about half the CPU of
    ``bulk_create`` (measured by tests/bench/bench_store.py), which matters with many writers.
    """
    placeholders = ", ".join(["(" + ", ".join(["%s"] * len(_COLUMNS)) + ")"] * len(rows))
    params: list[Any] = []
    data_field = Event._meta.get_field("data")
    for row in rows:
        params += [
            row.game_id,
            row.seq,
            row.type,
            data_field.get_db_prep_value(row.data, connection),
            row.actor,
            row.command_id,
            row.cmd_index,
            connection.ops.adapt_datetimefield_value(row.created_at),
            row.schema_version,
            row.hash,
        ]
    sql = f"INSERT INTO games_event ({', '.join(_COLUMNS)}) VALUES {placeholders} RETURNING id, seq"
    if then is not None and connection.vendor == "postgresql":
        sql = f"WITH ins AS ({sql}), upd AS ({then.sql}) SELECT id, seq FROM ins"
        params += then.params
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = {seq: pk for pk, seq in cursor.fetchall()}
        if then is not None and connection.vendor != "postgresql":
            cursor.execute(then.sql, then.params)
    for row in rows:
        row.id = ids[row.seq]
        row._state.adding = False
        row._state.db = connection.alias


def load(game_id: int, upto: int | None = None) -> list[Event]:
    events = Event.objects.filter(game_id=game_id)
    if upto is not None:
        events = events.filter(seq__lte=upto)
    return list(events.order_by("seq"))


def load_from(game_id: int, seq: int) -> list[Event]:
    """A game's events from ``seq`` on (that one included)."""
    return list(Event.objects.filter(game_id=game_id, seq__gte=seq).order_by("seq"))


def as_engine_event(event: Event) -> dict[str, Any]:
    return {"type": event.type, **event.data}


# --- Verification -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainError:
    game_id: int
    seq: int
    reason: str

    def __str__(self) -> str:
        return f"game {self.game_id} event {self.seq}: {self.reason}"


def verify_chain(game_id: int, events: Sequence[Event]) -> ChainError | None:
    """The first event whose seq or hash is wrong, or None when the chain holds."""
    previous = GENESIS
    for expected, event in enumerate(events, start=1):
        if event.seq != expected:
            return ChainError(game_id, event.seq, f"seq {event.seq} where {expected} was expected")
        if event_hash(previous, event) != event.hash:
            return ChainError(game_id, event.seq, "hash does not match its content and the previous hash")
        previous = event.hash
    return None


# --- Subscribers: every event once, in a commit-safe order --------------------------------------------

Position = tuple[int, int]
START: Position = (0, 0)


def read_all(after: Position = START, limit: int = 1000) -> list[tuple[Position, Event]]:
    """Events committed after ``after``, in an order no late commit can cut into.

    PostgreSQL: only rows written by transactions older than every running one (the snapshot's xmin)
    are read, ordered by (txid, id), so a slow transaction's rows are never skipped. SQLite writes
    one transaction at a time, so ids are already in commit order.
    """
    if connection.vendor == "postgresql":
        sql = (
            "SELECT txid::text::bigint, id FROM games_event"
            " WHERE (txid, id) > (%s::text::xid8, %s)"
            " AND txid < pg_snapshot_xmin(pg_current_snapshot())"
            " ORDER BY txid, id LIMIT %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [str(after[0]), after[1], limit])
            keys = cursor.fetchall()
        by_id = Event.objects.in_bulk([k[1] for k in keys])
        return [((txid, pk), by_id[pk]) for txid, pk in keys]
    events = Event.objects.filter(id__gt=after[1]).order_by("id")[:limit]
    return [((0, e.id), e) for e in events]


# --- The bypass of the append-only triggers (test flush only) -----------------------------------------

_bypass = threading.local()


def _sqlite_allow_rewrite() -> int:
    return 1 if getattr(_bypass, "on", False) else 0


def register_sqlite_function(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite":
        connection.connection.create_function(
            "tablehall_allow_event_rewrite", 0, _sqlite_allow_rewrite, deterministic=False
        )


@contextmanager
def allow_rewrite(conn: Any = None) -> Iterator[None]:
    """Let this connection delete events: only for emptying the test database between tests."""
    conn = conn or connection
    _bypass.on = True
    try:
        if conn.vendor == "postgresql":
            with conn.cursor() as cursor:
                cursor.execute("SET tablehall.allow_event_rewrite = 'on'")
        yield
    finally:
        _bypass.on = False
        if conn.vendor == "postgresql" and conn.connection is not None:
            with conn.cursor() as cursor:
                cursor.execute("RESET tablehall.allow_event_rewrite")
