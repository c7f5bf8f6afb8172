"""A season over the public API (``GET /api/v1/seasons/{season}``): its definition, its events and
its standings, as the season page shows them (docs/seasons.md)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema
from pydantic import Field

from frontend.api.auth import TokenAuth
from frontend.api.tables import ERRORS
from games import bounds
from games.engines.base import _
from games.errors import NotFound, database_guard
from seasons import service
from tournaments.models import shown_name

router = Router(tags=["seasons"], auth=TokenAuth())


class SeasonEvent(Schema):
    tournament: int
    name: str
    day: str
    players: int


class SeasonResult(Schema):
    tournament: int
    place: int
    field: int
    points: int
    counted: bool = Field(description="Whether it is among the player's best results that count.")


class SeasonStanding(Schema):
    rank: int
    player: str = Field(description="user:ID, bot:LEVEL:N, or name:NAME for a name typed at an event.")
    name: str
    points: int
    all_points: int
    events: int
    wins: int
    results: list[SeasonResult]


class SeasonOut(Schema):
    id: int
    name: str
    club: str | None
    start: str
    end: str
    games: list[str]
    tournaments: list[int] | None = Field(description="The tournaments chosen; null: all of the club's.")
    scoring: dict[str, Any]
    best: int | None
    tie_breaks: list[str]
    closed: bool
    events: list[SeasonEvent]
    standings: list[SeasonStanding]


@router.get("/seasons/{season}", response={200: SeasonOut, **ERRORS}, url_name="season")
def season(request: HttpRequest, season: str) -> dict[str, Any]:
    """A season, its events and its standings."""
    number = bounds.ID.parse_or(season if len(season) <= bounds.DIGITS else None, None)
    if number is None:
        raise NotFound("unknown_season", _("There is no such season."))
    with database_guard():
        loaded = service.load(number)
        s = loaded.season
        events, ranked = service.table(s)
    return {
        "id": loaded.id,
        "name": s.name,
        "club": loaded.club.slug if loaded.club else None,
        "start": s.days[0].isoformat(),
        "end": s.days[1].isoformat(),
        "games": s.games,
        "tournaments": s.tournaments,
        "scoring": s.scoring,
        "best": s.best,
        "tie_breaks": s.tie_breaks,
        "closed": s.closed,
        "events": [
            {"tournament": e.ref, "name": e.name, "day": e.day, "players": e.field_size} for e in events
        ],
        "standings": [
            {
                "rank": line.rank,
                "player": line.player,
                "name": line.name if line.player.startswith("name:") else shown_name(line.player, line.name),
                "points": line.points,
                "all_points": line.all_points,
                "events": line.events,
                "wins": line.wins,
                "results": [
                    {
                        "tournament": r.event,
                        "place": r.place,
                        "field": r.field,
                        "points": r.points,
                        "counted": r.counted,
                    }
                    for r in line.results
                ],
            }
            for line in ranked
        ],
    }
