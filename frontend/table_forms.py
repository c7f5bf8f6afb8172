"""The forms of a new table (#32): the new-table page's and Play now's. The number of players is
checked against the game's few allowed numbers before anything is built from it (a list of one seat
per claimed player would let one request exhaust the server); the game's own options are read by
frontend/options.py and left to the engine, which refuses them with its own sentence.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from frontend.clubs import ClubChoiceForm
from frontend.options import SEAT_CHOICES, TABLE_KINDS, GameOptions
from games import bots, bounds
from games.formfields import BoundedIntegerField

#: Every seat choice a form may send: the page's, and any computer level by its code.
SEATS = list(dict.fromkeys([c for c, _name in SEAT_CHOICES] + [f"bot:{level}" for level in bots.LEVELS]))


CHOOSE_PLAYERS = _("Choose how many players sit at the table.")
CHOOSE_KIND = _("Choose a rated or a casual table.")


class PlayersField(BoundedIntegerField):
    """The players at the table: any number refused is refused with the one sentence of a choice."""

    def _message(self) -> str:
        return str(CHOOSE_PLAYERS)


class TableForm(ClubChoiceForm):
    """What both forms send: how many players, rated or casual, and who may join (the club). Either
    left out takes its default (the game's usual players, a casual table); sent empty, it is refused."""

    players = PlayersField(bounds.PLAYERS, required=False)
    kind = forms.ChoiceField(
        label=_("Rated or casual"),
        choices=[(k, k) for k in TABLE_KINDS],
        required=False,
        error_messages={"invalid_choice": CHOOSE_KIND},
    )

    def __init__(self, data: Any, user: Any, spec: GameOptions) -> None:
        super().__init__(data, user)
        self.spec = spec

    def _sent(self, name: str) -> bool:
        return self.add_prefix(name) in self.data

    def clean_players(self) -> int:
        players = self.cleaned_data.get("players")
        if players is None and not self._sent("players"):
            players = self.spec.default_players
        if players not in self.spec.players:
            raise forms.ValidationError(CHOOSE_PLAYERS, code="bad_players")
        return int(players)

    def clean_kind(self) -> str:
        kind = self.cleaned_data.get("kind")
        if not kind and self._sent("kind"):
            raise forms.ValidationError(CHOOSE_KIND, code="bad_kind")
        return str(kind or "casual")

    def players_or(self, default: int) -> int:
        """The players chosen, or ``default`` when the number was refused (the form shown again)."""
        return int(self.cleaned_data.get("players") or default) if hasattr(self, "cleaned_data") else default


class NewTableForm(TableForm):
    """The new-table page: a choice and a name for each seat (``seatN``, ``nameN``), and how long a
    seat may be away before the others may claim the game."""

    absent_after = bounds.ABSENT_AFTER.form_field(
        label=_("Seconds a player may be away before the others may claim the game (rated)"), required=False
    )

    def __init__(self, data: Any, user: Any, spec: GameOptions) -> None:
        super().__init__(data, user, spec)
        for n in range(max(spec.players)):
            self.fields[f"seat{n}"] = forms.ChoiceField(
                label=_("Seat"), choices=[(c, c) for c in SEATS], required=False
            )
            self.fields[f"name{n}"] = forms.CharField(
                label=_("Name"), max_length=bounds.NAME.most, required=False
            )

    def seats(self) -> list[tuple[str, str]]:
        """(choice, name) of each seat of the table: a seat left unsaid is the Easy computer."""
        data = self.cleaned_data
        return [(data[f"seat{n}"] or "bot:greedy", data[f"name{n}"]) for n in range(data["players"])]


class PlayNowForm(TableForm):
    """Play now: the table's choices, and whether a computer takes the seat of an opponent who does
    not come within the minutes chosen."""

    fallback = forms.BooleanField(required=False)
    fallback_minutes = bounds.FALLBACK_MINUTES.form_field(label=_("Minutes"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("fallback")
            and data.get("fallback_minutes") is None
            and "fallback_minutes" not in self.errors
        ):
            refusal = bounds.FALLBACK_MINUTES.refusal(str(_("Minutes")))
            self.add_error("fallback_minutes", refusal.localized()["message"])
        return data

    def minutes(self) -> int | None:
        return self.cleaned_data["fallback_minutes"] if self.cleaned_data["fallback"] else None


class ShowTableForm(forms.Form):
    """The new-table page's address: ``with=friend`` offers the other seats to a friend (a lesson's
    end); anything else, the Easy computer."""

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        self.fields["with"] = forms.CharField(required=False, max_length=20)  # a keyword of Python

    def friend(self) -> bool:
        return self.is_valid() and self.cleaned_data["with"] == "friend"


class HintForm(forms.Form):
    """A hint's seat (``?seat=``): one of the table's seats, by its number."""

    seat = bounds.SEAT.form_field(label=_("Seat"))
