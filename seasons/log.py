"""A season as the fold of its own event stream (games/eventlog/streams.py, stream name ``season``): pure
Python, no Django, no clock, like a tournament's log (tournaments/log.py).

Events (docs/seasons.md):

- ``season.defined`` — the first event: the club, and the definition below;
- ``season.changed`` — the organiser's new definition, whole (it replaces the old one; the standings
  are computed again from the tournaments' logs, so nothing else needs rewriting);
- ``season.closed`` / ``season.reopened`` — the season is over (its standings final) or not.

A definition: ``name``; ``start`` and ``end`` (ISO days, both included); ``games`` (engines);
``tournaments`` — null for every tournament of the club in those days and games (the default), or the
tournaments' ids chosen; ``scoring`` — ``{"kind": "table", "table": [points for 1st, 2nd, …]}`` or
``{"kind": "field"}`` (a place is worth the field's size minus the place plus one: one point per player
finished ahead of, and one for playing); ``best`` — how many of a player's events count (null: all);
``tie_breaks`` — in order, from ``TIE_BREAKS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

STREAM = "season"
TIE_BREAKS = ("wins", "countback", "events", "all_points")
SCORINGS = ("table", "field")


class LogError(ValueError):
    """A stored event the fold cannot take."""


@dataclass
class Season:
    club_id: int | None = None
    name: str = ""
    start: date | None = None
    end: date | None = None
    games: list[str] = field(default_factory=list)
    tournaments: list[int] | None = None  # Tournament ids chosen; None: all of the club's
    scoring: dict[str, Any] = field(default_factory=lambda: {"kind": "field"})
    best: int | None = None
    tie_breaks: list[str] = field(default_factory=list)
    created_by: int | None = None
    closed: bool = False
    seq: int = 0

    @property
    def days(self) -> tuple[date, date]:
        assert self.start is not None and self.end is not None
        return self.start, self.end


def _definition(s: Season, e: dict[str, Any]) -> None:
    s.name = str(e["name"])
    s.start, s.end = date.fromisoformat(e["start"]), date.fromisoformat(e["end"])
    s.games = [str(g) for g in e["games"]]
    s.tournaments = None if e.get("tournaments") is None else [int(t) for t in e["tournaments"]]
    scoring = dict(e["scoring"])
    if scoring.get("kind") not in SCORINGS:
        raise LogError(f"unknown scoring {scoring!r}")
    s.scoring = scoring
    s.best = None if e.get("best") is None else int(e["best"])
    s.tie_breaks = [str(t) for t in e.get("tie_breaks", [])]
    if any(t not in TIE_BREAKS for t in s.tie_breaks):
        raise LogError(f"unknown tie-break in {s.tie_breaks!r}")


def apply(s: Season, e: dict[str, Any]) -> None:
    kind = e["type"]
    if kind == "season.defined":
        if s.name:
            raise LogError("a season is defined once")
        s.club_id, s.created_by = e.get("club_id"), e.get("by")
        _definition(s, e)
    elif not s.name:
        raise LogError(f"{kind} before season.defined")
    elif kind == "season.changed":
        _definition(s, e)
    elif kind == "season.closed":
        s.closed = True
    elif kind == "season.reopened":
        s.closed = False
    else:
        raise LogError(f"unknown season event {kind!r}")
    s.seq += 1


def fold(events: list[dict[str, Any]]) -> Season:
    s = Season()
    for event in events:
        apply(s, event)
    return s
