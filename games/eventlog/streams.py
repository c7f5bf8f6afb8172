"""Event streams that are not tables: other parts keep their own logs in the same store through here.

A tournament's log is one such stream: a ``Game`` row of kind ``log`` (no seats, no engine
replay) whose events get the same guarantees as a table's (gapless ``seq``, hash chain,
append-only, idempotent ``command_id``, optimistic concurrency). Other apps never touch the
event table; they call these functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engines.base import _
from games.errors import NotFound, ServiceError
from games.eventlog import store
from games.models import Game

#: A fold that raises on an event it cannot take, registered per stream name (for verify_events).
Fold = Callable[[list[dict[str, Any]]], object]
_FOLDS: dict[str, Fold] = {}


@dataclass(frozen=True)
class StreamEvent:
    seq: int
    type: str
    data: dict[str, Any]
    actor: str
    command_id: str
    created_at: datetime
    hash: str

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}


def register_fold(name: str, fold: Fold) -> None:
    _FOLDS[name] = fold


def fold_for(name: str) -> Fold | None:
    return _FOLDS.get(name)


def open_stream(name: str, *, created_by: Any = None) -> int:
    """A new, empty stream called ``name`` (what kind of log it is); its id."""
    return Game.objects.create(
        engine=name, engine_version=1, config={}, kind=Game.Kind.LOG, created_by=created_by
    ).pk


def ids(name: str) -> list[int]:
    """Every stream called ``name``, oldest first."""
    return list(
        Game.objects.filter(kind=Game.Kind.LOG, engine=name).order_by("pk").values_list("pk", flat=True)
    )


def _stream(stream_id: int) -> Game:
    try:
        return Game.objects.get(pk=stream_id, kind=Game.Kind.LOG)
    except Game.DoesNotExist:
        raise NotFound("unknown_stream", _("There is no such event stream.")) from None


def read(stream_id: int) -> list[StreamEvent]:
    _stream(stream_id)
    return [
        StreamEvent(e.seq, e.type, e.data, e.actor, e.command_id, e.created_at, e.hash)
        for e in store.load(stream_id)
    ]


def append(
    stream_id: int,
    expected_seq: int,
    events: Sequence[dict[str, Any]],
    *,
    command_id: str,
    actor: str,
) -> store.Appended:
    """Append one command's events after ``expected_seq`` (Conflict if the stream moved on)."""
    if not events or any(not isinstance(e.get("type"), str) for e in events):
        raise ServiceError("bad_events", _("Every event needs a type."))
    return store.append(stream_id, expected_seq, events, command_id=command_id, actor=actor)


def close(stream_id: int) -> None:
    """Mark a stream finished (its log stays as it is)."""
    with transaction.atomic():
        Game.objects.filter(pk=stream_id, kind=Game.Kind.LOG).update(
            status=Game.Status.FINISHED, finished_at=timezone.now()
        )
