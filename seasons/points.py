"""The points ranking, as a pure fold: the games that count in, one line per player out.

A game's points are its engine's (``points_ranking``); which games count is ``counted``'s (read from
the event log). Here only the arithmetic: for a game, a club and a window of time, each player's total
points, games, wins, draws and points per game, ranked by total points, then points per game, then
wins. No Django, no clock: the window is given.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction

PERIODS = ("week", "month", "season", "all")


@dataclass(frozen=True)
class Counted:
    """One game that counts: who played it and the points each scored."""

    game: str  # the engine
    table: int  # the table's (Game) id
    number: int  # which match at the table (a new game at a rated table is the next)
    index: int  # which game of the match (a Kazino match to 160 holds many)
    at: datetime  # when the match ended
    club_id: int | None  # the club of its tournament; None for a rated table
    players: tuple[tuple[str, str, int], ...]  # (player key, stored name, points) per seat


@dataclass
class Line:
    player: str
    name: str
    points: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    tables: set[int] = field(default_factory=set)

    @property
    def per_game(self) -> Fraction:
        return Fraction(self.points, self.games) if self.games else Fraction(0)


def window(
    period: str, now: datetime, season: tuple[date, date] | None = None
) -> tuple[datetime | None, datetime | None]:
    """The instants [since, until) of a period: the calendar week (from Monday) or month of ``now``
    in UTC, a season's days (both ends included), or everything."""
    if period not in PERIODS:
        raise ValueError(period)
    today = now.astimezone(UTC).date()
    if period == "week":
        return _midnight(today - timedelta(days=today.weekday())), None
    if period == "month":
        return _midnight(today.replace(day=1)), None
    if period == "season":
        if season is None:
            return None, None
        return _midnight(season[0]), _midnight(season[1] + timedelta(days=1))
    return None, None


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def rank(
    counted: Iterable[Counted],
    game: str,
    *,
    club_id: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[Line]:
    """Each player's line, best first. ``club_id`` None: everyone's games (a club's included)."""
    lines: dict[str, Line] = {}
    for c in counted:
        if c.game != game or (club_id is not None and c.club_id != club_id):
            continue
        if (since is not None and c.at < since) or (until is not None and c.at >= until):
            continue
        best = max(p for _k, _n, p in c.players)
        alone = sum(1 for _k, _n, p in c.players if p == best) == 1
        for key, name, points in c.players:
            line = lines.setdefault(key, Line(key, name))
            line.name = name
            line.points += points
            line.games += 1
            line.tables.add(c.table)
            if points == best:
                if alone:
                    line.wins += 1
                else:
                    line.draws += 1
    return sorted(lines.values(), key=lambda x: (-x.points, -x.per_game, -x.wins, x.name, x.player))
