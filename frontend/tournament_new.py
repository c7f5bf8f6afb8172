"""The list of tournaments and the new-tournament form, with its live round estimate."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from frontend import seating_advice
from frontend.options import GAME_OPTIONS, TOURNAMENTS, defaults_table, fields, parse_options
from frontend.tournament_estimates import _estimate, estimate_basis, estimate_text
from frontend.tournaments import CRITERION_NAMES, FORMAT_NAMES, _int
from games import bounds
from games.catalogue import titles
from games.errors import ServiceError
from tournaments import (
    estimate,
    service,
)
from tournaments.models import Club, Tournament
from tournaments.standings import CRITERIA

LIST_LENGTH = 100


def _older_repeats(rows: Any) -> list[int]:
    """Tournaments that start again when they end (``repeat``: the demo club's) are one series per
    club, game and name: all but the newest of each series."""
    newest: set[tuple[Any, ...]] = set()
    older: list[int] = []
    series = rows.filter(options__repeat=True).order_by("-pk").values_list("pk", "club_id", "game", "name")
    for pk, club_id, game, name in series:
        if (club_id, game, name) in newest:
            older.append(pk)
        else:
            newest.add((club_id, game, name))
    return older


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Tournaments, newest first, filtered by game, club and status (GET parameters); a repeating
    tournament is shown once, its newest."""
    rows = Tournament.objects.select_related("club")
    game, club, status = (request.GET.get(k, "") for k in ("game", "club", "status"))
    names = titles()
    if game in names:
        rows = rows.filter(game=game)
    clubs = list(Club.objects.filter(tournaments__isnull=False).distinct().order_by("name"))
    if club == "none":
        rows = rows.filter(club__isnull=True)
    elif club:
        rows = rows.filter(club__slug=club)
    if status in Tournament.Status.values:
        rows = rows.filter(status=status)
    rows = rows.exclude(pk__in=_older_repeats(rows))
    context = {
        "tournaments": rows.order_by("-pk")[:LIST_LENGTH],
        "titles": names,
        "format_names": FORMAT_NAMES,
        "clubs": clubs,
        "statuses": Tournament.Status.choices,
        "chosen": {"game": game, "club": club, "status": status},
        "filtered": bool(game or club or status),
    }
    return render(request, "frontend/tournaments/list.html", context)


def _posted(post: Any) -> tuple[str, str, dict[str, Any]]:
    """The game, the format and the options of the tournament form (the options of the chosen game
    only, from its own fields ``GAME-KEY``; the engine fills in the rest when a table is made)."""
    game = post.get("game", "")
    options: dict[str, Any] = {
        "table_size": _int(post.get("table_size"), 2),
        "best_of": _int(post.get("best_of"), 1),
        "spectator_delay": _int(post.get("spectator_delay"), 0),
        "no_show_after": 60 * _int(post.get("no_show_minutes"), 0),
    }
    if post.get("absent_minutes"):  # #37: a game may be claimed against a player gone this long
        options["absent_after"] = 60 * _int(post.get("absent_minutes"), 0)
    if post.get("rounds"):
        options["rounds"] = _int(post.get("rounds"), 0)
    for flag in ("third_place", "duplicate", "partnerships", "check_in", "late_entry", "chat"):
        if post.get(flag):
            options[flag] = True
    for choice, usual in (
        ("seating", "standings"),  # #31: kept when chosen
        ("short_tables", "smaller"),
        ("bye_value", ""),  # #30: the rules of absence
        ("absence_before_round", "repair"),
    ):
        if post.get(choice) and post.get(choice) != usual:
            options[choice] = post.get(choice)
    options["reset"] = bool(post.get("reset"))
    tiebreaks = [c for c in post.getlist("tiebreak") if c]
    if tiebreaks and post.getlist("tiebreak")[0]:
        options["tiebreaks"] = list(dict.fromkeys(tiebreaks))
    if post.get("registration_closes"):
        options["registration_closes"] = post["registration_closes"]
    options["auto_start"] = not post.get("manual_rounds")
    if game in GAME_OPTIONS:
        chosen = parse_options(game, post, prefix=f"{game}-", where=TOURNAMENTS)
        if chosen:
            options["game_config"] = chosen
    return game, post.get("format", ""), options


def _table_players(game: str, post: Any) -> int:
    """The players at a table of the form's tournament (for the defaults the form shows first)."""
    players = 4 if post.get("partnerships") else _int(post.get("table_size"), 2)
    spec = GAME_OPTIONS[game]
    return players if players in spec.players else spec.default_players


@require_GET
def estimate_view(request: HttpRequest) -> JsonResponse:
    """The round length of the tournament form's current choices (the form's script asks as they
    change): ``{"minutes", "best_of", "source", "text", "basis", "seating"}`` (``seating``: the short
    tables and, when a Swiss would repeat meetings, the offer of a fixed schedule, for the players
    ``expected``), or the error that would refuse the tournament."""
    game, fmt, options = _posted(request.GET)
    try:
        checked = service.validate_options(game, fmt or "swiss", options)
    except ServiceError as exc:
        return JsonResponse({"error": exc.localized()}, status=exc.status)
    found = estimate.for_tournament(game, checked)
    seating = seating_advice.advice(
        fmt or "swiss", checked, bounds.read_int(request.GET.get("expected")) or 0
    )
    if found is None:
        return JsonResponse({"minutes": None, "text": "", "basis": "", "seating": seating})
    return JsonResponse(
        {
            "minutes": found.minutes,
            "best_of": found.best_of,
            "source": found.game.source,
            "text": estimate_text(found),
            "basis": estimate_basis(found),
            "seating": seating,
        }
    )


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    post = request.POST
    names = titles()
    chosen_game = str(post.get("game")) if post.get("game") in GAME_OPTIONS else next(iter(names), "")
    context: dict[str, Any] = {
        "titles": names,
        "formats": FORMAT_NAMES,
        "values": post,
        "criteria": [(c, CRITERION_NAMES[c]) for c in CRITERIA],
        "tiebreak_slots": range(1, 5),
        "game_options": [
            (
                key,
                title,
                fields(
                    key,
                    TOURNAMENTS,
                    _table_players(key, post),
                    post if request.method == "POST" and key == chosen_game else None,
                    prefix=f"{key}-",
                ),
            )
            for key, title in names.items()
            if key in GAME_OPTIONS
        ],
        "option_defaults": {
            key: defaults_table(key, list(spec.players), TOURNAMENTS) for key, spec in GAME_OPTIONS.items()
        },
    }
    game, fmt, options = _posted(post)
    found = _estimate(chosen_game, fmt, options) if game == chosen_game else _estimate(chosen_game, "", {})
    context["estimate"], context["estimate_basis"] = estimate_text(found), estimate_basis(found)
    context["seating_advice"] = seating_advice.advice(
        fmt or "swiss", options, bounds.read_int(post.get("expected")) or 0
    )
    if request.method == "POST":
        try:
            row = service.create(post.get("name", ""), game, fmt, options, by=cast(Any, request.user))
        except ServiceError as exc:
            context["error"] = exc.localized()["message"]
        else:
            return redirect("frontend:tournament", row.pk)
    return render(request, "frontend/tournaments/new.html", context)
