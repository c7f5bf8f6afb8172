"""The tournament's buttons: one form and one handler per action, posted to ``/tournaments/ID/do/ACTION``.

An action reads its form (frontend/tournament_forms.py), gives the tournament command, and comes
back to the page with a confirmation saying what changed (near the top, ``role=status``: on a phone
the change itself may be far below). Bad input is answered 400 with the page and what was typed;
a command's refusal with its status (403 for one who may not, 400 or 409 otherwise); nothing is
changed by either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from frontend import form_errors
from frontend import tournament_forms as tf
from frontend.match_names import namer
from frontend.query_forms import ActionForm
from frontend.tournament_page import page, undo_text, warning_text
from frontend.tournaments import _get
from games.errors import ServiceError
from games.words import computers
from tournaments import round_warnings, service
from tournaments.commands import clock as clock_commands
from tournaments.models import Entry, Match, Tournament


@dataclass
class Done:
    """What an action did, for the confirmation; ``warnings`` stay shown as warnings."""

    text: str = ""
    warnings: tuple[str, ...] = ()
    anchor: str = ""


@dataclass
class Ask:
    """An action that needs a second press: the page again with ``question`` and the same form;
    ``keep``: the words of the way out (leave things as they are)."""

    question: str
    warnings: tuple[str, ...]
    keep: str = ""


Handler = Callable[["Call"], "Done | Ask"]


@dataclass
class Call:
    request: HttpRequest
    row: Tournament
    by: Any
    data: dict[str, Any]
    form: forms.Form

    def name(self, entrant: int) -> str:
        entry = Entry.objects.filter(tournament=self.row, number=entrant).first()
        return entry.shown_name if entry else str(entrant)


@dataclass(frozen=True)
class Action:
    form: Callable[..., forms.Form]
    handle: Handler
    #: Who may press it without being the organiser (the command checks the rest).
    entrant: bool = False


def _match(row: Tournament, key: str) -> Match:
    match = Match.objects.filter(tournament=row, key=key).first()
    if match is None:
        raise ServiceError("unknown_match", _("There is no such match."))
    return match


# --- Handlers ------------------------------------------------------------------------------------


def _register(c: Call) -> Done:
    user = c.request.user
    service.register(c.row, user.get_username(), user=user, missed=c.data.get("missed") or "zero")  # type: ignore[arg-type]
    return Done(_("You are registered."))


def _add_computers(c: Call) -> Done:
    service.check_organiser(c.row, c.by)
    count = c.data.get("count") or 1
    level = c.data["level"]
    for _n in range(count):
        # A computer entrant is named by its number and level ("Computer 3 (Strong)").
        service.register(c.row, "", bot_level=level, by=c.by)
    return Done(
        ngettext(
            "%(count)s computer player (%(level)s) added.",
            "%(count)s computer players (%(level)s) added.",
            count,
        )
        % {"count": count, "level": computers.LEVEL_NAMES.get(level, level)},
        anchor="standings",
    )


def _paste_names(c: Call) -> Done:
    service.check_organiser(c.row, c.by)
    names: list[str] = c.data["names"]
    for name in names:
        service.register(c.row, name, by=c.by)
    return Done(
        ngettext("%(count)s entrant added.", "%(count)s entrants added.", len(names)) % {"count": len(names)},
        anchor="standings",
    )


def _check_in(c: Call) -> Done:
    service.check_in(c.row, c.data["entrant"], by=c.by)
    return Done(_("%(name)s is checked in.") % {"name": c.name(c.data["entrant"])})


def _check_out(c: Call) -> Done:
    service.check_out(c.row, c.data["entrant"], by=c.by)
    return Done(_("%(name)s is checked out.") % {"name": c.name(c.data["entrant"])}, anchor="standings")


def _set_check_in(c: Call) -> Done:
    service.change_options(c.row, {"check_in": c.data["on"]}, by=c.by)
    if c.data["on"]:
        return Done(_("Players must check in before the start."))
    return Done(_("Players need not check in."))


def _withdraw(c: Call) -> Done:
    service.withdraw(c.row, c.data["entrant"], by=c.by)
    return Done(_("%(name)s is withdrawn.") % {"name": c.name(c.data["entrant"])}, anchor="standings")


def _seed(c: Call) -> Done:
    service.seed(c.row, c.data["method"], c.data["order"], by=c.by)
    return Done(_("The entrants are seeded."), anchor="standings")


def _simple(command: Callable[..., None], text: Callable[[], str]) -> Handler:
    def handle(c: Call) -> Done:
        command(c.row, by=c.by)
        return Done(text())

    return handle


def _table(command: Callable[..., None], text: Callable[[], str]) -> Handler:
    def handle(c: Call) -> Done:
        command(c.row, c.data["game"], by=c.by)
        return Done(text())

    return handle


def _bye(command: Callable[..., None], text: Callable[[], str]) -> Handler:
    def handle(c: Call) -> Done:
        command(c.row, c.data["entrant"], c.data["round"], by=c.by)
        return Done(text() % {"round": c.data["round"]})

    return handle


def _set_rounds(c: Call) -> Done:
    service.set_rounds(c.row, c.data["rounds"], c.data["reason"], by=c.by)
    return Done(_("The tournament now has %(n)s rounds.") % {"n": c.data["rounds"]})


def _forfeit(c: Call) -> Done:
    service.forfeit(c.row, c.data["match"], [c.data["entrant"]], c.data.get("reason") or "", by=c.by)
    return Done(
        _("Forfeit recorded at %(table)s: %(name)s did not come.")
        % {"table": namer(c.row)(c.data["match"]), "name": c.name(c.data["entrant"])}
    )


def _correct(c: Call) -> Done:
    assert isinstance(c.form, tf.CorrectForm)
    service.override(c.row, c.data["match"], c.form.places(), None, c.data["reason"], by=c.by)
    return Done(_("The result of %(table)s is corrected.") % {"table": namer(c.row)(c.data["match"])})


class _Preview(Exception):
    """Rolls back the change made only to see what it would bring."""


def _edit(c: Call) -> Done | Ask:
    d = c.data

    def edit() -> list[round_warnings.PairingWarning]:
        return service.edit_pairing(
            c.row,
            d["edit"],
            a=d.get("a"),
            b=d.get("b"),
            table=d.get("table") or None,
            reason=d["reason"],
            by=c.by,
        )

    names = {e.number: e.shown_name for e in Entry.objects.filter(tournament=c.row)}
    if not d.get("confirmed") and d["edit"] in ("swap", "move"):
        # The change made and undone in one transaction, to show its warnings before it is made
        # (nothing is published: on-commit work of a rolled-back block never runs).
        seen: list[round_warnings.PairingWarning] = []
        try:
            with transaction.atomic():
                seen = edit()
                raise _Preview
        except _Preview:
            pass
        if seen:
            return Ask(
                _("This change brings the warnings below. Make it anyway?"),
                tuple(warning_text(w, names) for w in seen),
            )
    warnings = edit()
    a, b = d.get("a") or 0, d.get("b") or 0
    if d["edit"] == "swap":
        text = _("%(a)s and %(b)s swapped places.") % {"a": names.get(a, a), "b": names.get(b, b)}
    elif d["edit"] == "move":
        where = _("sit out") if d.get("table") == "bye" else namer(c.row)(d.get("table") or "")
        text = _("%(a)s moved to %(table)s.") % {"a": names.get(a, a), "table": where}
    elif d["edit"] == "lock":
        text = _("%(table)s is locked.") % {"table": namer(c.row)(d.get("table") or "")}
    else:
        text = _("%(table)s is unlocked.") % {"table": namer(c.row)(d.get("table") or "")}
    return Done(text, tuple(warning_text(w, names) for w in warnings))


def _undo(c: Call) -> Done | Ask:
    found = service.last_action(c.row.stream_id)
    if not c.data.get("confirmed") and found is not None and found.seq == c.data["seq"] and not found.refusal:
        return Ask(
            _("Undo this action? %(what)s") % {"what": undo_text(c.row, found)},
            (),
            keep=_("Keep it as it is"),
        )
    done = service.undo_last(c.row, c.data["seq"], by=c.by)
    if done is None:
        return Done(_("This action was undone already."))
    return Done(_("Undone: %(what)s") % {"what": undo_text(c.row, done)}, anchor="console")


def _clock(c: Call) -> Done:
    assert isinstance(c.form, tf.RoundClockForm)
    action = c.data["clock"]
    clock_commands.act(c.row, action, c.form.seconds(c.row), by=c.by)
    return Done(
        {
            "set": _("The round's time is set."),
            "start": _("The round's clock is running."),
            "pause": _("The round's clock is paused."),
            "extend": _("The round's time is extended."),
            "last_hand": _("Last hand has been called."),
        }[action],
        anchor="round-clock",
    )


def _clock_rule(c: Call) -> Done:
    clock_commands.set_rule(c.row, c.data["at_time"], by=c.by)
    if c.data["at_time"] == "score":
        return Done(_("A game unfinished at the end of the clock will be scored as it stands."))
    return Done(_("At the end of the clock, you decide what becomes of the tables still playing."))


def _end_at_time(c: Call) -> Done:
    scored = clock_commands.end_at_time(c.row, by=c.by)
    names = ", ".join(namer(c.row)(key) for key in scored)
    return Done(_("The round is ended at time. Scored as they stood: %(tables)s.") % {"tables": names or "–"})


def _screen_languages(c: Call) -> Done:
    clock_commands.set_languages(c.row, c.data["languages"], by=c.by)
    return Done(_("The room screen's languages are saved."))


def _correct_form(row: Tournament, data: Any) -> forms.Form:
    key = data.get("match", "") if hasattr(data, "get") else ""
    match = Match.objects.filter(tournament=row, key=str(key)[:32]).first()
    return tf.CorrectForm(data, entrants=list(match.entrants) if match else [])


def _plain(form: Callable[[Any], forms.Form]) -> Callable[..., forms.Form]:
    """An action's form that needs only what was posted (not the tournament)."""
    return lambda row, data: form(data)


def _whole(command: Callable[..., None], text: Callable[[], str]) -> Action:
    """A command on the whole tournament, no field to fill."""
    return Action(_plain(tf.Blank), _simple(command, text))


def _at_table(command: Callable[..., None], text: Callable[[], str]) -> Action:
    return Action(_plain(tf.TableForm), _table(command, text))


def _bye_action(command: Callable[..., None], text: Callable[[], str]) -> Action:
    """An entrant's own half-point bye for a round (asked for or cancelled)."""
    return Action(_plain(tf.ByeForm), _bye(command, text), entrant=True)


ACTIONS: dict[str, Action] = {
    "register": Action(_plain(tf.RegisterForm), _register, entrant=True),
    "add_bot": Action(_plain(tf.AddComputersForm), _add_computers),
    "paste_names": Action(_plain(tf.PasteNamesForm), _paste_names),
    "check_in": Action(_plain(tf.EntrantForm), _check_in, entrant=True),
    "check_out": Action(_plain(tf.EntrantForm), _check_out, entrant=True),
    "set_check_in": Action(_plain(tf.CheckInSettingForm), _set_check_in),
    "withdraw": Action(_plain(tf.EntrantForm), _withdraw, entrant=True),
    "seed": Action(_plain(tf.SeedForm), _seed),
    "start": _whole(service.start, lambda: _("The tournament has started.")),
    "start_round": _whole(service.start_round, lambda: _("The round has started.")),
    "repair": _whole(service.repair, lambda: _("The round is paired again.")),
    "pause": _whole(service.pause, lambda: _("The tournament is paused.")),
    "resume": _whole(service.resume, lambda: _("The tournament goes on.")),
    "pause_table": _at_table(service.pause_table, lambda: _("The table is held.")),
    "resume_table": _at_table(service.resume_table, lambda: _("The table plays on.")),
    "override": Action(_correct_form, _correct),
    "set_rounds": Action(_plain(tf.SetRoundsForm), _set_rounds),
    "request_bye": _bye_action(service.request_bye, lambda: _("Half-point bye asked for round %(round)s.")),
    "cancel_bye": _bye_action(service.cancel_bye, lambda: _("Half-point bye in round %(round)s cancelled.")),
    "edit_pairing": Action(_plain(tf.EditPairingForm), _edit),
    "forfeit": Action(_plain(tf.ForfeitForm), _forfeit),
    "undo": Action(_plain(tf.UndoForm), _undo),
    "clock": Action(_plain(tf.RoundClockForm), _clock),
    "clock_rule": Action(_plain(tf.ClockRuleForm), _clock_rule),
    "end_at_time": Action(_plain(tf.Blank), _end_at_time),
    "screen_languages": Action(_plain(tf.ScreenLanguagesForm), _screen_languages),
}

# A refusal for lack of rights is 403; others keep the command's own status (400, 409).
FORBIDDEN_CODES = ("sign_in", "not_organiser")


def _again(request: HttpRequest, row: Tournament, action: str, status: int, **typed: Any) -> HttpResponse:
    """The page again, at ``status``, with what was typed in the action's form."""
    return page(request, row, status=status, typed={"action": action, "data": request.POST, **typed})


@require_POST
def do(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    found = ACTIONS.get(action)
    if found is None:
        raise Http404(_("Unknown action."))
    row = _get(tournament_id)
    user: Any = request.user
    if not user.is_authenticated:
        messages.error(request, _("Sign in first."))
        return _again(request, row, action, 403)
    form = found.form(row, request.POST)
    if not form.is_valid():
        messages.error(request, form_errors.sentence(form))
        return _again(request, row, action, 400)
    call = Call(request, row, user, form.cleaned_data, form)
    try:
        done = found.handle(call)
    except ServiceError as exc:
        messages.error(request, exc.localized()["message"])
        status = 403 if exc.code in FORBIDDEN_CODES else exc.status
        return _again(request, row, action, status)
    if isinstance(done, Ask):
        for warning in done.warnings:
            messages.warning(request, warning)
        return _again(request, row, action, 200, question=done.question, keep=done.keep)
    if done.text:
        messages.success(request, done.text)
    for warning in done.warnings:
        messages.warning(request, warning)
    return redirect("frontend:tournament", row.pk)


@require_POST
def act(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The former single address, ``/tournaments/ID/act`` with ``action``: the same forms (pages
    cached before #32 post here)."""
    form = ActionForm(request.POST)
    return do(request, tournament_id, form.cleaned_data["action"] if form.is_valid() else "")
