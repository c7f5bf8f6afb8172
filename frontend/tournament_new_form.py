"""The new-tournament form (#32): what the organiser's page and its live estimate send, read once.

Every number is read through games/bounds.py before anything is estimated or made (the page's
``min``/``max`` and the server's check are the same bound); the choices are those
tournaments/options.py accepts; the game's own options are read by frontend/options.py and left to
the engine. Whether the whole makes a tournament (a format for two-player matches with tables of
four…) is still for ``tournaments.service.validate_options`` to say: the form only refuses what no
tournament could take.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from frontend.options import GAME_OPTIONS, TOURNAMENTS, parse_options
from games import bounds
from tournaments.options import ABSENCE_BEFORE_ROUND, BYE_VALUES, SEATINGS
from tournaments.standings import CRITERIA

#: The yes-or-no boxes that become an option of the same name when ticked.
FLAGS = ("third_place", "duplicate", "partnerships", "check_in", "late_entry", "chat")
#: The choices kept only when they differ from the usual one (#30, #31): (field, usual).
CHOICES = (
    ("seating", "standings"),
    ("short_tables", "smaller"),
    ("bye_value", ""),
    ("absence_before_round", "repair"),
)
#: Tie-break slots the page offers.
TIEBREAK_SLOTS = 4


def _choice(values: Any, label: Any) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=[("", "")] + [(v, v) for v in values], required=False)


class NewTournamentForm(forms.Form):
    # The name's emptiness is the service's to refuse (the same sentence as the API's).
    name = forms.CharField(label=_("Name"), required=False, strip=False)
    game = forms.CharField(label=_("Game"), required=False, max_length=40)
    format = forms.CharField(label=_("Format"), required=False, max_length=40)
    table_size = bounds.TABLE_SIZE.form_field(label=_("Players at a table"), required=False)
    best_of = bounds.BEST_OF.form_field(label=_("Games per match (best of)"), required=False)
    rounds = bounds.ROUNDS.form_field(label=_("Rounds"), required=False)
    spectator_delay = bounds.SPECTATOR_DELAY.form_field(label=_("Spectator delay (moves)"), required=False)
    no_show_minutes = bounds.NO_SHOW_MINUTES.form_field(label=_("No-show minutes"), required=False)
    # Minutes of ABSENT_AFTER's seconds (a minute to an hour).
    absent_minutes = bounds.ABSENT_AFTER.form_field(
        label=_("Absence minutes"),
        required=False,
        min_value=bounds.ABSENT_AFTER.low // 60,
        max_value=bounds.ABSENT_AFTER.high // 60,
    )
    registration_closes = forms.CharField(required=False, max_length=40)
    seating = _choice(SEATINGS, _("Seating"))
    short_tables = _choice(("smaller", "larger"), _("When the players do not fill every table"))
    bye_value = _choice(BYE_VALUES, _("A sit-out (bye) scores"))
    absence_before_round = _choice(ABSENCE_BEFORE_ROUND, _("A withdrawal before a round starts"))
    tiebreak = forms.MultipleChoiceField(
        label=_("Tie-breaks, in order"), required=False, choices=[("", "")] + [(c, c) for c in CRITERIA]
    )
    third_place = forms.BooleanField(required=False)
    duplicate = forms.BooleanField(required=False)
    partnerships = forms.BooleanField(required=False)
    check_in = forms.BooleanField(required=False)
    late_entry = forms.BooleanField(required=False)
    chat = forms.BooleanField(required=False)
    reset = forms.BooleanField(required=False)
    manual_rounds = forms.BooleanField(required=False)
    # Only for the seating advice: a number out of its bounds gives no advice, never an error.
    expected = forms.CharField(required=False)

    def clean_name(self) -> str:
        try:
            return bounds.TOURNAMENT_NAME.check(self.cleaned_data.get("name", ""), str(_("Name")))
        except bounds.OutOfBounds as exc:
            raise forms.ValidationError(exc.localized()["message"], code="too_long") from None

    def clean_tiebreak(self) -> list[str]:
        chosen: list[str] = self.cleaned_data.get("tiebreak") or []
        if len(chosen) > TIEBREAK_SLOTS:
            raise forms.ValidationError(
                _("At most %(most)s tie-breaks."), code="too_many", params={"most": TIEBREAK_SLOTS}
            )
        return chosen

    def clean_expected(self) -> int:
        return bounds.read_int(self.cleaned_data.get("expected")) or 0

    def _get(self, name: str, default: Any) -> Any:
        """A field's clean value, or ``default`` when it is empty or was refused (the estimate of a
        form with a mistake is that of its other fields)."""
        data = getattr(self, "cleaned_data", {})
        value = data.get(name)
        return default if value in (None, "") else value

    def choice(self) -> tuple[str, str, dict[str, Any]]:
        """The game, the format and the options chosen (the options of the chosen game only, from its
        own fields ``GAME-KEY``; the engine fills in the rest when a table is made)."""
        game = str(self._get("game", ""))
        options: dict[str, Any] = {
            "table_size": self._get("table_size", 2),
            "best_of": self._get("best_of", 1),
            "spectator_delay": self._get("spectator_delay", 0),
            "no_show_after": 60 * self._get("no_show_minutes", 0),
        }
        if self._get("absent_minutes", None):  # #37: a game may be claimed against a player gone this long
            options["absent_after"] = 60 * self._get("absent_minutes", 0)
        if self._get("rounds", None):
            options["rounds"] = self._get("rounds", 0)
        for flag in FLAGS:
            if self._get(flag, False):
                options[flag] = True
        for name, usual in CHOICES:
            value = self._get(name, "")
            if value and value != usual:
                options[name] = value
        options["reset"] = bool(self._get("reset", False))
        tiebreaks = list(self._get("tiebreak", []))
        if tiebreaks and tiebreaks[0]:
            options["tiebreaks"] = list(dict.fromkeys(c for c in tiebreaks if c))
        if self._get("registration_closes", ""):
            options["registration_closes"] = self._get("registration_closes", "")
        options["auto_start"] = not self._get("manual_rounds", False)
        if game in GAME_OPTIONS:
            chosen = parse_options(game, self.data, prefix=f"{game}-", where=TOURNAMENTS)
            if chosen:
                options["game_config"] = chosen
        return game, str(self._get("format", "")), options

    def players_expected(self) -> int:
        """The players the seating advice is for (0: none said, or not a number it takes)."""
        return int(self._get("expected", 0))

    def mistake_code(self) -> str:
        """The code of the estimate's refusal: ``bad_number`` when a number was refused."""
        codes = {e.code for errors in self.errors.as_data().values() for e in errors}
        return "bad_number" if "bad_number" in codes else "bad_options"
