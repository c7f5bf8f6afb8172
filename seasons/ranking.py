"""The points ranking as pages and the API ask for it: a game, a period, a club, a season's days."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone

from seasons import counted, points


@dataclass(frozen=True)
class Asked:
    game: str
    period: str = "all"
    club_id: int | None = None
    season: tuple[date, date] | None = None  # the days of the season the period "season" means


def lines(asked: Asked, now: datetime | None = None) -> list[points.Line]:
    since, until = points.window(asked.period, now or timezone.now(), asked.season)
    return points.rank(
        counted.counted(asked.game), asked.game, club_id=asked.club_id, since=since, until=until
    )


def of_player(
    key: str,
    game: str,
    club_id: int | None = None,
    now: datetime | None = None,
    season: tuple[date, date] | None = None,
) -> list[tuple[str, int, points.Line]]:
    """A player's line and place in each period (the player's page): (period, place, line)."""
    out = []
    for period in points.PERIODS:
        if period == "season" and season is None:
            continue
        ranked = lines(Asked(game, period, club_id, season), now)
        for place, line in enumerate(ranked, start=1):
            if line.player == key:
                out.append((period, place, line))
    return out
