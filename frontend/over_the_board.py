"""Tables played with real cards ("over the board", issue #20 item 5): the phones' score entry and the
organiser's page.

A player reaches their table's score entry signed in (their entrant sits at it) or with the table's
code, typed into a form (never in an address: the access log would keep it) and kept in the session
with the entrant the phone speaks for. Every entry, confirmation, dispute and decision goes through
``tournaments.service`` as an event of the tournament's log; the pages read the projection rows
(``Match.board``), and fold the log only where a table's code is checked or shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from frontend import form_errors
from frontend import over_the_board_forms as of
from frontend.match_names import namer
from frontend.score_sheet import as_form, form_rows, parse_hands, rows_in, sheet_of, summary
from frontend.tournaments import _get, _organiser
from games import engines
from games.errors import ServiceError
from tournaments import board, projection, service
from tournaments.models import Entry, Match, Tournament

SESSION_KEY = "board_tables"  # {tournament id: {table key: {"code": code, "entrant": n}}}
CODE_RATE = "10/m"  # wrong codes typed per address, tournament and minute
#: The refusals of a typed code that count towards ``CODE_RATE`` (other refusals are no guess).
CODE_REFUSALS = ("seat_code", "bad_code")


# --- Who is at which table -----------------------------------------------------------------------


def _held(request: HttpRequest, row: Tournament) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = request.session.get(SESSION_KEY, {}).get(str(row.pk), {})
    return found


def _hold(request: HttpRequest, row: Tournament, key: str, **values: Any) -> None:
    tables = request.session.get(SESSION_KEY, {})
    mine = tables.setdefault(str(row.pk), {})
    mine.setdefault(key, {}).update(values)
    request.session[SESSION_KEY] = tables


def _my_entrant(request: HttpRequest, row: Tournament, match: Match) -> int | None:
    """The entrant a signed-in player is at this table."""
    user: Any = request.user
    if not user.is_authenticated:
        return None
    found = Entry.objects.filter(tournament=row, user=user, number__in=match.entrants).first()
    return found.number if found else None


def _current_board_matches(row: Tournament) -> list[Match]:
    rnd = row.rounds.filter(number=row.round).first()
    if rnd is None or not rnd.over_the_board or not rnd.started:
        return []
    return list(Match.objects.filter(tournament=row, round=row.round))


def board_config(row: Tournament, match: Match) -> dict[str, Any]:
    players = 4 if row.options.get("partnerships") else len(match.entrants)
    try:
        return service.game_config(row.game, row.options, players)
    except ServiceError:
        return engines.get(row.game).default_config(players)


# --- The landing page: a player's table, or the code form ----------------------------------------


def score_home(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    matches = _current_board_matches(row)
    if request.method == "POST":
        return _typed_code(request, row)
    mine = []
    held = _held(request, row)
    for match in matches:
        if _my_entrant(request, row, match) is not None or match.key in held:
            mine.append(match)
    if len(mine) == 1 and not of.ShowForm(request.GET).value("all", False):
        return redirect("frontend:score_table", row.pk, mine[0].key)
    names = {e.number: e.shown_name for e in Entry.objects.filter(tournament=row)}
    context = {
        "t": row,
        "playing": bool(matches),
        "mine": [(m, namer(row)(m.key), [names.get(e, "") for e in m.entrants]) for m in mine],
        "organiser": _organiser(request, row),
    }
    return render(request, "frontend/tournaments/score_home.html", context)


def _typed_code(request: HttpRequest, row: Tournament) -> HttpResponse:
    """A table's code typed on a phone: checked (a few tries a minute per address), then kept in the
    session; the address it leads to names the table, never the code.

    Only wrong codes count, per tournament and address (#37: right codes counted too, and across
    tournaments, so ten mistakes on a club's shared Wi-Fi locked every phone of every event out)."""
    if _codes_spent(request, row):
        messages.error(request, _("Too many codes tried: wait a minute, then try again."))
        return redirect("frontend:score_home", row.pk)
    form = of.CodeForm(request.POST)
    typed = board.normal_code(form.cleaned_data["code"]) if form.is_valid() else ""
    key = board.code_table(projection.load(row.stream_id), typed) if typed else None
    if key is None:
        _code_refused(request, row)
        messages.error(request, _("That is not the code of a table of this round."))
        return redirect("frontend:score_home", row.pk)
    _hold(request, row, key, code=typed)
    return redirect("frontend:score_table", row.pk, key)


def _code_group(row: Tournament) -> str:
    return f"tournaments.table_code.{row.pk}"


def _codes_spent(request: HttpRequest, row: Tournament) -> bool:
    """Whether this address has typed ``CODE_RATE`` refused codes (table or seat codes) in this
    tournament this minute: right codes and other tournaments' codes never count (#37)."""
    usage = get_usage(request, group=_code_group(row), key="ip", rate=CODE_RATE, increment=False)
    return usage is not None and usage["count"] >= usage["limit"]


def _code_refused(request: HttpRequest, row: Tournament) -> None:
    get_usage(request, group=_code_group(row), key="ip", rate=CODE_RATE, increment=True)


# --- One table's score entry ---------------------------------------------------------------------


def _access(request: HttpRequest, row: Tournament, match: Match) -> tuple[int | None, str | None, bool]:
    """(the entrant this browser speaks for, the table code it holds when it speaks by the code,
    whether it is the organiser's)."""
    organiser = _organiser(request, row)
    mine = _my_entrant(request, row, match)
    if mine is not None:
        return mine, None, organiser
    held = _held(request, row).get(match.key)
    if held:
        chosen = held.get("entrant")
        return (chosen if chosen in match.entrants else None), held.get("code"), organiser
    return None, None, organiser


def score_table(request: HttpRequest, tournament_id: int, key: str) -> HttpResponse:
    row = _get(tournament_id)
    match = Match.objects.filter(tournament=row, key=key).first()
    rnd = row.rounds.filter(number=match.round).first() if match else None
    if match is None or rnd is None or not rnd.over_the_board:
        raise Http404(_("There is no such table played with real cards."))
    entrant, code, organiser = _access(request, row, match)
    held = _held(request, row).get(key)
    if entrant is None and not organiser and not held:
        messages.info(request, _("Type the code on your table card, or sign in."))
        return redirect("frontend:score_home", row.pk)
    if request.method == "POST":
        return _act(request, row, match, entrant, code, organiser)
    return _page(request, row, match, entrant, organiser, needs_who=bool(held) and entrant is None)


def _page(
    request: HttpRequest,
    row: Tournament,
    match: Match,
    entrant: int | None,
    organiser: bool,
    *,
    needs_who: bool,
    rows: int | None = None,
    values: Any = None,
    status: int = 200,
) -> HttpResponse:
    entries = {e.number: e for e in Entry.objects.filter(tournament=row, number__in=match.entrants)}
    sides = [{"number": n, "name": entries[n].shown_name if n in entries else str(n)} for n in match.entrants]
    names = {s["number"]: s["name"] for s in sides}  # every summary below reads them from here
    config = board_config(row, match)
    games = list(match.board)
    recorded = [g for g in games if g.get("places")]
    number = len(recorded) + 1
    current = games[number - 1] if len(games) >= number else None
    pending = current if current and current.get("hands") is not None else None
    decided = match.result is not None
    best_of = int(row.options.get("best_of", 1))
    correcting = int(of.ShowForm(request.GET).value("correct", 0)) if organiser else 0
    if correcting and not 1 <= correcting <= len(recorded):
        correcting = 0
    prefill = values
    if prefill is None and correcting:
        prefill = as_form(row.game, config, recorded[correcting - 1].get("recorded_hands") or [])
    elif prefill is None and pending and (entrant == pending.get("entered_by") or organiser):
        prefill = as_form(row.game, config, pending["hands"])
    sheet = sheet_of(row.game, config)
    hands_in_form = 1 if sheet.one_row else rows or max(sheet.rows, rows_in(prefill))
    context = {
        "t": row,
        "match": match,
        "label": namer(row)(match.key),
        "sides": sides,
        "me": next((s["name"] for s in sides if s["number"] == entrant), ""),
        "entered_by": next(
            (s["name"] for s in sides if pending and s["number"] == pending.get("entered_by")), ""
        ),
        "entrant": entrant,
        "organiser": organiser,
        "needs_who": needs_who,
        # Speaking by the table's code: a confirmation asks for the code of one's own seat (#37).
        "by_code": entrant is not None and _my_entrant(request, row, match) is None,
        "game": row.game,
        "config": config,
        "one_row": sheet.one_row,
        "number": number,
        "best_of": best_of,
        "decided": decided,
        "pending": summary(row, match, config, pending["hands"], names) if pending else None,
        "pending_game": pending,
        "confirmed": set(pending.get("confirmed", [])) if pending else set(),
        # Who disagreed with this entry: asked again, they could confirm what they sent to the
        # organiser; a new entry clears the disputes and asks everyone again.
        "disputed_by": {d["entrant"] for d in pending.get("disputes", [])} if pending else set(),
        "waiting_for": [s for s in sides if pending and s["number"] not in board.answered(pending)],
        "recorded": [
            (g, summary(row, match, config, g.get("recorded_hands") or [], names)) for g in recorded
        ],
        "correcting": correcting,
        "form_rows": form_rows(row.game, config, sides, hands_in_form, prefill),
        "form_count": hands_in_form,
        "open": not decided and row.status != "finished",
        "seq": row.seq,
    }
    return render(request, "frontend/tournaments/score_entry.html", context, status=status)


@dataclass
class _Press:
    """One button of a table's score entry, its form read: who pressed it and what it carries."""

    request: HttpRequest
    row: Tournament
    match: Match
    entrant: int | None
    code: str | None
    organiser: bool
    data: dict[str, Any]

    @property
    def user(self) -> Any:
        return self.request.user if self.request.user.is_authenticated else None

    def page(self, *, rows: int | None = None, values: Any = None, status: int = 200) -> HttpResponse:
        return _page(
            self.request, self.row, self.match, self.entrant, self.organiser,
            needs_who=False, rows=rows, values=values, status=status,
        )  # fmt: skip


def _who(p: _Press) -> HttpResponse | None:
    if p.data["entrant"] not in p.match.entrants or p.match.key not in _held(p.request, p.row):
        raise ServiceError("not_at_table", _("Only the players of this table can do this."))
    _hold(p.request, p.row, p.match.key, entrant=p.data["entrant"])
    return redirect("frontend:score_table", p.row.pk, p.match.key)


def _more(p: _Press) -> HttpResponse | None:
    count = min((1 if p.data["count"] is None else p.data["count"]) + 1, board.MAX_HANDS)
    return p.page(rows=count, values=p.request.POST)


def _enter(p: _Press) -> HttpResponse | None:
    hands = parse_hands(p.row.game, board_config(p.row, p.match), p.match.entrants, p.request.POST)
    if p.organiser and p.entrant is None:
        return _resolve(p, hands)
    service.enter_result(
        p.row, p.match.key, p.data["game"], hands, entrant=p.entrant, user=p.user, code=p.code
    )
    return None


def _resolve(p: _Press, hands: list[dict[str, Any]] | None = None) -> HttpResponse | None:
    if hands is None:
        hands = parse_hands(p.row.game, board_config(p.row, p.match), p.match.entrants, p.request.POST)
    service.resolve_result(p.row, p.match.key, p.data["game"], hands, p.data["reason"], by=p.user)
    return None


def _accept(p: _Press) -> HttpResponse | None:
    service.resolve_result(p.row, p.match.key, p.data["game"], None, p.data["reason"], by=p.user)
    return None


def _seat_code(p: _Press) -> str | None:
    """By the table's code a phone proves a seat at the table, not which: an answer takes the code
    of the answering player's own seat (#37 item 4), tried as codes are."""
    if p.code is None:
        return None
    if _codes_spent(p.request, p.row):
        raise ServiceError("too_many", _("Too many codes tried: wait a minute, then try again."))
    return board.normal_code(p.data["seat_code"]) or p.code


def _answered(p: _Press, answer: Callable[[str | None], Any]) -> None:
    code = _seat_code(p)
    try:
        answer(code)
    except ServiceError as refused:
        if code is not None and refused.code in CODE_REFUSALS:
            _code_refused(p.request, p.row)
        raise


def _confirm(p: _Press) -> HttpResponse | None:
    game, seen = p.data["game"], p.data["seen"] or 0
    _answered(
        p,
        lambda code: service.confirm_result(
            p.row, p.match.key, game, seen, entrant=p.entrant, user=p.user, code=code
        ),
    )
    return None


def _dispute(p: _Press) -> HttpResponse | None:
    game, seen, reason = p.data["game"], p.data["seen"] or 0, p.data["reason"]
    _answered(
        p,
        lambda code: service.dispute_result(
            p.row, p.match.key, game, seen, reason, entrant=p.entrant, user=p.user, code=code
        ),
    )
    return None


#: Each button of the score entry: its form and what it does (None: done, the table's page next).
BUTTONS: dict[str, tuple[type[forms.Form], Callable[[_Press], HttpResponse | None]]] = {
    "who": (of.WhoForm, _who),
    "more": (of.MoreRowsForm, _more),
    "enter": (of.EntryForm, _enter),
    "resolve": (of.EntryForm, _resolve),
    "accept": (of.AcceptForm, _accept),
    "confirm": (of.AnswerForm, _confirm),
    "dispute": (of.DisputeForm, _dispute),
}
#: The buttons of the score sheet: refused, the sheet comes back as it was typed.
SHEET = ("enter", "resolve")


def _act(
    request: HttpRequest,
    row: Tournament,
    match: Match,
    entrant: int | None,
    code: str | None,
    organiser: bool,
) -> HttpResponse:
    back = redirect("frontend:score_table", row.pk, match.key)
    button = of.ButtonForm(request.POST, BUTTONS)
    if not button.is_valid():
        messages.error(request, form_errors.sentence(button))
        return back
    action = button.cleaned_data["action"]
    form_class, handler = BUTTONS[action]
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors.sentence(form))
        values = request.POST if action in SHEET else None
        rows = form.cleaned_data.get("count")
        return _page(
            request, row, match, entrant, organiser,
            needs_who=False, rows=1 if rows is None else rows, values=values, status=400,
        )  # fmt: skip
    press = _Press(request, row, match, entrant, code, organiser, form.cleaned_data)
    try:
        answer = handler(press)
    except ServiceError as exc:
        messages.error(request, exc.localized()["message"])
        if action in SHEET:  # the form again, as it was typed
            assert isinstance(form, of.EntryForm)
            return press.page(rows=form.rows(), values=request.POST)
        return back
    if answer is not None:
        return answer
    messages.success(request, _done(action))
    return back


def _done(action: str) -> str:
    return {
        "enter": _("Entered. The other players of the table confirm it on their phones."),
        "confirm": _("Confirmed."),
        "dispute": _("Your disagreement goes to the organiser."),
        "resolve": _("Recorded."),
        "accept": _("Recorded."),
    }.get(action, "")


# --- The organiser's page ------------------------------------------------------------------------


def _tournament_on(row: Tournament, data: dict[str, Any], user: Any) -> None:
    service.set_over_the_board(row, data["on"], by=user)


def _round_on(row: Tournament, data: dict[str, Any], user: Any) -> None:
    service.set_round_over_the_board(row, data["round"], data["on"], by=user)


def _add_player(row: Tournament, data: dict[str, Any], user: Any) -> None:
    service.register(row, data["name"], by=user)


#: The organiser's buttons: each its form and its command.
SWITCHES: dict[str, tuple[type[forms.Form], Callable[[Tournament, dict[str, Any], Any], None]]] = {
    "tournament": (of.TournamentBoardForm, _tournament_on),
    "round": (of.RoundBoardForm, _round_on),
    "add_player": (of.AddPlayerForm, _add_player),
}


def _switch(request: HttpRequest, row: Tournament) -> None:
    button = of.ButtonForm(request.POST, SWITCHES)
    form = SWITCHES[button.cleaned_data["action"]][0](request.POST) if button.is_valid() else button
    if not form.is_valid():
        messages.error(request, form_errors.sentence(form))
        return
    try:
        SWITCHES[button.cleaned_data["action"]][1](row, form.cleaned_data, request.user)
    except ServiceError as exc:
        messages.error(request, exc.localized()["message"])


def board_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    if not _organiser(request, row):
        raise Http404(_("There is no such page."))
    if request.method == "POST":
        _switch(request, row)
        return redirect("frontend:board", row.pk)
    row.refresh_from_db()
    t = projection.load(row.stream_id)
    title = namer(row)
    names = {e.number: e.shown_name for e in Entry.objects.filter(tournament=row)}
    tables = []
    for match in _current_board_matches(row):
        games = match.board
        recorded = [g for g in games if g.get("places")]
        current = games[len(recorded)] if len(games) > len(recorded) else None
        if match.result is not None:
            state = "decided"
        elif current and current.get("disputes"):
            state = "disputed"
        elif current and current.get("hands") is not None:
            state = "entered"
        else:
            state = "waiting"
        tables.append(
            {
                "match": match,
                "label": title(match.key),
                "names": [names.get(e, str(e)) for e in match.entrants],
                "code": board.code_of(t, match.key),
                "seat_codes": [
                    (names.get(e, str(e)), board.seat_code_of(t, match.key, e)) for e in match.entrants
                ],
                "state": state,
                "disputes": [
                    (names.get(d["entrant"], ""), d.get("reason", ""))
                    for d in (current or {}).get("disputes", [])
                ],
                "waiting_for": [
                    names.get(e, str(e))
                    for e in match.entrants
                    if current and e not in board.answered(current)
                ],
                "places": [(match.result or {}).get("places", {}).get(str(e)) for e in match.entrants],
            }
        )
    started = sum(1 for r in t.rounds if r.started)
    context = {
        "t": row,
        "tables": tables,
        "board_rounds": sorted(row.board_rounds),
        # The rounds still to start: no round 3 in a 2-round event (#30 defect 11); a format without a
        # planned number (a knockout) offers the next three.
        "next_rounds": range(started + 1, (row.planned_rounds or started + 3) + 1),
        "can_add": row.status == "registration"
        or (row.options.get("late_entry") and row.status != "finished"),
        "current_round": row.rounds.filter(number=row.round).first(),
        "seq": row.seq,
    }
    return render(request, "frontend/tournaments/board.html", context)
