"""The organiser console's and the entrant's tournament actions, one Django form each (#32).

Each form reads what one button posts to ``/tournaments/ID/do/ACTION`` (frontend/console.py): its
numbers through ``games/bounds.py`` (refused before any work, the same bound the API states), its
texts cut at their bound. A form says nothing of whether the action is allowed now: the tournament
command decides that from the log and refuses with a ServiceError.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games import bounds
from games.words import computers
from tournaments.commands import clock as clock_commands
from tournaments.models import Tournament

#: Entrants an organiser may add at once from a pasted list, one name a line.
MOST_PASTED = 200


class Blank(forms.Form):
    """An action that takes nothing but the button (start, pause, resume, pair again…)."""


def _text(bound: bounds.Text, label: Any, *, required: bool = True) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=bound.most,
        required=required,
        strip=True,
        error_messages={"required": _("A reason is needed: it is kept in the log with the change.")},
    )


class RegisterForm(forms.Form):
    missed = forms.ChoiceField(
        label=_("For the rounds you missed"),
        choices=[("zero", _("no points")), ("half", _("half a point each"))],
        required=False,
    )


class AddComputersForm(forms.Form):
    level = forms.ChoiceField(label=_("Computer player"), choices=list(computers.LEVEL_NAMES.items()))
    count = bounds.COMPUTERS.form_field(label=_("How many"), required=False)


class PasteNamesForm(forms.Form):
    """Entrants from a pasted list: one name a line; blank lines are skipped."""

    names = forms.CharField(
        label=_("Names, one a line"), widget=forms.Textarea, max_length=MOST_PASTED * (bounds.NAME.most + 2)
    )

    def clean_names(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["names"].splitlines()]
        names = [line for line in lines if line]
        if not names:
            raise forms.ValidationError(_("Write at least one name."), code="empty")
        if len(names) > MOST_PASTED:
            raise forms.ValidationError(
                _("At most %(most)s names at once."), code="too_many", params={"most": MOST_PASTED}
            )
        long = [n for n in names if len(n) > bounds.NAME.most]
        if long:
            raise forms.ValidationError(
                _("A name may have at most %(most)s characters."),
                code="too_long",
                params={"most": bounds.NAME.most},
            )
        return names


class EntrantForm(forms.Form):
    entrant = bounds.ENTRANT.form_field(label=_("Entrant"))


class CheckInSettingForm(forms.Form):
    """Whether players must check in (the organiser changes it before the start, #30)."""

    # "1" or "0" from the button's hidden field (a checkbox widget would read "0" as ticked).
    on = forms.TypedChoiceField(
        label=_("Players must check in"), choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1"
    )


class ByeForm(EntrantForm):
    round = bounds.ROUND.form_field(label=_("Round"))


class SeedForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Seeding"),
        choices=[("random", _("at random")), ("rating", _("by rating")), ("manual", _("in this order:"))],
    )
    order = forms.CharField(label=_("Entrant numbers, best first"), required=False, max_length=2000)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("method") != "manual":
            data["order"] = None
            return data
        words = (data.get("order") or "").replace(",", " ").split()
        if not words:
            self.add_error("order", _("Give the entrant numbers in order, best first."))
            return data
        try:
            data["order"] = [bounds.ENTRANT.parse(w, str(_("Entrant"))) for w in words]
        except bounds.OutOfBounds as exc:
            self.add_error("order", exc.localized()["message"])
        return data


class TableForm(forms.Form):
    game = bounds.ID.form_field(label=_("Table"))


class ReasonForm(forms.Form):
    reason = _text(bounds.REASON, _("Reason"))


class SetRoundsForm(ReasonForm):
    rounds = bounds.ROUNDS.form_field(label=_("Number of rounds"))


class EditPairingForm(ReasonForm):
    edit = forms.ChoiceField(
        label=_("Change"),
        choices=[
            ("swap", _("swap two players")),
            ("move", _("move a player")),
            ("lock", _("lock a table")),
            ("unlock", _("unlock a table")),
        ],
    )
    a = bounds.ENTRANT.form_field(label=_("Player"), required=False)
    b = bounds.ENTRANT.form_field(label=_("with"), required=False)
    table = forms.CharField(label=_("Table"), max_length=32, required=False)
    #: Set by the second press, once the warnings the change brings were shown (defect 7).
    confirmed = forms.BooleanField(required=False)


class MatchForm(forms.Form):
    match = forms.CharField(label=_("Table"), max_length=32)


class ForfeitForm(MatchForm):
    entrant = bounds.ENTRANT.form_field(label=_("Who did not come?"))
    reason = _text(bounds.REASON, _("Reason"), required=False)


class CorrectForm(MatchForm):
    """A correction: the place of each entrant of the match (``place-N``, N the entrant's number),
    the fields made from the match's own entrants, and a reason."""

    reason = _text(bounds.REASON, _("Reason"))

    def __init__(self, *args: Any, entrants: list[int] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entrants = list(entrants or [])
        for e in self.entrants:
            self.fields[f"place-{e}"] = bounds.PLACE.form_field(
                label=_("Place"), max_value=max(len(self.entrants), 1)
            )

    def places(self) -> dict[str, int]:
        return {str(e): int(self.cleaned_data[f"place-{e}"]) for e in self.entrants}


class UndoForm(forms.Form):
    """Undo of the last console action: ``seq``, the action's last event as the button named it (a
    page out of date undoes nothing else), and the second press that confirms it."""

    seq = bounds.SEQ.form_field(label=_("Action"))
    confirmed = forms.BooleanField(required=False)


class RoundClockForm(forms.Form):
    """The round clock's buttons (the console's and the clock page's): set (the minutes given, else
    the round estimate), start, pause, extend (by the minutes given), call last hand."""

    clock = forms.ChoiceField(label=_("Clock"), choices=[(a, a) for a in clock_commands.ACTIONS])
    minutes = bounds.CLOCK_MINUTES.form_field(required=False, label=_("Minutes"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("clock") == "extend" and not data.get("minutes"):
            self.add_error("minutes", _("Say by how many minutes."))
        return data

    def seconds(self, row: Tournament) -> int | None:
        """The seconds the action gives: the minutes typed, else the round estimate to set."""
        minutes = self.cleaned_data.get("minutes")
        if minutes:
            return int(minutes) * 60
        return clock_commands.default_seconds(row) if self.cleaned_data["clock"] == "set" else None


class ClockRuleForm(forms.Form):
    at_time = forms.ChoiceField(
        label=_("A game unfinished at the end of the clock"),
        choices=[("director", "director"), ("score", "score")],
    )


class ScreenLanguagesForm(forms.Form):
    languages = forms.MultipleChoiceField(
        label=_("The room screen's languages"),
        choices=[(code, code) for code, _name in settings.LANGUAGES],
    )

    def clean_languages(self) -> list[str]:
        chosen: list[str] = self.cleaned_data["languages"]
        if len(chosen) > 3:
            raise forms.ValidationError(_("Choose one to three of the site's languages."))
        return chosen
