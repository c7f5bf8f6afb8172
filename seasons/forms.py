"""The season form (a club's organiser defines or changes a season): every field bounded
(games/bounds.py), the definition it gives checked whole before anything is stored."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import bounds
from games.words.catalogue import titles
from seasons import log
from tournaments.models import Club, Tournament

TIE_BREAK_NAMES = {
    "wins": pgettext_lazy("season tie-break", "More events won"),
    "countback": pgettext_lazy("season tie-break", "Better places, one by one"),
    "events": pgettext_lazy("season tie-break", "More events played"),
    "all_points": pgettext_lazy("season tie-break", "More points over every event"),
}
TIE_BREAK_FIELDS = ("tie_break_1", "tie_break_2", "tie_break_3", "tie_break_4")


def _tie_choices() -> list[tuple[str, Any]]:
    return [("", pgettext_lazy("season tie-break", "(none)"))] + list(TIE_BREAK_NAMES.items())


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=bounds.SEASON_NAME.most)
    start = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    games = forms.MultipleChoiceField(label=_("Games"), widget=forms.CheckboxSelectMultiple)
    tournaments = forms.MultipleChoiceField(
        label=_("Tournaments that count"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every tournament of the club in the season's days and games."),
    )
    scoring = forms.ChoiceField(
        label=_("Points per event"),
        choices=[
            ("table", _("A table of points per place")),
            ("field", _("By place and field: players in the event minus the place, plus one")),
        ],
        widget=forms.RadioSelect,
        initial="table",
    )
    table = forms.CharField(
        label=_("Points per place"),
        required=False,
        max_length=400,
        initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
        help_text=_("First place first, separated by commas; places after the last score nothing."),
    )
    best = bounds.SEASON_BEST.form_field(
        label=_("Best results that count"),
        required=False,
        help_text=_("Empty: every event counts."),
    )
    tie_break_1 = forms.ChoiceField(label=_("First tie-break"), required=False, initial="wins")
    tie_break_2 = forms.ChoiceField(label=_("Second tie-break"), required=False, initial="countback")
    tie_break_3 = forms.ChoiceField(label=_("Third tie-break"), required=False)
    tie_break_4 = forms.ChoiceField(label=_("Fourth tie-break"), required=False)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = titles()
        self.fields["games"].choices = list(names.items())  # type: ignore[attr-defined]
        rows = Tournament.objects.filter(club=club).order_by("-pk")[:200]
        chosen = [(str(t.pk), f"{t.name} ({names.get(t.game, t.game)})") for t in rows]
        self.fields["tournaments"].choices = chosen  # type: ignore[attr-defined]
        for name in TIE_BREAK_FIELDS:
            self.fields[name].choices = _tie_choices()  # type: ignore[attr-defined]

    def clean_table(self) -> list[int]:
        text = self.cleaned_data.get("table", "")
        parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
        if len(parts) > bounds.PLACES.high:
            raise forms.ValidationError(
                _("At most %(most)s places score points.") % {"most": bounds.PLACES.high}
            )
        out = []
        for part in parts:
            number = bounds.read_int(part)
            if number is None or not bounds.PLACE_POINTS.low <= number <= bounds.PLACE_POINTS.high:
                raise forms.ValidationError(
                    _("Each place's points are a whole number from %(low)s to %(high)s.")
                    % {"low": bounds.PLACE_POINTS.low, "high": bounds.PLACE_POINTS.high}
                )
            out.append(number)
        return out

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("start"), data.get("end")
        if isinstance(start, date) and isinstance(end, date):
            if end < start:
                self.add_error("end", _("The last day comes on or after the first."))
            elif (end - start).days + 1 > bounds.SEASON_DAYS.high:
                self.add_error("end", _("A season lasts two years at most."))
        if data.get("scoring") == "table" and not data.get("table") and "table" not in self.errors:
            self.add_error("table", _("Give the points of at least the first place."))
        chosen = [data.get(f) for f in TIE_BREAK_FIELDS if data.get(f)]
        if len(set(chosen)) != len(chosen):
            self.add_error("tie_break_2", _("Each tie-break once."))
        return data

    def definition(self) -> dict[str, Any]:
        """The season's definition as its events hold it (seasons/log.py)."""
        d = self.cleaned_data
        scoring: dict[str, Any] = {"kind": d["scoring"]}
        if d["scoring"] == "table":
            scoring["table"] = d["table"]
        return {
            "name": d["name"].strip(),
            "start": d["start"],
            "end": d["end"],
            "games": list(d["games"]),
            "tournaments": [int(t) for t in d["tournaments"]] or None,
            "scoring": scoring,
            "best": d.get("best"),
            "tie_breaks": [d[f] for f in TIE_BREAK_FIELDS if d.get(f) and d[f] in log.TIE_BREAKS],
        }

    @classmethod
    def initial_from(cls, season: log.Season) -> dict[str, Any]:
        ties = {
            f: (season.tie_breaks[i] if i < len(season.tie_breaks) else "")
            for i, f in enumerate(TIE_BREAK_FIELDS)
        }
        return {
            "name": season.name,
            "start": season.start,
            "end": season.end,
            "games": season.games,
            "tournaments": [str(t) for t in season.tournaments or []],
            "scoring": season.scoring["kind"],
            "table": ", ".join(str(p) for p in season.scoring.get("table", [])),
            "best": season.best,
            **ties,
        }
