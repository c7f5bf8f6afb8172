"""Printable sheets of a tournament: pairings of a round, table cards, standings, the bracket and a
blank score sheet for the game, in the reader's language (issue #20 item 4).

One view per sheet. ``…/print/SHEET/`` is a page that prints cleanly from the browser (its own
stylesheet, ``print.css``, inlined: no navigation, big names, sized to fit A4 and Letter);
``…/print/SHEET.pdf`` renders the same HTML with WeasyPrint. Sheets read the projection rows, like
the tournament page; only table cards with the tables' codes fold the log (the codes are derived from
the tournament's secret, and only the organiser sees them).
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import cache as shared_cache
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from frontend.match_names import namer, table_label
from frontend.match_scores import score
from frontend.qr import qr_svg
from frontend.query_forms import PrintQuery
from frontend.tournament_page import _bracket as bracket_of_rows
from frontend.tournaments import CRITERION_NAMES, FORMAT_NAMES, _criteria, _get, _organiser, place_words
from games import engines
from games.words.catalogue import titles
from tournaments import board, options, projection
from tournaments.models import Entry, Match, Tournament

PDF_RATE = "20/m"  # new PDFs rendered per address and minute (a cached one is free)
PDF_KEPT = 3600  # seconds a rendered PDF is kept in the cache
SHEETS = ("pairings", "tables", "standings", "bracket", "score-sheet")
PAPERS = {"a4": "A4", "letter": "letter"}


@cache
def _stylesheet() -> str:
    found = finders.find("frontend/print.css")
    path = Path(str(found)) if found else Path(settings.BASE_DIR) / "frontend/static/frontend/print.css"
    return path.read_text(encoding="utf-8")


def _entries(row: Tournament) -> dict[int, Entry]:
    return {e.number: e for e in Entry.objects.filter(tournament=row)}


def _round(request: HttpRequest, row: Tournament) -> int:
    number = PrintQuery(request.GET).value("round", row.round)
    return number if 1 <= number <= row.round else row.round


def _seat_names(entries: dict[int, Entry], entrants: list[int]) -> list[dict[str, Any]]:
    out = []
    for n in entrants:
        entry = entries.get(n)
        out.append(
            {
                "number": n,
                "name": entry.shown_name if entry else str(n),
                "members": list(entry.members) if entry else [],
            }
        )
    return out


def _base(request: HttpRequest, row: Tournament, sheet: str, title: str) -> dict[str, Any]:
    paper = PAPERS.get(PrintQuery(request.GET).value("paper", ""), "")
    query = request.GET.urlencode()
    return {
        "t": row,
        "sheet": sheet,
        "sheet_title": title,
        "game_title": titles().get(row.game, row.game),
        "format_name": FORMAT_NAMES.get(row.format, row.format),
        "printed": timezone.localtime(),
        "css": _stylesheet(),
        "paper": paper,
        "query": f"?{query}" if query else "",
        "landscape": False,
    }


def _respond(request: HttpRequest, row: Tournament, context: dict[str, Any], pdf: bool) -> HttpResponse:
    context["pdf"] = pdf
    html = render_to_string("frontend/tournaments/print/sheet.html", context, request=request)
    if not pdf:
        return HttpResponse(html)
    key = _pdf_key(html)
    document = shared_cache.get(key)
    if document is None:
        # A PDF costs 0.4-1.3 s of a core (#37: uncached and unlimited): the same sheet is rendered once
        # (the HTML decides the PDF), and each address renders a few new ones a minute.
        usage = get_usage(request, group="printables.pdf", key="ip", rate=PDF_RATE, increment=True)
        if usage is not None and usage["should_limit"]:
            refused = HttpResponse(_("Too many sheets printed: wait a minute, then try again."), status=429)
            refused["Retry-After"] = "60"
            return refused
        document = render_pdf(html)
        shared_cache.set(key, document, PDF_KEPT)
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="tournament-{row.pk}-{context["sheet"]}.pdf"'
    return response


def _pdf_key(html: str) -> str:
    return "printables:pdf:" + hashlib.sha256(html.encode()).hexdigest()


def render_pdf(html: str) -> bytes:
    """The sheet's HTML as a PDF (WeasyPrint). Nothing is fetched: the stylesheet is inlined, the bracket
    is inline SVG, and any other address (a name cannot make one: names are escaped) is refused."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    class NoFetching(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            raise ValueError("a printed sheet fetches nothing")

    pdf: bytes = HTML(string=html, url_fetcher=NoFetching()).write_pdf()
    return pdf


def print_sheet(request: HttpRequest, tournament_id: int, sheet: str, pdf: bool = False) -> HttpResponse:
    row = _get(tournament_id)
    view = {
        "pairings": _pairings,
        "tables": _table_cards,
        "standings": _standings,
        "bracket": _bracket,
        "score-sheet": _score_sheet,
    }.get(sheet)
    if view is None:
        raise Http404(_("There is no such sheet."))
    return _respond(request, row, view(request, row), pdf)


def print_pdf(request: HttpRequest, tournament_id: int, sheet: str) -> HttpResponse:
    return print_sheet(request, tournament_id, sheet, pdf=True)


# --- The sheets ----------------------------------------------------------------------------------


def _pairings(request: HttpRequest, row: Tournament) -> dict[str, Any]:
    number = _round(request, row)
    entries = _entries(row)
    context = _base(request, row, "pairings", _("Pairings"))
    matches = list(Match.objects.filter(tournament=row, round=number).prefetch_related("games"))
    tables = []
    where: list[tuple[str, tuple[str, str], int]] = []
    title = namer(row)
    best_of = int(row.options.get("best_of", 1))
    for match in matches:
        seats = _seat_names(entries, match.entrants)
        places = (match.result or {}).get("places", {})
        for s in seats:
            s["place"] = places.get(str(s["number"]))
        found = score(match, best_of)
        tables.append(
            {
                "key": match.key,
                "label": table_label(match.key),
                "title": title(match.key),
                "seats": seats,
                "score": found.text(_winner_index(seats)) if found else "",
            }
        )
        # The index says "table 3, seat 1", or for a knockout's match "Semi-final 1 · Seat 1".
        label = table_label(match.key)
        place = ("table", label) if label != match.key else ("match", title(match.key))
        where.extend((s["name"], place, i + 1) for i, s in enumerate(seats))
    rnd = row.rounds.filter(number=number).first()
    byes = [entries[e].shown_name for e in (rnd.byes if rnd else []) if e in entries]
    half = [entries[e].shown_name for e in (rnd.half_byes if rnd else []) if e in entries]
    context.update(
        {
            "round": number,
            "tables": tables,
            "byes": byes,
            "half_byes": half,
            "index": sorted(where, key=lambda x: x[0].casefold()) if len(where) > 8 else [],
            "over_the_board": bool(rnd and rnd.over_the_board),
            # The tournament's page, where each player finds their table and its result.
            "page_url": request.build_absolute_uri(f"/tournaments/{row.pk}/"),
            "qr": qr_svg(request.build_absolute_uri(f"/tournaments/{row.pk}/"), _("The tournament's page")),
        }
    )
    return context


def _table_cards(request: HttpRequest, row: Tournament) -> dict[str, Any]:
    number = _round(request, row)
    entries = _entries(row)
    context = _base(request, row, "tables", _("Table cards"))
    rnd = row.rounds.filter(number=number).first()
    real_cards = bool(rnd and rnd.over_the_board) or row.over_the_board or number in row.board_rounds
    codes: dict[str, str] = {}
    if real_cards and _organiser(request, row) and rnd is not None:
        t = projection.load(row.stream_id)
        codes = {m.key: board.code_of(t, m.key) for m in Match.objects.filter(tournament=row, round=number)}
    page = request.build_absolute_uri(f"/tournaments/{row.pk}/")
    title = namer(row)
    cards = []
    for m in Match.objects.filter(tournament=row, round=number):
        # With real cards, the table's own result entry (its code is typed from the card, never in
        # the address); online, the tournament's page, where each seat's "Play now" is.
        url = request.build_absolute_uri(f"/tournaments/{row.pk}/score/{m.key}/") if real_cards else page
        label = title(m.key)
        cards.append(
            {
                "key": m.key,
                "label": table_label(m.key),
                "title": label,
                "seats": _seat_names(entries, m.entrants),
                "code": codes.get(m.key, ""),
                "qr": qr_svg(url, label),
                "qr_url": url,
            }
        )
    context.update(
        {
            "round": number,
            "cards": cards,
            "over_the_board": real_cards,
            "score_url": request.build_absolute_uri(f"/tournaments/{row.pk}/score/"),
        }
    )
    return context


def _standings(request: HttpRequest, row: Tournament) -> dict[str, Any]:
    entries = sorted(
        _entries(row).values(), key=lambda e: (e.rank is None, e.rank or 0, e.seed or 0, e.number)
    )
    columns = [(c, CRITERION_NAMES.get(c, c)) for c in _criteria(row)]
    context = _base(request, row, "standings", _("Standings"))
    context.update(
        {
            "standings": [
                {"entry": e, "values": [e.values.get(c, "") for c, _name in columns]} for e in entries
            ],
            "columns": columns,
            "after_round": row.rounds.filter(complete=True).count(),
        }
    )
    return context


def _bracket(request: HttpRequest, row: Tournament) -> dict[str, Any]:
    if row.format not in ("single_elimination", "double_elimination"):
        raise Http404(_("This tournament has no bracket."))
    entries = _entries(row)
    drawn = bracket_of_rows(row, entries, list(Match.objects.filter(tournament=row)))
    context = _base(request, row, "bracket", _("Bracket"))
    context.update({"bracket": fit_to_page(drawn) if drawn else "", "landscape": True})
    return context


#: Room for the bracket on a landscape page of A4 or Letter, below the sheet's heading (mm).
BRACKET_BOX = (250.0, 150.0)
PX_TO_MM = 25.4 / 96
MOST_ENLARGED = 1.5


def fit_to_page(svg: str) -> SafeString:
    """The bracket's SVG sized in millimetres to fill the page's room, its proportions kept (a large
    bracket shrinks to one page, a small one grows to be read across a table)."""
    found = re.search(r'width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"', svg)
    if not found:
        return mark_safe(svg)  # noqa: S308 - bracket_svg's own markup, every name escaped there
    width, height = float(found.group(1)) * PX_TO_MM, float(found.group(2)) * PX_TO_MM
    scale = min(BRACKET_BOX[0] / width, BRACKET_BOX[1] / height, MOST_ENLARGED)
    sized = f'width="{width * scale:.1f}mm" height="{height * scale:.1f}mm"'
    svg = svg[: found.start()] + sized + svg[found.end() :]
    # Its own styles: a PDF renderer draws an inline SVG with the SVG's styles, not the page's.
    opened = svg.index(">") + 1
    return mark_safe(svg[:opened] + BRACKET_STYLE + svg[opened:])  # noqa: S308 - as above


BRACKET_STYLE = (
    "<style>rect{fill:#fff;stroke:#000;stroke-width:1.2}"
    "text{font:12px 'DejaVu Sans',sans-serif;fill:#000}"
    "text.section{font-weight:700;font-size:13px}text.won{font-weight:700}text.lost{fill:#666}</style>"
)


def _score_sheet(request: HttpRequest, row: Tournament) -> dict[str, Any]:
    """A blank score sheet for the tournament's game, laid out as its rules count (the names of a
    table's players filled in with ``?table=KEY``)."""
    entries = _entries(row)
    context = _base(request, row, "score-sheet", _("Score sheet"))
    key = PrintQuery(request.GET).value("table", "")
    match = Match.objects.filter(tournament=row, key=key).first() if key else None
    size = int(row.options.get("table_size", 2))
    partnerships = bool(row.options.get("partnerships"))
    if match is not None:
        sides = _seat_names(entries, match.entrants)
    else:
        sides = [{"number": 0, "name": "", "members": []} for _n in range(2 if partnerships else size)]
    players = 4 if partnerships else max(len(sides), 2)
    try:
        config = options.game_config(row.game, row.options, players)
    except Exception:  # noqa: BLE001 - a game without a table of this size: the engine's defaults
        config = engines.get(row.game).default_config(players)
    sheet = engines.get(row.game).score_sheet(config)
    best_of = int(row.options.get("best_of", 1))
    games, won, played = _match_games(match, sides, best_of)
    # A game of one row (a single Kazino deal): a line a game of the match.
    lines = (len(games) or 1) if sheet.one_row else sheet.printed_rows
    context.update(
        {
            "sides": sides,
            "config": config,
            "lines": range(1, lines + 1),
            "table": match,
            "table_label": table_label(match.key) if match else "",
            "table_title": namer(row)(match.key) if match else "",
            "best_of": best_of,
            "match_games": games,
            # The match's table, a row per side and a column per game (a strip that leaves the
            # game's own lines their page).
            "match_sides": [
                {"name": side["name"], "cells": [g["cells"][k] for g in games], "won": won[k]}
                for k, side in enumerate(sides)
            ]
            if games
            else [],
            "match_score": played.text(_winner_index(sides, match)) if played else "",
            "round": match.round if match else None,
            "game": row.game,
            "fives": config.get("variant") == "all_fives",
            "variant": config.get("variant", ""),
            "bonus": bool(config.get("kings_aces_bonus")),
        }
    )
    return context


def _winner_index(seats: list[dict[str, Any]], match: Match | None = None) -> int | None:
    """Which side won (0 or 1), to write its count first in "2–1"; None while undecided."""
    if match is not None:
        places = (match.result or {}).get("places", {})
        seats = [{**s, "place": places.get(str(s["number"]))} for s in seats]
    return next((k for k, s in enumerate(seats) if s.get("place") == 1 and len(seats) == 2), None)


def _match_games(
    match: Match | None, sides: list[dict[str, Any]], best_of: int
) -> tuple[list[dict[str, Any]], list[int | str], Any]:
    """A best of N's rows, one a game (more when a knockout still level plays on): each side's result
    in words once the game is played, and the games won; empty for a match of one game."""
    if best_of <= 1:
        return [], [], None
    played = score(match, best_of) if match is not None else None
    results = played.games if played else []
    rows = []
    for number in range(1, max(best_of, len(results)) + 1):
        winner = results[number - 1] if number <= len(results) else -1
        if winner == -1:
            cells = [""] * len(sides)
        else:
            places = [1, 1] if winner is None else [1 if k == winner else 2 for k in range(2)]
            cells = [word for word, _cls in place_words(list(places))]
        rows.append({"number": number, "cells": cells})
    won: list[int | str] = list(played.wins) if played else [""] * len(sides)
    return rows, won, played
