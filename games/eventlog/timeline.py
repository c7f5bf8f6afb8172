"""From the stored log to the engine events in effect: undo, redo, restart, new game, pause.

The engines never see table events (type ``table.*``); this fold decides which engine events
currently count; the fair-deal proof (``fair.*``, games/eventlog/commitment.py) counts for neither. Nothing
is erased: an undo is itself an event, and so is a redo.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

TABLE_PREFIX = "table."
UNDO, REDO = "table.undo", "table.redo"
RESTART, NEW_GAME = "table.restart", "table.new_game"
PAUSE, RESUME = "table.pause", "table.resume"
ABANDON = "table.abandon"  # the game stops for good (a tournament's no-show forfeit); nothing is erased
# A seat resigns, or the others claim the game of a seat that left (games/commands/resignation.py): the game
# ends with that seat's side last; nothing is erased.
RESIGN = "table.resign"
TABLE_EVENTS = {UNDO, REDO, RESTART, NEW_GAME, PAUSE, RESUME, ABANDON, RESIGN}
ENDINGS = {ABANDON, RESIGN}  # table events after which no move is taken
# The fair-deal proof (games/eventlog/commitment.py): stored in the log, seen by neither the fold nor the
# engines.
FAIR_PREFIX = "fair."


def is_engine_event(kind: str) -> bool:
    """Whether an event of this type goes to the engine (not a table event, not the fair-deal proof)."""
    return kind not in TABLE_EVENTS and not kind.startswith(FAIR_PREFIX)


@dataclass(frozen=True)
class Row:
    """What the fold needs of a stored event."""

    seq: int
    type: str
    data: dict[str, Any]
    actor: str
    command_id: str


@dataclass
class Group:
    """The engine events one command appended."""

    command_id: str
    actor: str
    events: list[dict[str, Any]]
    seqs: list[int]

    @property
    def by_bot(self) -> bool:
        return self.actor.startswith("bot:")

    @property
    def is_opening(self) -> bool:
        return self.actor == "system"


@dataclass
class Timeline:
    groups: list[Group] = field(default_factory=list)
    undone: list[list[Group]] = field(default_factory=list)
    paused: bool = False
    abandoned: bool = False
    game_number: int = 1
    seq: int = 0
    # Why the game was stopped ("no-show", "forfeit"…): said on the table and in the replay.
    abandon_reason: str = ""
    # can_undo, worked out once (a bot-only table would scan its whole log for every audience of every
    # move otherwise); ``extend`` carries it forward.
    undoable: bool | None = field(default=None, compare=False, repr=False)
    # {"seat": N, "reason": "resigned" | "left"} once a seat resigned or was claimed against.
    resigned: dict[str, Any] | None = None

    def engine_events(self) -> list[dict[str, Any]]:
        return [event for group in self.groups for event in group.events]

    def numbered_events(self) -> list[tuple[int, dict[str, Any]]]:
        """The engine events in effect with the seq each was stored at."""
        return [pair for group in self.groups for pair in zip(group.seqs, group.events, strict=True)]

    @property
    def can_undo(self) -> bool:
        if self.undoable is None:
            self.undoable = any(not g.by_bot and not g.is_opening for g in self.groups)
        return self.undoable

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)


def fold(rows: Iterable[Row]) -> Timeline:
    timeline = Timeline()
    for row in rows:
        timeline.seq = row.seq
        if row.type.startswith(FAIR_PREFIX):
            continue
        if row.type == UNDO:
            taken = _take_back(timeline.groups)
            if taken:
                timeline.undone.append(taken)
        elif row.type == REDO:
            if timeline.undone:
                timeline.groups.extend(timeline.undone.pop())
        elif row.type in (RESTART, NEW_GAME):
            timeline.groups, timeline.undone, timeline.resigned = [], [], None
            if row.type == NEW_GAME:
                timeline.game_number += 1
        elif row.type == RESIGN:
            timeline.resigned = {"seat": int(row.data["seat"]), "reason": str(row.data.get("reason") or "")}
        elif row.type == ABANDON:
            timeline.abandoned = True
            timeline.abandon_reason = str(row.data.get("reason") or "")
        elif row.type == PAUSE:
            timeline.paused = True
        elif row.type == RESUME:
            timeline.paused = False
        else:
            event = {"type": row.type, **row.data}
            last = timeline.groups[-1] if timeline.groups else None
            if last is not None and last.command_id == row.command_id:
                last.events.append(event)
                last.seqs.append(row.seq)
            else:
                if row.actor != "system":
                    timeline.undone = []  # a new action forgets what was undone
                timeline.groups.append(Group(row.command_id, row.actor, [event], [row.seq]))
    return timeline


def _take_back(groups: list[Group]) -> list[Group]:
    """Remove the last human action and every computer reply after it; return them in order."""
    for index in range(len(groups) - 1, -1, -1):
        group = groups[index]
        if group.is_opening:
            return []
        if not group.by_bot:
            taken = groups[index:]
            del groups[index:]
            return taken
    return []


def extend(timeline: Timeline, rows: Iterable[Row]) -> Timeline | None:
    """``timeline`` followed by ``rows``, as a new Timeline that shares what did not change.

    Only plain engine rows can be added this way; a table event (undo, restart…) changes
    which earlier events count, so the answer is None and the caller folds from the start.
    """
    groups = list(timeline.groups)
    undone = timeline.undone
    seq = timeline.seq
    undoable = timeline.can_undo
    for row in rows:
        if row.type in TABLE_EVENTS:
            return None
        seq = row.seq
        if row.type.startswith(FAIR_PREFIX):
            continue
        event = {"type": row.type, **row.data}
        last = groups[-1] if groups else None
        if last is not None and last.command_id == row.command_id:
            groups[-1] = Group(last.command_id, last.actor, [*last.events, event], [*last.seqs, row.seq])
        else:
            if row.actor != "system":
                undone = []
            group = Group(row.command_id, row.actor, [event], [row.seq])
            undoable = undoable or not (group.by_bot or group.is_opening)
            groups.append(group)
    return Timeline(
        groups,
        undone,
        timeline.paused,
        timeline.abandoned,
        timeline.game_number,
        seq,
        timeline.abandon_reason,
        undoable,
        timeline.resigned,
    )
