"""A tournament's exports: the standings as CSV (safe to open in a spreadsheet) and its public log."""

from __future__ import annotations

import csv

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from frontend.templatetags.points import points
from frontend.tournaments import CRITERION_NAMES, _criteria, _get
from games.eventlog import streams
from tournaments import (
    deals,
    log,
)
from tournaments.models import Entry

# A cell starting with one of these is a formula to a spreadsheet (OWASP "CSV injection"): a name such
# as =HYPERLINK(...) would run when the organiser opens the export.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: str) -> str:
    """A text cell a spreadsheet shows as text: a leading formula sign gets a single quote before it."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    criteria = _criteria(row)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{row.pk}-standings.csv"'
    writer = csv.writer(response)
    header = [_("Rank"), _("Entrant"), *[str(CRITERION_NAMES.get(c, c)) for c in criteria]]
    writer.writerow([spreadsheet_text(h) for h in header])
    for entry in Entry.objects.filter(tournament=row).order_by("rank", "seed", "number"):
        # Ranks and tie-break values are the server's numbers; the name is whatever was typed (a
        # computer's as the pages call it).
        writer.writerow(
            [
                entry.rank or "",
                spreadsheet_text(entry.shown_name),
                # Points written as on the pages and the sheets ("6¾"; templatetags/points.py).
                *[points(entry.values[c]) if c in entry.values else "" for c in criteria],
            ]
        )
    return response


def log_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament log, as anyone may read it: the seeds that would let anyone work out the deals
    are left out, and the log stops before the first result of a duplicate deal still to be played
    elsewhere (``deals.log_cut``: what follows it would tell that result) until the deal is released.
    An event shown in part carries no hash (it would not check)."""
    row = _get(tournament_id)
    stored = streams.read(row.stream_id)
    hidden = deals.withheld(log.fold([e.as_dict() for e in stored]))
    cut = deals.log_cut([(e.seq, e.type, e.data) for e in stored], hidden)
    events = []
    for e in stored:
        if cut is not None and e.seq >= cut:
            break
        redacted = deals.redact(e.type, e.data, hidden)
        event = {
            "seq": e.seq,
            "type": e.type,
            "data": e.data if redacted is None else redacted,
            "actor": e.actor,
            "at": e.created_at.isoformat(),
        }
        if redacted is None:
            event["hash"] = e.hash
        events.append(event)
    body = {
        "tournament": row.pk,
        "name": row.name,
        "game": row.game,
        "format": row.format,
        # True while the log stops early: the rest comes once the deals are released.
        "partial": cut is not None,
        "events": events,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tournament-{row.pk}-log.json"'
    return response
