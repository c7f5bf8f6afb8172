"""Leaderboards (everyone's and a club's, per game) and a player's page with their rating over time."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from frontend.tournaments import _older_repeats
from games.catalogue import titles
from tournaments.models import Club, Rating, RatingHistory, Tournament

CHART_W, CHART_H = 560, 160


def _boards(club: Club | None) -> list[tuple[str, Any, list[Rating]]]:
    names = titles()
    boards = []
    for game, title in names.items():
        rows = list(Rating.objects.filter(game=game, club=club).order_by("-mu")[:200])
        rows.sort(key=lambda r: -r.ordinal)
        if rows:
            boards.append((game, title, rows[:50]))
    return boards


def leaderboard(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/ratings/leaderboard.html", {"boards": _boards(None), "club": None})


def club(request: HttpRequest, slug: str) -> HttpResponse:
    found = Club.objects.filter(slug=slug).first()
    if found is None:
        raise Http404(_("There is no such club."))
    context = {
        "boards": _boards(found),
        "club": found,
        "tournaments": Tournament.objects.filter(club=found)
        .exclude(pk__in=_older_repeats(Tournament.objects.filter(club=found)))
        .order_by("-pk")[:30],
        "titles": titles(),
    }
    return render(request, "frontend/ratings/leaderboard.html", context)


def chart(points: list[float]) -> str:
    """An SVG polyline's points for a rating history (ordinal values), scaled to the chart."""
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = CHART_W / (len(points) - 1)
    return " ".join(
        f"{i * step:.1f},{CHART_H - (p - low) / span * (CHART_H - 10) - 5:.1f}" for i, p in enumerate(points)
    )


def player(request: HttpRequest, key: str) -> HttpResponse:
    ratings = list(Rating.objects.filter(player=key).select_related("club").order_by("game", "club_id"))
    if not ratings:
        raise Http404(_("This player has no rated game yet."))
    cards: list[dict[str, Any]] = []
    names = titles()
    for rating in ratings:
        history = list(RatingHistory.objects.filter(rating=rating))
        shown = history[-20:][::-1]
        # A game played with real cards is rated under its tournament's stream (tournaments.ratings).
        board = {t.stream_id: t for t in Tournament.objects.filter(stream_id__in=[h.game_id for h in shown])}
        cards.append(
            {
                "rating": rating,
                "title": names.get(rating.game, rating.game),
                "points": chart([h.mu - 3 * h.sigma for h in history]),
                "history": [(h, board.get(h.game_id)) for h in shown],
            }
        )
    return render(
        request,
        "frontend/ratings/player.html",
        {"name": ratings[-1].shown_name, "cards": cards, "width": CHART_W, "height": CHART_H},
    )
