"""The points ranking over the public API (``GET /api/v1/rankings/kazino``): the lines the leaderboard
shows, for a period, a club or a season (docs/api.md, docs/rankings.md). Every query parameter is
checked before any work: the game has a points ranking, the period is one of four, a club's slug and a
season's id are bounded, and so are the page and its size."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja import Query, Router, Schema
from pydantic import Field

from frontend.api.auth import TokenAuth
from frontend.api.tables import ERRORS
from games import bounds
from games.engines.base import _
from games.errors import NotFound, ServiceError, database_guard
from seasons import counted, points, ranking
from seasons import service as seasons
from tournaments.models import Club, shown_name

router = Router(tags=["rankings"], auth=TokenAuth())
SLUG = bounds.Text("club", 50, "A club's slug.")


class RankingQuery(Schema):
    period: str = Field("all", max_length=10, description="week, month, season or all.")
    club: str = Field("", max_length=50, description="A club's slug: its tournaments' games only.")
    season: int | None = bounds.ID.schema(
        strict=False, default=None, description="A season's id (period season)."
    )
    page: int = bounds.PAGE.schema(strict=False, default=1)
    limit: int = bounds.PAGE_SIZE.schema(strict=False, default=50)


class RankingLine(Schema):
    place: int
    player: str = Field(description="The player's key: user:ID, or bot:LEVEL:N for a computer.")
    name: str
    points: int
    games: int
    wins: int
    draws: int
    points_per_game: float


class RankingOut(Schema):
    game: str
    period: str
    club: str | None
    season: int | None
    since: str | None
    until: str | None
    total: int = Field(description="Players ranked in all (the page holds some of them).")
    lines: list[RankingLine]


@router.get("/rankings/{game}", response={200: RankingOut, **ERRORS}, url_name="ranking")
def ranking_view(request: HttpRequest, game: str, q: Query[RankingQuery]) -> dict[str, Any]:
    """A game's points ranking (only games whose rules have one: Kazino), best first."""
    if len(game) > 32 or not counted.has_points(game):
        raise NotFound("no_points_ranking", _("This game has no points ranking: it keeps ratings only."))
    if q.period not in points.PERIODS:
        raise ServiceError("bad_request", _("The period is week, month, season or all."), fields=["period"])
    with database_guard():
        club = None
        if q.club:
            club = Club.objects.filter(slug=SLUG.check(q.club)).first()
            if club is None:
                raise NotFound("unknown_club", _("There is no such club."))
        days = None
        if q.period == "season" or q.season is not None:
            found = seasons.season_days(q.season, club)
            if found is None:
                raise NotFound("unknown_season", _("There is no such season."))
            days = found
        asked = ranking.Asked(game, q.period, club.pk if club else None, days)
        since, until = points.window(q.period, timezone.now(), days)
        ranked = ranking.lines(asked)
    start = (q.page - 1) * q.limit
    return {
        "game": game,
        "period": q.period,
        "club": club.slug if club else None,
        "season": q.season,
        "since": since.isoformat() if since else None,
        "until": until.isoformat() if until else None,
        "total": len(ranked),
        "lines": [
            {
                "place": start + i + 1,
                "player": line.player,
                "name": shown_name(line.player, line.name),
                "points": line.points,
                "games": line.games,
                "wins": line.wins,
                "draws": line.draws,
                "points_per_game": round(float(line.per_game), 3),
            }
            for i, line in enumerate(ranked[start : start + q.limit])
        ],
    }
