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

import segno
from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games import bounds
from games.errors import ServiceError
from tournaments.commands import clock as clock_commands
from tournaments.models import Club, Entry, Match, Round, Tournament

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


def _label(key: str) -> str:
    """A table's number on the screen: "R2-T3" is table 3; a bracket match keeps its key."""
    return key.rsplit("-T", 1)[1] if "-T" in key else key


def qr_svg(url: str) -> str:
    # A viewBox, not a fixed size: the stylesheet sizes the code, which must scale, never be cropped
    # (with width and height only, the 174 px code drawn in a smaller box lost its right-hand corner).
    return segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff", border=2, omitsize=True)


def clock_state(row: Tournament, number: int | None, now: datetime) -> dict[str, Any] | None:
    if number is None:
        return None
    c = clock_commands.clocks(row).get(number)
    if c is None or c.seconds <= 0:
        return None
    return {
        "seconds": c.seconds,
        "remaining": max(-86400.0, c.remaining(now)),
        "running": c.running,
        "last_hand": c.last_hand,
    }


def panels(row: Tournament, now: datetime) -> dict[str, Any]:
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
            by_name.append({"name": name, "table": _label(m.key), "seat": seat})
            score = (m.result or {}).get("scores", {}).get(str(e)) if m.result else None
            place = (m.result or {}).get("places", {}).get(str(e)) if m.result else None
            seated.append({"name": name, "score": score, "place": place})
        tables.append({"label": _label(m.key), "key": m.key, "seats": seated, "done": m.result is not None})
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
        "clock": clock_state(row, number, now),
    }


def _tournament(tournament_id: int) -> Tournament:
    row = Tournament.objects.filter(pk=tournament_id).first()
    if row is None:
        raise Http404(_("There is no such tournament."))
    return row


def screen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _tournament(tournament_id)
    langs = languages(request, clock_commands.room(row).languages)
    page_url = request.build_absolute_uri(reverse("frontend:tournament", args=[row.pk]))
    context = {
        **panels(row, timezone.now()),
        "w": words(langs),
        "langs": ",".join(langs),
        "qr": qr_svg(page_url),
        "page_url": page_url,
    }
    if request.GET.get("part") == "panels":
        return render(request, "frontend/screen/panels.html", context)
    return render(request, "frontend/screen/screen.html", context)


def club_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """What's on tonight at a club: its tournaments not over, each with its round and clock."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404(_("There is no such club."))
    langs = languages(request)
    now = timezone.now()
    rows = list(
        Tournament.objects.filter(club=club).exclude(status=Tournament.Status.FINISHED).order_by("-pk")[:6]
    )
    shown = []
    for row in rows:
        url = request.build_absolute_uri(reverse("frontend:tournament", args=[row.pk]))
        shown.append(
            {"row": row, "clock": clock_state(row, row.round or None, now), "qr": qr_svg(url), "url": url}
        )
    context = {"club": club, "tonight": shown, "w": words(langs), "langs": ",".join(langs)}
    if request.GET.get("part") == "panels":
        return render(request, "frontend/screen/club_panels.html", context)
    return render(request, "frontend/screen/club.html", context)


class ClockForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in clock_commands.ACTIONS])
    minutes = bounds.CLOCK_MINUTES.form_field(required=False, label=gettext_lazy("Minutes"))


def clock_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's round clock: set, start, pause, extend, last hand; the tables still playing."""
    row = _tournament(tournament_id)
    user: Any = request.user
    if not (user.is_authenticated and (user.is_staff or row.created_by_id == user.pk)):
        return HttpResponseForbidden(_("Only the organiser can do this."))
    error = ""
    status = 200
    if request.method == "POST":
        form = ClockForm(request.POST)
        if form.is_valid():
            minutes = form.cleaned_data.get("minutes")
            seconds = minutes * 60 if minutes else None
            if form.cleaned_data["action"] == "set" and seconds is None:
                seconds = clock_commands.default_seconds(row)
            try:
                clock_commands.act(row, form.cleaned_data["action"], seconds, by=user)
            except ServiceError as refusal:
                error, status = refusal.localized()["message"], 400
            else:
                return redirect("frontend:tournament_clock", row.pk)
        else:
            error, status = " ".join(str(m) for errs in form.errors.values() for m in errs), 400
    row.refresh_from_db()
    context = {
        **panels(row, timezone.now()),
        "w": words([translation.get_language() or "en"]),
        "error": error,
        "default_minutes": clock_commands.default_seconds(row) // 60,
        "screen_languages": settings.LANGUAGES,
    }
    return render(request, "frontend/screen/clock.html", context, status=status)
