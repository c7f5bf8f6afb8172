"""The round clock, as events of the tournament's log (pure: no Django, no clock of its own).

The organiser sets a round's time (``clock.set``, the round estimate by default), starts it, pauses it,
extends it and calls "last hand"; each is an event of the tournament's stream carrying the instant the
command was given (``at``, ISO), so that the fold needs no clock and every page and screen computes
the time left from the same events. A clock that runs out decides nothing by itself: the director does
(the screen says "time", the console lists the tables still playing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

SET, STARTED, PAUSED, EXTENDED, LAST_HAND = (
    "clock.set",
    "clock.started",
    "clock.paused",
    "clock.extended",
    "clock.last_hand",
)
EVENTS = (SET, STARTED, PAUSED, EXTENDED, LAST_HAND)
MAX_SECONDS = 6 * 3600  # a round of six hours at most; an extension as much
# The organiser's choices for the room, events of the same log (the tournament's fold passes them over):
# what becomes of a game unfinished at the end of the clock, and the room screen's languages.
RULE_SET, LANGUAGES_SET = "clock.rule_set", "screen.languages_set"
SETTINGS = (RULE_SET, LANGUAGES_SET)
#: ``director``: the clock decides nothing, the director does; ``score``: a game unfinished when the
#: organiser ends the round at time is scored as it stands (only for games whose rules allow it).
AT_TIME_RULES = ("director", "score")
# The organiser ended the round at its time (tournaments/log.py folds it: the matches are decided).
TIME_CALLED = "round.time_called"


@dataclass
class Clock:
    round: int
    seconds: int = 0  # the round's time, extensions included
    used: float = 0.0  # seconds run before the current start
    running_since: datetime | None = None
    last_hand: bool = False
    time_called: bool = False

    def remaining(self, now: datetime) -> float:
        ran = self.used + ((now - self.running_since).total_seconds() if self.running_since else 0.0)
        return self.seconds - ran

    @property
    def running(self) -> bool:
        return self.running_since is not None


@dataclass
class Room:
    """The organiser's choices: the rule at the end of the clock, the screen's languages."""

    at_time: str = "director"
    languages: list[str] = field(default_factory=list)


@dataclass
class Held:
    """Every round's clock and the room's choices: folded one event at a time along with the rest of
    the tournament (tournaments/log.py), and kept on its row (tournaments/projection.py) so that a
    page reads the clock without reading the log."""

    clocks: dict[int, Clock] = field(default_factory=dict)
    room: Room = field(default_factory=Room)

    def apply(self, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == RULE_SET:
            self.room.at_time = str(e["at_time"])
        elif kind == LANGUAGES_SET:
            self.room.languages = [str(code) for code in e["languages"]]
        elif kind == TIME_CALLED and int(e["round"]) in self.clocks:
            self.clocks[int(e["round"])].time_called = True
        elif kind in EVENTS:
            _tick(self.clocks.setdefault(int(e["round"]), Clock(int(e["round"]))), kind, e)

    def as_json(self) -> dict[str, Any]:
        return {
            "clocks": [
                {
                    "round": c.round,
                    "seconds": c.seconds,
                    "used": c.used,
                    "running_since": c.running_since.isoformat() if c.running_since else None,
                    "last_hand": c.last_hand,
                    "time_called": c.time_called,
                }
                for c in self.clocks.values()
            ],
            "room": {"at_time": self.room.at_time, "languages": list(self.room.languages)},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Held:
        clocks = {
            int(c["round"]): Clock(
                round=int(c["round"]),
                seconds=int(c["seconds"]),
                used=float(c["used"]),
                running_since=datetime.fromisoformat(c["running_since"]) if c["running_since"] else None,
                last_hand=bool(c["last_hand"]),
                time_called=bool(c["time_called"]),
            )
            for c in data.get("clocks", [])
        }
        room = data.get("room", {})
        return cls(clocks, Room(str(room.get("at_time", "director")), list(room.get("languages", []))))


def _tick(c: Clock, kind: str, e: dict[str, Any]) -> None:
    at = datetime.fromisoformat(e["at"]) if e.get("at") else None
    if kind == SET:
        c.seconds = int(e["seconds"])
    elif kind == STARTED and c.running_since is None:
        c.running_since = at
    elif kind == PAUSED and c.running_since is not None and at is not None:
        c.used += (at - c.running_since).total_seconds()
        c.running_since = None
    elif kind == EXTENDED:
        c.seconds += int(e["seconds"])
    elif kind == LAST_HAND:
        c.last_hand = True


def held(events: list[dict[str, Any]]) -> Held:
    """The clocks and the room's choices from the tournament's events (the others are passed over)."""
    out = Held()
    for e in events:
        out.apply(e)
    return out


def room(events: list[dict[str, Any]]) -> Room:
    return held(events).room


def fold(events: list[dict[str, Any]]) -> dict[int, Clock]:
    """Every round's clock from the tournament's events (the others are passed over)."""
    return held(events).clocks


def check(clocks: dict[int, Clock], kind: str, round_number: int, seconds: int | None) -> str | None:
    """Why this clock action cannot be taken now (a code), or None."""
    c = clocks.get(round_number)
    if kind == SET:
        return None if seconds is not None and 60 <= seconds <= MAX_SECONDS else "bad_seconds"
    if c is None or c.seconds <= 0:
        return "clock_not_set"
    if kind == STARTED:
        return "clock_running" if c.running else None
    if kind == PAUSED:
        return None if c.running else "clock_not_running"
    if kind == EXTENDED:
        return None if seconds is not None and 60 <= seconds <= MAX_SECONDS else "bad_seconds"
    if kind == LAST_HAND:
        return "last_hand_called" if c.last_hand else None
    return "unknown_clock_action"


def deadline(c: Clock, now: datetime) -> datetime | None:
    """When a running clock reaches zero."""
    return now + timedelta(seconds=c.remaining(now)) if c.running else None
