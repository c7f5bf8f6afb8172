"""Which console action may be undone now, and why not (#30): pure, read from the stored events.

An undo is an event of its own (``console.undone``, naming the seqs it revokes); the action stays in
the log and ``log.fold`` skips what was revoked. Only **the last action a person took** (one command:
its events share a ``command_id``) can be undone, and only while nothing was played on it; undoing
again walks one action further back. The rules, for the organiser: docs/tournaments.md "Undo".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tournaments import clock

if TYPE_CHECKING:
    from games.eventlog.streams import StreamEvent  # the rows ``games.eventlog.streams.read`` gives

UNDONE = "console.undone"

#: The actions an undo may revoke, by the type of their command's first event.
PAIRING_KINDS = frozenset(
    {"round.edited", "tournament.seeded", "entrant.checked_in", "entrant.checked_out", "entrant.withdrawn"}
)
RESULT_KINDS = frozenset({"result.overridden", "result.forfeited"})
#: Events a withdrawal before its round starts brings with it (the round paired again, or the entrant
#: dropped from it); a withdrawal that brought a forfeit or a computer at a table in play was played on.
_QUIET_WITHDRAWAL = frozenset({"entrant.withdrawn", "round.paired", "round.edited", "round.stale"})
#: What, once appended after an action, means its pairing or its standings were used.
_ROUND_MOVED = frozenset({"tournament.started", "round.paired", "round.started", "tournament.finished"})

# Refusals (codes; the command words them).
NOTHING, PLAYED_ON, ROUND_STARTED, PAIRED_SINCE, NOT_UNDOABLE = (
    "nothing",
    "played_on",
    "round_started",
    "paired_since",
    "not_undoable",
)


@dataclass(frozen=True)
class Last:
    """The last action a person took, and whether it may be undone (``refusal`` empty) or not."""

    seqs: tuple[int, ...]
    events: tuple[dict[str, Any], ...]
    actor: str
    refusal: str = ""

    @property
    def kind(self) -> str:
        return str(self.events[0]["type"])

    @property
    def seq(self) -> int:
        """The last seq of the action: the button names it, so a page out of date undoes nothing else."""
        return self.seqs[-1]


def revoked(events: Sequence[dict[str, Any]]) -> set[int]:
    """The seqs (1-based positions in the stream) that undo events revoked."""
    out: set[int] = set()
    for event in events:
        if event.get("type") == UNDONE:
            out.update(int(s) for s in event.get("revokes", []))
    return out


def last_action(stored: Sequence[StreamEvent], played: set[str] | None = None) -> Last | None:
    """The last action a person took that an undo has not revoked (None: none), with its refusal.

    ``played``: the tables where a game was played or entered before the action (a forfeit there
    ended a game, so it is not undone). Undo events and the round clock's are no actions here."""
    gone = revoked([{"type": e.type, **e.data} for e in stored])
    live = [e for e in stored if e.seq not in gone and e.type != UNDONE and e.type not in clock.EVENTS]
    index = next((i for i in range(len(live) - 1, -1, -1) if live[i].actor.startswith("user:")), None)
    if index is None:
        return None
    command = live[index].command_id
    start = index
    while start > 0 and live[start - 1].command_id == command:
        start -= 1
    group = live[start : index + 1]
    later = live[index + 1 :]
    found = Last(
        tuple(e.seq for e in group), tuple({"type": e.type, **e.data} for e in group), group[0].actor
    )
    return Last(found.seqs, found.events, found.actor, _refusal(found, later, played or set()))


def _refusal(found: Last, later: Sequence[StreamEvent], played: set[str]) -> str:
    kinds = {e["type"] for e in found.events}
    moved = {e.type for e in later} & _ROUND_MOVED
    if found.kind in PAIRING_KINDS:
        if found.kind == "entrant.withdrawn" and not kinds <= _QUIET_WITHDRAWAL:
            return PLAYED_ON
        if moved or any(e.type == "game.started" for e in later):
            return ROUND_STARTED if moved - {"round.paired"} else PAIRED_SINCE
        return ""
    if found.kind in RESULT_KINDS:
        table = found.events[0].get("table")
        if found.kind == "result.forfeited" and table in played:
            return PLAYED_ON
        if any(e.data.get("table") == table for e in later):
            return PLAYED_ON
        if moved:
            return PAIRED_SINCE
        return ""
    return NOT_UNDOABLE
