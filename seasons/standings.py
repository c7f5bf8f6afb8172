"""A season's standings, as a pure fold of its events' results (no Django, no clock).

Each event (a tournament) gives every player a place in a field; the season's scoring turns the place
into points (a points-per-place table, or the field's size minus the place plus one); a player's best
``best`` events count (all when None), the rest are shown as dropped; players rank by the points
counted, then by the season's tie-breaks in order, then share the place:

- ``wins`` — more events won (first place);
- ``countback`` — the better places compared one by one, best first (a 1st and a 3rd beat two 2nds);
- ``events`` — more events played;
- ``all_points`` — more points over every event, the dropped ones included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class EventResult:
    """One event of the season: its places (player key -> place) and the players' names."""

    ref: int  # the tournament's id
    name: str
    day: str  # ISO day
    places: dict[str, int]
    names: dict[str, str]

    @property
    def field_size(self) -> int:
        return len(self.places)


@dataclass
class Scored:
    event: int
    place: int
    field: int
    points: int
    counted: bool = True


@dataclass
class Standing:
    player: str
    name: str
    rank: int = 0
    points: int = 0  # counted
    all_points: int = 0
    results: list[Scored] = field(default_factory=list)

    @property
    def events(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.place == 1)


def place_points(scoring: dict[str, Any], place: int, field_size: int) -> int:
    if scoring["kind"] == "table":
        table = [int(p) for p in scoring["table"]]
        return table[place - 1] if 1 <= place <= len(table) else 0
    return max(0, field_size - place + 1)


def _tie_key(s: Standing, tie_breaks: list[str]) -> tuple[Any, ...]:
    key: list[Any] = []
    for t in tie_breaks:
        if t == "wins":
            key.append(-s.wins)
        elif t == "countback":
            key.append(tuple(sorted(r.place for r in s.results)) + (10**9,))
        elif t == "events":
            key.append(-s.events)
        elif t == "all_points":
            key.append(-s.all_points)
    return tuple(key)


def standings(
    events: list[EventResult], scoring: dict[str, Any], best: int | None, tie_breaks: list[str]
) -> list[Standing]:
    players: dict[str, Standing] = {}
    for ev in events:
        for key, place in ev.places.items():
            s = players.setdefault(key, Standing(key, ev.names.get(key, key)))
            s.name = ev.names.get(key, s.name)
            s.results.append(
                Scored(ev.ref, place, ev.field_size, place_points(scoring, place, ev.field_size))
            )
    for s in players.values():
        # The best results count; among equal points the earlier event is kept (a stable choice).
        order = sorted(range(len(s.results)), key=lambda i: -s.results[i].points)
        kept = set(order if best is None else order[:best])
        for i, r in enumerate(s.results):
            r.counted = i in kept
        s.points = sum(r.points for r in s.results if r.counted)
        s.all_points = sum(r.points for r in s.results)
    ranked = sorted(players.values(), key=lambda s: (-s.points, _tie_key(s, tie_breaks), s.name, s.player))
    for i, s in enumerate(ranked):
        prev = ranked[i - 1] if i else None
        same = prev is not None and (prev.points, _tie_key(prev, tie_breaks)) == (
            s.points,
            _tie_key(s, tie_breaks),
        )
        s.rank = prev.rank if same and prev is not None else i + 1
    return ranked
