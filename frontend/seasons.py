"""Season pages (seasons/, docs/seasons.md): a club's seasons, the form that defines or changes one,
the season's page (phone-first, live through its tournaments' sockets), its one-page print (HTML for
the browser, PDF by WeasyPrint) and each player's seasons on their page."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontend import printables
from frontend.clubs import club_or_404
from frontend.query_forms import ClosedForm, PartQuery
from games.errors import ServiceError
from games.words.catalogue import titles
from seasons import service, standings
from seasons.forms import TIE_BREAK_NAMES, SeasonForm
from tournaments.models import Club, Tournament, shown_name


def _loaded(season_id: int) -> service.Loaded:
    try:
        return service.load(season_id)
    except ServiceError:
        raise Http404(_("There is no such season.")) from None


def scoring_text(season: Any) -> str:
    if season.scoring["kind"] == "table":
        return _("Points per place: %(table)s.") % {
            "table": ", ".join(str(p) for p in season.scoring["table"])
        }
    return _("Points per event: the players in the event minus the place, plus one.")


def club_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    """The club page's seasons, and the season its points ranking may show."""
    seasons = service.of_club(club)
    today = timezone.now().date()
    now = next((s for s in seasons if s.season.start and s.season.start <= today <= s.season.days[1]), None)
    return {
        "seasons": seasons,
        "may_define_season": service.may_define(request.user, club),
        "season_days": now.season.days if now else None,
    }


def new_season(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    if not service.may_define(request.user, club):
        return HttpResponseForbidden(_("Only an organiser of this club's tournaments can define its season."))
    form = SeasonForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            season_id = service.define(club, form.definition(), request.user)
        except ServiceError as refusal:
            form.add_error(None, refusal.localized()["message"])
        else:
            return redirect("frontend:season", season_id)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "frontend/seasons/form.html", {"form": form, "club": club, "season": None}, status=status
    )


def edit_season(request: HttpRequest, season_id: int) -> HttpResponse:
    loaded = _loaded(season_id)
    if loaded.club is None or not service.may_change(request.user, loaded.season):
        return HttpResponseForbidden(_("Only the season's organiser can change it."))
    form = SeasonForm(request.POST or None, club=loaded.club, initial=SeasonForm.initial_from(loaded.season))
    if request.method == "POST" and form.is_valid():
        try:
            service.change(season_id, form.definition(), request.user)
        except ServiceError as refusal:
            form.add_error(None, refusal.localized()["message"])
        else:
            return redirect("frontend:season", season_id)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "club": loaded.club, "season": loaded}
    return render(request, "frontend/seasons/form.html", context, status=status)


@require_POST
def close_season(request: HttpRequest, season_id: int) -> HttpResponse:
    loaded = _loaded(season_id)
    if not service.may_change(request.user, loaded.season):
        return HttpResponseForbidden(_("Only the season's organiser can change it."))
    form = ClosedForm(request.POST)
    service.close(
        season_id, request.user, closed=not (form.is_valid() and form.cleaned_data["closed"] == "0")
    )
    return redirect("frontend:season", season_id)


def _results(line: standings.Standing, by_ref: dict[int, standings.EventResult]) -> list[dict[str, Any]]:
    """A standings line's events, each with the event it was in (``by_ref``: the season's by ref)."""
    return [
        {
            "event": by_ref[r.event],
            "place": r.place,
            "field": r.field,
            "points": r.points,
            "counted": r.counted,
        }
        for r in line.results
    ]


def _page(request: HttpRequest, loaded: service.Loaded) -> dict[str, Any]:
    s = loaded.season
    events, ranked = service.table(s)
    names = titles()
    by_ref = {e.ref: e for e in events}
    rows = []
    for line in ranked:
        rows.append(
            {
                "rank": line.rank,
                "player": line.player,
                "name": shown_name(line.player, line.name)
                if not line.player.startswith("name:")
                else line.name,
                "link": line.player if not line.player.startswith("name:") else None,
                "points": line.points,
                "all_points": line.all_points,
                "events": line.events,
                "wins": line.wins,
                "results": _results(line, by_ref),
            }
        )
    return {
        "loaded": loaded,
        "s": s,
        "club": loaded.club,
        "games": [names.get(g, g) for g in s.games],
        "events": [
            {"ref": e.ref, "name": e.name, "date": date.fromisoformat(e.day), "field_size": e.field_size}
            for e in events
        ],
        "rows": rows,
        "scoring": scoring_text(s),
        "best_of": {"best": s.best, "events": len(events)},
        "ties": [TIE_BREAK_NAMES[t] for t in s.tie_breaks],
        "organiser": service.may_change(request.user, s),
        "sockets": [e.ref for e in events if not _finished(e.ref)],
    }


def _finished(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.FINISHED).exists()


def season(request: HttpRequest, season_id: int) -> HttpResponse:
    loaded = _loaded(season_id)
    context = _page(request, loaded)
    if PartQuery(request.GET).value("part") == "standings":  # the live page fetches its standings again
        return render(request, "frontend/seasons/standings.html", context)
    return render(request, "frontend/seasons/page.html", context)


def print_season(request: HttpRequest, season_id: int, pdf: bool = False) -> HttpResponse:
    """The season's standings on one page (A4 or Letter): the browser prints it, or WeasyPrint."""
    loaded = _loaded(season_id)
    context = {**_page(request, loaded), "pdf": pdf, "printed": timezone.localtime()}
    html = render_to_string("frontend/seasons/print.html", context, request=request)
    if not pdf:
        return HttpResponse(html)
    response = HttpResponse(printables.render_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="season-{season_id}.pdf"'
    return response


def print_pdf(request: HttpRequest, season_id: int) -> HttpResponse:
    return print_season(request, season_id, pdf=True)


def player_seasons(key: str) -> dict[str, Any]:
    """A player's seasons and events, for their page."""
    found = []
    for loaded, line, events in service.player_events(key):
        by_ref = {e.ref: e for e in events}
        found.append(
            {
                "loaded": loaded,
                "rank": line.rank,
                "points": line.points,
                "results": _results(line, by_ref),
            }
        )
    return {"player_seasons": found}


def season_days_of(club: Club | None) -> tuple[date, date] | None:
    return service.season_days(None, club) if club is not None else None
