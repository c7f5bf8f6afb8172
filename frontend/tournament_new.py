"""The list of tournaments and the new-tournament form, with its live round estimate."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from frontend import form_errors, seating_advice
from frontend.options import GAME_OPTIONS, TOURNAMENTS, defaults_table, fields
from frontend.query_forms import TournamentListQuery
from frontend.tournament_estimates import _estimate, estimate_basis, estimate_text
from frontend.tournament_new_form import NewTournamentForm
from frontend.tournaments import CRITERION_NAMES, FORMAT_NAMES
from games.errors import ServiceError
from games.words.catalogue import titles
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
    query = TournamentListQuery(request.GET)
    game, club, status = (str(query.value(k, "")) for k in ("game", "club", "status"))
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


def _posted(data: Any) -> tuple[str, str, dict[str, Any]]:
    """The game, the format and the options a tournament form sent (its fields refused left out)."""
    form = NewTournamentForm(data)
    form.is_valid()
    return form.choice()


def _table_players(game: str, options: dict[str, Any]) -> int:
    """The players at a table of the form's tournament (for the defaults the form shows first)."""
    players = 4 if options.get("partnerships") else int(options["table_size"])
    spec = GAME_OPTIONS[game]
    return players if players in spec.players else spec.default_players


@require_GET
def estimate_view(request: HttpRequest) -> JsonResponse:
    """The round length of the tournament form's current choices (the form's script asks as they
    change): ``{"minutes", "best_of", "source", "text", "basis", "seating"}`` (``seating``: the short
    tables and, when a Swiss would repeat meetings, the offer of a fixed schedule, for the players
    ``expected``), or the error that would refuse the tournament."""
    form = NewTournamentForm(request.GET)
    if not form.is_valid():
        message = form_errors.sentence(form)
        return JsonResponse({"error": {"code": form.mistake_code(), "message": message}}, status=400)
    game, fmt, options = form.choice()
    try:
        checked = service.validate_options(game, fmt or "swiss", options)
    except ServiceError as exc:
        return JsonResponse({"error": exc.localized()}, status=exc.status)
    found = estimate.for_tournament(game, checked)
    seating = seating_advice.advice(fmt or "swiss", checked, form.players_expected())
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
    form = NewTournamentForm(post)
    valid = form.is_valid()
    game, fmt, options = form.choice()
    names = titles()
    chosen_game = game if game in GAME_OPTIONS else next(iter(names), "")
    context: dict[str, Any] = {
        "titles": names,
        "formats": FORMAT_NAMES,
        "values": post,
        "criteria": [(c, CRITERION_NAMES[c]) for c in CRITERIA],
        # Each slot with the tie-break typed there (the page again shows what was chosen).
        "tiebreak_slots": list(enumerate((post.getlist("tiebreak") + [""] * 4)[:4], start=1)),
        "game_options": [
            (
                key,
                title,
                fields(
                    key,
                    TOURNAMENTS,
                    _table_players(key, options),
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
    found = _estimate(chosen_game, fmt, options) if game == chosen_game else _estimate(chosen_game, "", {})
    context["estimate"], context["estimate_basis"] = estimate_text(found), estimate_basis(found)
    context["seating_advice"] = seating_advice.advice(fmt or "swiss", options, form.players_expected())
    if request.method == "POST" and not valid:
        context["error"] = form_errors.sentence(form)
    elif request.method == "POST":
        try:
            row = service.create(form.cleaned_data["name"], game, fmt, options, by=cast(Any, request.user))
        except ServiceError as exc:
            context["error"] = exc.localized()["message"]
        else:
            return redirect("frontend:tournament", row.pk)
    return render(request, "frontend/tournaments/new.html", context)
