"""The forms of the real-card pages (#32): the code typed on a phone, each button of a table's score
entry, and the organiser's switches. One form per button, read before anything is looked up; the
tournament command decides whether the button may be pressed now.

The score sheet's own fields (``h{row}-...``) are the engine's and are read by frontend/score_sheet.py.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from frontend.query_forms import QueryForm
from games import bounds

GIVE_A_REASON = _("Give a reason: the organiser reads it, and the log keeps it.")


def _reason(*, required: bool) -> forms.CharField:
    return forms.CharField(
        label=_("Reason"),
        max_length=bounds.REASON.most,
        required=required,
        strip=True,
        error_messages={"required": GIVE_A_REASON},
    )


def _on() -> forms.TypedChoiceField:
    # "1" or "0" from the button's hidden field (a checkbox widget would read "0" as ticked).
    return forms.TypedChoiceField(
        label=_("Played with real cards"), choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1"
    )


class ButtonForm(forms.Form):
    """Which of a page's buttons was pressed (``action``): one of ``actions``, else "Unknown action"."""

    action = forms.ChoiceField(
        error_messages={"invalid_choice": _("Unknown action."), "required": _("Unknown action.")}
    )

    def __init__(self, data: Any, actions: Any) -> None:
        super().__init__(data)
        self.fields["action"].choices = [(a, a) for a in actions]  # type: ignore[attr-defined]


class CodeForm(forms.Form):
    """The table's code typed on a phone (a text too long is no code, and counts as a wrong one)."""

    code = forms.CharField(label=_("Code"), max_length=bounds.CODE.most, required=False)


class ShowForm(QueryForm):
    """What the score pages' addresses choose to show: every table (``all``), a recorded game to
    correct (``correct``, the organiser's). A value they cannot take shows the usual page."""

    all = forms.BooleanField(required=False)
    correct = bounds.GAME_NUMBER.form_field(required=False)


class WhoForm(forms.Form):
    """Which player of the table this phone speaks for (it holds the table's code)."""

    entrant = bounds.ENTRANT.form_field(label=_("Entrant"))


class GameForm(forms.Form):
    """A button about one game of the table (the page names the game it showed: a page out of date
    is refused by the command)."""

    game = bounds.GAME_NUMBER.form_field(label=_("Game"))


class EntryForm(GameForm):
    """The score sheet's buttons: "more rows", enter, and the organiser's record (with a reason)."""

    count = bounds.HANDS.form_field(label=_("Rows"), required=False)
    reason = _reason(required=False)

    def rows(self) -> int:
        count = self.cleaned_data.get("count")
        return 1 if count is None else int(count)


class MoreRowsForm(EntryForm):
    game = bounds.GAME_NUMBER.form_field(label=_("Game"), required=False)


class AcceptForm(GameForm):
    """The organiser records a disputed entry as it is: why is kept in the log (#30)."""

    reason = _reason(required=True)


class AnswerForm(GameForm):
    """A player's confirmation of an entry (``seen``: the entry the page showed), or their
    disagreement with a reason; by the table's code, the code of their own seat (#37)."""

    seen = bounds.SEQ.form_field(label=_("Entry"), required=False)
    seat_code = forms.CharField(
        label=_("Your seat's code (on the table card)"), max_length=bounds.CODE.most, required=False
    )
    reason = _reason(required=False)


class DisputeForm(AnswerForm):
    reason = _reason(required=True)


class TournamentBoardForm(forms.Form):
    on = _on()


class RoundBoardForm(forms.Form):
    round = bounds.ROUND.form_field(label=_("Round"))
    on = _on()


class AddPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=bounds.NAME.most, strip=True)
