"""Undo of the last console action (#30): a ``console.undone`` event revoking the action's events.

The action stays in the log; ``log.fold`` skips what an undo revoked. Which action may be undone and
when it is refused: ``tournaments/undo.py`` and docs/tournaments.md "Undo".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from games.errors import ServiceError
from games.eventlog import streams
from tournaments import log, ratings, undo
from tournaments.commands.runner import actor, by_id, check_organiser, run
from tournaments.models import Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

REFUSALS = {
    undo.NOTHING: _("There is no action to undo."),
    undo.NOT_UNDOABLE: _("The last action cannot be undone."),
    undo.PLAYED_ON: _("Something was played on it since: correct the result instead."),
    undo.ROUND_STARTED: _("The round has started since: its pairings are being played."),
    undo.PAIRED_SINCE: _("A round was paired after it: pair that round again instead."),
}


class Refused(ServiceError):
    status = 409


def last_action(stream_id: int) -> undo.Last | None:
    """The last action a person took, and whether it may be undone (its ``refusal``)."""
    stored = streams.read(stream_id)
    found = undo.last_action(stored)
    if found is None or found.kind != "result.forfeited":
        return found
    # A forfeit where a game was played (or entered) stopped that game: it is not undone.
    before = log.fold([e.as_dict() for e in stored if e.seq < found.seqs[0]])
    played = {tb.key for r in before.rounds for tb in r.tables if tb.started()}
    return undo.last_action(stored, played)


def undo_last(row: Tournament, seq: int, *, by: User | None = None) -> undo.Last | None:
    """Revoke the last action, the one whose last event is ``seq`` (what the button named); None if
    an undo revoked it already (a second press of the same button)."""
    check_organiser(row, by)
    done: list[undo.Last] = []

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if seq in undo.revoked([e.as_dict() for e in streams.read(row.stream_id)]):
            return []
        found = last_action(row.stream_id)
        if found is None:
            raise Refused(undo.NOTHING, REFUSALS[undo.NOTHING])
        if found.seq != seq:
            raise Refused("moved_on", _("Another action came since: look at the page again."))
        if found.refusal:
            raise Refused(found.refusal, REFUSALS[found.refusal])
        done[:] = [found]
        return [{"type": undo.UNDONE, "revokes": list(found.seqs), "what": found.kind, "by": by_id(by)}]

    # One undo per action: a second press of the same button is the same command.
    run(row.stream_id, f"undo-{seq}", actor(by), build)
    if done and done[0].kind in undo.RESULT_KINDS:
        # Ratings are a fold in playing order: a result taken back changes all that came after.
        transaction.on_commit(ratings.rebuild)
    return done[0] if done else None
