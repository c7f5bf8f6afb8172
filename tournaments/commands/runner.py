"""The one way a tournament changes: fold its stream, decide, append, rewrite its rows — in one transaction.

A command loads the stream, folds it (``log.fold``), checks the action, appends its events with
the stream's seq as the expected one (a lost race is decided again on the new state), and
rewrites the projection rows in the same transaction. What follows an append once it is durable
(the pages' nudge, ratings of released deals, a command's own ``after``) runs on commit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from games.errors import Conflict, ServiceError
from games.eventlog import queries, streams
from tournaments import deals, log, projection, publish, ratings, undo
from tournaments.models import Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Build = Callable[[log.Tournament], list[dict[str, Any]]]
#: Called inside the transaction with the state after the append and its events (to register what
#: is to happen on commit).
After = Callable[[int, int, log.Tournament, list[dict[str, Any]]], None]
RETRIES = 50


class _Rollback(Exception):
    """Undo a transaction whose append turned out to be a duplicate (its games must go too)."""


def run(
    stream_id: int, command_id: str, actor: str, build: Build, after: After | None = None
) -> log.Tournament:
    for _attempt in range(RETRIES):
        try:
            with transaction.atomic():
                t = projection.load(stream_id)
                events = build(t)
                if not events:
                    return t
                held_before = (t.seq, deals.withheld(t)) if t.options.get("duplicate") else None
                appended = streams.append(stream_id, t.seq, events, command_id=command_id, actor=actor)
                if appended.duplicate:
                    raise _Rollback
                if any(e["type"] == undo.UNDONE for e in events):
                    t = projection.load(stream_id)  # an undo takes events back: only a whole fold can
                else:
                    for event in events:
                        log.apply(t, event)
                row = projection.write(stream_id, t)
                released = projection.release_deals(t)
                _on_commit(stream_id, row.pk, t, events, held_before)
                if after is not None:
                    after(stream_id, row.pk, t, events)
                if released:
                    transaction.on_commit(partial(_rate_released, released))
                return t
        except Conflict:
            continue  # another command got there first: decide again on the new state
        except _Rollback:
            return projection.load(stream_id)
    raise ServiceError("busy", _("The tournament is very busy; please try again."))


def _public_change(
    stream_id: int, t: log.Tournament, held_before: tuple[int, tuple[set[int], set[str]]] | None
) -> int | None:
    """The public seq to nudge the pages with, or None when nothing public changed: while a duplicate
    deal's result is withheld, a nudge for each held-back event would count them (#37)."""
    if held_before is None:
        return t.seq
    old_seq, hidden_before = held_before
    hidden = deals.withheld(t)
    if not hidden_before[0] and not hidden[0]:
        return t.seq
    stored = [(e.seq, e.type, e.data) for e in streams.read(stream_id)]
    before = deals.public_seq([e for e in stored if e[0] <= old_seq], hidden_before)
    after = deals.public_seq(stored, hidden)
    return after if after > before else None


def _on_commit(
    stream_id: int,
    tournament_id: int,
    t: log.Tournament,
    events: list[dict[str, Any]],
    held_before: tuple[int, tuple[set[int], set[str]]] | None = None,
) -> None:
    seq = _public_change(stream_id, t, held_before)
    if seq is not None:
        transaction.on_commit(partial(publish.changed, tournament_id, seq))
    for event in events:
        if event["type"] == "result.recorded" and not event.get("correction"):
            seq = t.table(event["table"]).board_game(int(event["game"])).recorded_seq
            transaction.on_commit(partial(ratings.record_board_game, stream_id, seq))
    if any(e["type"] == "result.recorded" and e.get("correction") for e in events):
        # A corrected result over the board: every rating derived again from the logs (#37 item 4);
        # the ratings are a fold in playing order, so a changed game changes all that came after.
        transaction.on_commit(ratings.rebuild)


def _rate_released(game_ids: list[int]) -> None:
    """Rate the games whose results were withheld while their deals were secret."""
    for game_id in game_ids:
        outcome = queries.result(game_id)
        if outcome is not None:
            ratings.record(game_id, outcome)


# Who gives a command (``by``): a signed-in user (the organiser, staff or an entrant), or None for
# the system itself (management commands, the demo, the steps ``advance`` takes).


def after_undos(stream_id: int, command_id: str) -> str:
    """``command_id`` made new by each undo in the stream: a command kept once (a withdrawal, a
    forfeit) that an undo revoked can be given again, and a retry before any undo stays the same."""
    undos = sum(1 for e in streams.read(stream_id) if e.type == undo.UNDONE)
    return f"{command_id}-u{undos}" if undos else command_id


def actor(user: User | None) -> str:
    return f"user:{user.pk}" if user is not None and getattr(user, "pk", None) else "system"


def by_id(user: User | None) -> int | None:
    """The user named in an event (``by``), None for the system."""
    return getattr(user, "pk", None)


def check_organiser(row: Tournament, by: User | None) -> None:
    if by is None:
        return  # the system itself (management commands, the demo)
    if not (by.is_staff or row.created_by_id == by.pk):
        raise ServiceError("not_organiser", _("Only the organiser can do this."))


def acting_entrant(row: Tournament, t: log.Tournament, entrant: int, by: User | None) -> log.Entrant:
    """The entrant a command is about: one who acts for itself, or the organiser for it."""
    e = t.entrants.get(entrant)
    if e is None:
        raise ServiceError("unknown_entrant", _("There is no such entrant."))
    if by is not None and e.user_id != by.pk:
        check_organiser(row, by)
    return e
