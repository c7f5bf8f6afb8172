"""What a page's address chooses to show (#32): ``?part=``, ``?round=``, ``?computers=1``... read by
small forms, each value bounded like every input. A value a page cannot take is left out (the page
shows its usual), except where a page says "there is no such" (a game, a period): those read
``value`` and refuse what they do not know themselves.
"""

from __future__ import annotations

from typing import Any

from django import forms

from games import bounds

#: A name of a game, a period, a part of a page, a paper: short words.
WORD = 40


def _word() -> forms.CharField:
    return forms.CharField(required=False, max_length=WORD)


class QueryForm(forms.Form):
    def value(self, name: str, default: Any = None) -> Any:
        """The field's value, or ``default`` when it is missing, empty or refused."""
        self.is_valid()
        found = self.cleaned_data.get(name)
        return default if found is None or found is False or found == "" else found


class TournamentListQuery(QueryForm):
    """The tournament list's filters: a game, a club (its slug, or ``none``), a status."""

    game = _word()
    club = forms.CharField(required=False, max_length=50)
    status = _word()


class PartQuery(QueryForm):
    """``?part=``: a live page's refresh asks for one part of itself."""

    part = _word()


class GameQuery(QueryForm):
    """``?game=``: one game's tab (a lobby's, a leaderboard's); ``?computers=1`` shows the computers."""

    game = _word()
    computers = forms.ChoiceField(required=False, choices=[("1", "1"), ("0", "0")])
    period = _word()

    def computers_shown(self) -> bool:
        return self.value("computers") == "1"


class RoundQuery(QueryForm):
    """``?round=N``: a round's tab or sheet."""

    round = bounds.ROUND.form_field(required=False)


class PrintQuery(RoundQuery):
    """A printable sheet: its paper, its round and its table."""

    paper = _word()
    table = forms.CharField(required=False, max_length=32)


class RowsQuery(QueryForm):
    """``?rows=N``: the rows of the round grid's score sheets."""

    rows = bounds.HANDS.form_field(required=False)


class ClosedForm(forms.Form):
    """A season's close button (``closed=0`` opens it again)."""

    closed = forms.CharField(required=False, max_length=1)


class LanguageForm(forms.Form):
    """The language switcher's choice (Django's set_language checks it again)."""

    language = forms.CharField(required=False, max_length=WORD)


class ActionForm(forms.Form):
    """The former single address of the console's buttons: which action."""

    action = forms.CharField(required=False, max_length=32)
