"""The room screen (``/tournaments/ID/screen/``) and a club's (``/clubs/SLUG/screen/``): for a TV or a
projector across the room — large type, high contrast — rotating by itself through the pairings by name
(alphabetically: name → table and seat, as printed for the wall), the tables and their results, the
standings, with the round clock always on top and a QR code to the tournament's page. Its languages are
the organiser's choice (``?lang=ht,tl``: each heading in each language). Live through the tournament's
socket (the page fetches its panels again on every nudge). Only what the public page shows: the
projection rows, which hold no result of a deal still secret elsewhere, and no card.

The organiser's clock page (``/tournaments/ID/clock/``): set, start, pause, extend, "last hand", and
the tables still playing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from frontend.clubs import club_or_404
from frontend.match_names import table_label
from frontend.qr import qr_svg
from frontend.query_forms import PartQuery
from frontend.tournament_forms import RoundClockForm
from frontend.tournaments import _get
from games.errors import ServiceError
from tournaments import clock
from tournaments.commands import clock as clock_commands
from tournaments.models import Entry, Match, Round, Tournament

LANGUAGES = [code for code, _name in settings.LANGUAGES]
STANDINGS_SHOWN = 24


def _words() -> dict[str, str]:
    """The screen's headings, in the language active now."""
    return {
        "pairings": _("Find your name"),
        "tables": pgettext("room screen", "Tables"),
        "standings": _("Standings"),
        "round": pgettext("room screen", "Round"),
        "table": pgettext("room screen", "table"),
        "seat": pgettext("room screen", "seat"),
        "bye": pgettext("room screen", "bye"),
        "playing": pgettext("room screen", "playing"),
        "time_left": _("Time left"),
        "time_up": _("Time!"),
        "last_hand": _("Last hand"),
        "paused": pgettext("room screen", "paused"),
        "scan": _("Scan for the tournament's page"),
        "no_round": _("Waiting for the next round"),
    }


def languages(request: HttpRequest, saved: list[str] | None = None) -> list[str]:
    """The screen's languages: the address's (``?lang=en,ht``, at most three), else the ones the
    organiser saved on the tournament (an event of its log), else the reader's."""
    raw = ",".join(request.GET.getlist("lang"))[:20]
    chosen = [code for code in dict.fromkeys(raw.split(",")) if code in LANGUAGES][:3]
    kept = [code for code in saved or [] if code in LANGUAGES][:3]
    return chosen or kept or [translation.get_language() or "en"]


def words(langs: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for code in langs:
        with translation.override(code):
            for key, text in _words().items():
                out.setdefault(key, []).append(text)
    return out


def clock_state(held: clock.Held, number: int | None, now: datetime) -> dict[str, Any] | None:
    """Round ``number``'s clock for the screen's countdown, from the clocks already read."""
    c = held.clocks.get(number) if number is not None else None
    if c is None or c.seconds <= 0:
        return None
    return {
        "seconds": c.seconds,
        "remaining": max(-86400.0, c.remaining(now)),
        "running": c.running,
        "last_hand": c.last_hand,
    }


def panels(row: Tournament, now: datetime, held: clock.Held) -> dict[str, Any]:
    entries = {e.number: e for e in Entry.objects.filter(tournament=row)}
    number = row.round or None
    rnd = Round.objects.filter(tournament=row, number=number).first() if number else None
    matches = list(Match.objects.filter(tournament=row, round=number)) if number else []
    by_name: list[dict[str, Any]] = []
    tables = []
    for m in matches:
        seated = []
        for seat, e in enumerate(m.entrants, start=1):
            entry = entries.get(int(e))
            name = entry.shown_name if entry else str(e)
            by_name.append({"name": name, "table": table_label(m.key), "seat": seat})
            score = (m.result or {}).get("scores", {}).get(str(e)) if m.result else None
            place = (m.result or {}).get("places", {}).get(str(e)) if m.result else None
            seated.append({"name": name, "score": score, "place": place})
        tables.append(
            {"label": table_label(m.key), "key": m.key, "seats": seated, "done": m.result is not None}
        )
    for e in rnd.byes if rnd else []:
        entry = entries.get(int(e))
        by_name.append({"name": entry.shown_name if entry else str(e), "table": None, "seat": None})
    by_name.sort(key=lambda x: (x["name"].casefold(), x["name"]))
    standings = sorted(
        (e for e in entries.values() if e.rank is not None),
        key=lambda e: (e.rank or 0, e.seed or 0, e.number),
    )
    first_value = next(iter(standings[0].values), None) if standings else None
    return {
        "row": row,
        "round": number,
        "by_name": by_name,
        "tables": tables,
        "playing": [t for t in tables if not t["done"]],
        "standings": [
            {
                "rank": e.rank,
                "name": e.shown_name,
                "value": e.values.get(first_value, "") if first_value else "",
            }
            for e in standings[:STANDINGS_SHOWN]
        ],
        "clock": clock_state(held, number, now),
    }


def screen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    held = clock_commands.held(row, reload=False)  # the row is this request's: read once
    langs = languages(request, held.room.languages)
    context = {**panels(row, timezone.now(), held), "w": words(langs), "langs": ",".join(langs)}
    if (
        PartQuery(request.GET).value("part") == "panels"
    ):  # the refresh on each nudge: the QR code is the page's
        return render(request, "frontend/screen/panels.html", context)
    page_url = request.build_absolute_uri(reverse("frontend:tournament", args=[row.pk]))
    context.update(qr=qr_svg(page_url, " · ".join(context["w"]["scan"]), scalable=True), page_url=page_url)
    return render(request, "frontend/screen/screen.html", context)


def club_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """What's on tonight at a club: its tournaments not over, each with its round and clock."""
    club = club_or_404(slug)
    langs = languages(request)
    now = timezone.now()
    rows = list(
        Tournament.objects.filter(club=club).exclude(status=Tournament.Status.FINISHED).order_by("-pk")[:6]
    )
    shown = []
    w = words(langs)
    scan = " · ".join(w["scan"])
    for row in rows:
        url = request.build_absolute_uri(reverse("frontend:tournament", args=[row.pk]))
        held = clock_commands.held(row, reload=False)
        shown.append(
            {
                "row": row,
                "clock": clock_state(held, row.round or None, now),
                "qr": qr_svg(url, scan, scalable=True),
                "url": url,
            }
        )
    context = {"club": club, "tonight": shown, "w": w, "langs": ",".join(langs)}
    if PartQuery(request.GET).value("part") == "panels":
        return render(request, "frontend/screen/club_panels.html", context)
    return render(request, "frontend/screen/club.html", context)


def clock_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's round clock: set, start, pause, extend, last hand; the tables still playing."""
    row = _get(tournament_id)
    user: Any = request.user
    if not (user.is_authenticated and (user.is_staff or row.created_by_id == user.pk)):
        return HttpResponseForbidden(_("Only the organiser can do this."))
    error = ""
    status = 200
    if request.method == "POST":
        form = RoundClockForm(request.POST)
        if form.is_valid():
            try:
                clock_commands.act(row, form.cleaned_data["clock"], form.seconds(row), by=user)
            except ServiceError as refusal:
                error, status = refusal.localized()["message"], 400
            else:
                return redirect("frontend:tournament_clock", row.pk)
        else:
            error, status = " ".join(str(m) for errs in form.errors.values() for m in errs), 400
    row.refresh_from_db()
    context = {
        **panels(row, timezone.now(), clock_commands.held(row, reload=False)),
        "w": words([translation.get_language() or "en"]),
        "error": error,
        "default_minutes": clock_commands.default_seconds(row) // 60,
        "screen_languages": settings.LANGUAGES,
    }
    return render(request, "frontend/screen/clock.html", context, status=status)
