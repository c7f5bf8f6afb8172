"""The points ranking on the leaderboards and a player's page (seasons.ranking): for the games whose
rules rank by points (Kazino), beside the ratings, one period at a time (``?period=week``)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from frontend.query_forms import GameQuery
from seasons import counted, points, ranking
from tournaments.models import Club, shown_name

BOARD_LENGTH = 50


def period_names() -> dict[str, str]:
    return {
        "week": pgettext("ranking period", "This week"),
        "month": pgettext("ranking period", "This month"),
        "season": pgettext("ranking period", "This season"),
        "all": pgettext("ranking period", "All time"),
    }


def chosen_period(request: HttpRequest) -> str:
    asked = str(GameQuery(request.GET).value("period", "")) if "period" in request.GET else "all"
    if asked not in points.PERIODS:
        raise Http404(_("There is no such period."))
    return asked


def board(
    request: HttpRequest, game: str, club: Club | None, season: tuple[date, date] | None = None
) -> dict[str, Any]:
    """The leaderboard's points section, or nothing for a game that keeps ratings only."""
    if not counted.has_points(game):
        return {}
    period = chosen_period(request)
    if period == "season" and season is None:
        raise Http404(_("This club has no season now."))
    rows = ranking.lines(ranking.Asked(game, period, club.pk if club else None, season))
    if not GameQuery(request.GET).computers_shown():
        # People only, as the ratings above (#33: the demo's Swiss of computers filled Kazino's points).
        rows = [line for line in rows if not line.player.startswith("bot:")]
    rows = rows[:BOARD_LENGTH]
    names = period_names()
    return {
        "points": {
            "period": period,
            "periods": [
                {"key": p, "title": names[p], "current": p == period}
                for p in points.PERIODS
                if p != "season" or season is not None
            ],
            "rows": [_row(line) for line in rows],
        }
    }


def _row(line: points.Line) -> dict[str, Any]:
    return {
        "player": line.player,
        "name": shown_name(line.player, line.name),
        "points": line.points,
        "games": line.games,
        "wins": line.wins,
        "per_game": float(line.per_game),
    }


def player(key: str, game: str, season: tuple[date, date] | None = None) -> dict[str, Any]:
    """A player's points in each period, with their place."""
    if not counted.has_points(game):
        return {}
    names = period_names()
    found = [
        {"period": names[period], "place": place, **_row(line)}
        for period, place, line in ranking.of_player(key, game, season=season)
    ]
    return {"points_lines": found, "has_points": True}
