"""Leaderboards (everyone's and a club's, one game at a time) and a player's page: their rating over
time for one game, the clubs they are rated in, and the rated games they played, with opponents and
results.

Which game a page shows is its address's (``?game=skyjo``), one tab per game; without one, the first
game that has ratings there.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from frontend import points as points_ranking
from frontend import rating_chart
from frontend import seasons as season_pages
from frontend.clubs import club_or_404
from frontend.query_forms import GameQuery
from frontend.tournament_new import _older_repeats
from games.access import seats as seat_rules
from games.models import Game, Seat
from games.words.catalogue import titles
from games.words.names import seat_name
from tournaments import clubs as member_clubs
from tournaments import ratings as rating_rules
from tournaments.models import Club, Rating, RatingHistory, Tournament

BOARD_LENGTH = 50
GAMES_LISTED = 50


def _chosen(request: HttpRequest, rated: list[str]) -> str:
    """The game in the address, else the first one with ratings here, else the first game."""
    names = titles()
    asked = GameQuery(request.GET).value("game", "") if "game" in request.GET else None
    if asked is not None:
        if asked not in names:
            raise Http404(_("There is no such game."))
        return asked
    return next((g for g in names if g in rated), next(iter(names)))


def _tabs(chosen: str, games: list[str]) -> list[dict[str, Any]]:
    names = titles()
    return [{"game": g, "title": names[g], "current": g == chosen} for g in names if g in games]


def _board(request: HttpRequest, club: Club | None, season: Any = None) -> dict[str, Any]:
    # People first (#33: the demo's eight computers filled the board); the computers on request.
    computers = GameQuery(request.GET).computers_shown()
    rated_here = Rating.objects.filter(club=club)
    if not computers:
        rated_here = rated_here.exclude(player__startswith="bot:")
    rated = list(rated_here.values_list("game", flat=True).distinct())
    game = _chosen(request, rated)
    ratings = Rating.objects.filter(game=game, club=club)
    if not computers:
        ratings = ratings.exclude(player__startswith="bot:")
    rows = list(ratings.order_by("-mu")[:200])
    rows.sort(key=lambda r: -r.ordinal)
    user = request.user
    mine = f"user:{user.pk}" if user.is_authenticated else None
    return {
        "game": game,
        "title": titles()[game],
        "tabs": _tabs(game, list(titles())),
        "rows": rows[:BOARD_LENGTH],
        "computers": computers,
        "mine": mine,
        **points_ranking.board(request, game, club, season),
    }


def leaderboard(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/ratings/leaderboard.html", {**_board(request, None), "club": None})


def club(request: HttpRequest, slug: str) -> HttpResponse:
    found = club_or_404(slug)
    seasons = season_pages.club_context(request, found)
    context = {
        **_board(request, found, seasons["season_days"]),
        **seasons,
        "club": found,
        # The members' page is for members; a signed-in player may be one (#33).
        "club_member": member_clubs.may_see_members(found, request.user),
        "tournaments": Tournament.objects.filter(club=found)
        .exclude(pk__in=_older_repeats(Tournament.objects.filter(club=found)))
        .order_by("-pk")[:30],
    }
    return render(request, "frontend/ratings/leaderboard.html", context)


@dataclass
class Played:
    """One rated game on a player's page."""

    history: RatingHistory
    rating: float
    change: float
    result: str
    opponents: list[tuple[str, str | None]] = field(default_factory=list)  # (name, player key)
    partners: list[tuple[str, str | None]] = field(default_factory=list)
    tournament: Tournament | None = None

    @property
    def magnitude(self) -> float:
        return abs(self.change)


def _seat_key(seat: Seat) -> str | None:
    return rating_rules.player_key(
        {
            "user_id": seat.user_id,
            "bot_level": seat.bot_level,
            "bot_number": seat.bot_number,
            "number": seat.number,
        }
    )


def won() -> str:
    return pgettext("game result", "Won")


def result_text(place: int | None, sides: int | None, shared: bool) -> str:
    """A game's result for one side: won, lost, a draw, or a place among several sides."""
    if place is None or not sides:
        return ""
    if sides == 2:
        return (
            pgettext("game result", "Draw")
            if shared
            else won()
            if place == 1
            else pgettext("game result", "Lost")
        )
    if place == 1 and not shared:
        return won()
    return _("%(place)s of %(sides)s") % {"place": place, "sides": sides}


def _played(key: str, history: list[RatingHistory], reader: Any) -> list[Played]:
    """The player's rated games, newest first, with who they played and how it went; not a club-only
    table ``reader`` may not see (#33: to a non-member it is not there)."""
    start = rating_rules.MODEL.mu - 3 * rating_rules.MODEL.sigma
    before = [start] + [h.mu - 3 * h.sigma for h in history[:-1]]
    paired = list(zip(history, before, strict=True))
    club_only = Game.objects.filter(pk__in={h.game_id for h, _b in paired}, club_id__isnull=False)
    hidden = set(club_only.values_list("pk", flat=True)) - set(
        seat_rules.seen_by(reader, club_only).values_list("pk", flat=True)
    )
    shown = [p for p in paired if p[0].game_id not in hidden][-GAMES_LISTED:][::-1]
    ids = [h.game_id for h, _b in shown]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=ids).order_by("number"):
        seats[seat.game_id].append(seat)
    # A game played with real cards is rated under its tournament's stream (tournaments.ratings).
    board = {t.stream_id: t for t in Tournament.objects.filter(stream_id__in=ids)}
    # Whether another side shared the place: the other players' rows of the same games.
    places: dict[tuple[int, int], list[int | None]] = defaultdict(list)
    for gid, number, place in RatingHistory.objects.filter(
        game_id__in=ids, rating__club__isnull=True
    ).values_list("game_id", "number", "place"):
        places[(gid, number)].append(place)
    found = []
    for h, previous in shown:
        rating = h.mu - 3 * h.sigma
        at_table = seats.get(h.game_id, []) if h.game_id not in board else []
        mine = [s for s in at_table if _seat_key(s) == key]
        teams = {s.team for s in mine if s.team is not None}
        others = [s for s in at_table if s not in mine]
        partners = [s for s in others if s.team is not None and s.team in teams]
        opponents = [s for s in others if s not in partners]
        same = places[(h.game_id, h.number)].count(h.place)
        shared = h.place is not None and same > 1 + len(partners)
        found.append(
            Played(
                history=h,
                rating=rating,
                change=rating - previous,
                result=result_text(h.place, h.sides, shared),
                opponents=[(seat_name(s), _seat_key(s)) for s in opponents],
                partners=[(seat_name(s), _seat_key(s)) for s in partners],
                tournament=board.get(h.game_id),
            )
        )
    return found


def player(request: HttpRequest, key: str) -> HttpResponse:
    ratings = list(Rating.objects.filter(player=key).select_related("club").order_by("game", "club_id"))
    if not ratings:
        raise Http404(_("This player has no rated game yet."))
    games = [g for g in titles() if any(r.game == g for r in ratings)]
    game = _chosen(request, games)
    if game not in games:
        raise Http404(_("This player has no rated game of this kind yet."))
    mine = [r for r in ratings if r.game == game]
    everyone = next((r for r in mine if r.club_id is None), mine[0])
    history = list(RatingHistory.objects.filter(rating=everyone))
    points = [rating_chart.Point(h.mu - 3 * h.sigma, h.at) for h in history]
    context = {
        "name": everyone.shown_name,
        "key": key,
        "game": game,
        "title": titles()[game],
        "tabs": _tabs(game, games),
        "rating": everyone,
        "clubs": [r for r in mine if r.club_id is not None],
        "chart": rating_chart.draw(points, "chart"),
        "phone_chart": rating_chart.draw(points, "chart-phone", width=360, dates=3),
        "played": _played(key, history, request.user),
        "more": max(0, len(history) - GAMES_LISTED),
        **points_ranking.player(key, game),
        **season_pages.player_seasons(key),
    }
    return render(request, "frontend/ratings/player.html", context)
