"""The organiser's round grid for real-card rounds (#30): every table's result of the round in one form.

Each table open for a result is one Django form of the grid (its prefix ``t<N>``), with the fields of
the single entry (``frontend/over_the_board.py``: the same names, the same rows of hands) under that
prefix. A table left blank is skipped. Every filled table is checked by the rules a single entry is
checked by (``tournaments.board.score``), each error shown at its table with what was typed kept; the
grid is **all or nothing**: if any table is refused nothing is stored, else all are recorded in one
command (``service.resolve_round``). A disputed game is not in the grid: it is decided at its table,
with a reason. A table already recorded is shown with its places (a correction is made at its table).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from frontend.over_the_board import _current_board_matches, board_config
from frontend.printables import table_label
from frontend.query_forms import RowsQuery
from frontend.score_sheet import form_rows, parse_hands, sheet_of
from frontend.tournaments import _get, _int, _organiser
from games import bounds
from games.engines.base import IllegalAction
from games.errors import ServiceError
from tournaments import board, formats, projection, service
from tournaments.models import Entry, Match, Tournament

#: Rows of hands each table shows at most in the grid (a game with more hands is entered at its table).
MOST_ROWS = 30


class _Under:
    """One table's values of the posted grid, read without their prefix (as the single entry names them)."""

    def __init__(self, data: Any, prefix: str) -> None:
        self.data, self.prefix = data, prefix

    def get(self, name: str, default: Any = "") -> Any:
        return self.data.get(f"{self.prefix}-{name}", default)


class TableForm(forms.Form):
    """One table of the grid: the open game it is for, how many rows of hands were shown, and (read by
    ``parse_hands``) the hands typed; ``clean`` checks them by the game's rules."""

    game = forms.IntegerField(min_value=1, max_value=bounds.BEST_OF.high, label=gettext_lazy("Game"))
    count = forms.IntegerField(min_value=0, max_value=MOST_ROWS, required=False, label=gettext_lazy("Rows"))

    def __init__(self, data: Any, *, prefix: str, row: Tournament, match: Match) -> None:
        super().__init__(data, prefix=prefix)
        self.row, self.match, self.grid_prefix = row, match, prefix
        self.config = board_config(row, match)
        self.hands: list[dict[str, Any]] = []

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        self.hands = parse_hands(
            self.row.game, self.config, list(self.match.entrants), _Under(self.data, self.grid_prefix)
        )
        if self.hands:
            try:
                board.score(self.row.game, self.config, list(self.match.entrants), self.hands)
            except IllegalAction as exc:
                raise forms.ValidationError(ServiceError.from_illegal(exc).localized()["message"]) from None
        return data


def _prefixed(rows: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    """The single entry's rows with every field's name under the table's prefix."""
    for line in rows:
        for player in line["players"]:
            for field in player["inputs"]:
                field["name"] = f"{prefix}-{field['name']}"
        for choice in line["choices"]:
            choice["name"] = f"{prefix}-{choice['name']}"
    return rows


def round_grid(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    if not _organiser(request, row):
        raise Http404(_("There is no such page."))
    matches = _current_board_matches(row)
    t = projection.load(row.stream_id)
    names = {e.number: e.shown_name for e in Entry.objects.filter(tournament=row)}
    first = sheet_of(row.game, board_config(row, matches[0])).rows if matches else 1
    shown = max(1, min(RowsQuery(request.GET).value("rows", first), MOST_ROWS))
    posted = request.method == "POST"
    tables: list[dict[str, Any]] = []
    grid: list[tuple[TableForm, Match, int]] = []
    for index, match in enumerate(matches, start=1):
        table = t.table(match.key)
        number = formats.board_game_open(t, table)
        item: dict[str, Any] = {
            "key": match.key,
            "label": table_label(match.key),
            "names": [names.get(e, str(e)) for e in match.entrants],
            "state": "decided" if number is None else "open",
        }
        if number is None:
            result = table.result
            item["places"] = [
                (names.get(e, str(e)), result.places.get(e) if result else None) for e in match.entrants
            ]
        elif table.board_game(number).disputed:
            item["state"] = "disputed"
        else:
            prefix = f"t{index}"
            form = TableForm(request.POST if posted else None, prefix=prefix, row=row, match=match)
            values = {k[len(prefix) + 1 :]: v for k, v in request.POST.items() if k.startswith(f"{prefix}-")}
            count = min(_int(values.get("count"), shown), MOST_ROWS) if posted else shown
            sides = [{"number": e, "name": names.get(e, str(e))} for e in match.entrants]
            item |= {
                "prefix": prefix,
                "game": number,
                "count": count,
                "best_of": int(row.options.get("best_of") or 1),
                "rows": _prefixed(form_rows(row.game, form.config, sides, count, values), prefix),
                "form": form,
            }
            grid.append((form, match, number))
        tables.append(item)
    status = 200
    if posted:
        if not grid:
            messages.error(request, _("No table of this round takes a result now."))
            status = 409
        elif all(form.is_valid() for form, _m, _n in grid):
            entries = {m.key: (n, f.hands) for f, m, n in grid if f.hands}
            try:
                done = service.resolve_round(row, entries, by=request.user)  # type: ignore[arg-type]
            except ServiceError as exc:
                messages.error(request, exc.localized()["message"])
                status = 403 if exc.code == "not_organiser" else exc.status
            else:
                messages.success(
                    request,
                    ngettext("%(n)s table recorded.", "%(n)s tables recorded.", done) % {"n": done},
                )
                return redirect("frontend:round_grid", row.pk)
        else:
            messages.error(
                request, _("Nothing was stored: correct the tables marked below, then send again.")
            )
            status = 400
    context = {
        "t": row,
        "tables": tables,
        "shown": shown,
        "most_rows": MOST_ROWS,
        "game": row.game,
        "round": row.round,
        "open": bool(grid),
    }
    return render(request, "frontend/tournaments/round_grid.html", context, status=status)
