"""The entry form of a real-card game's score sheet, laid out and read as its engine's
``score_sheet(config)`` describes it (games/engines/base.py): the phone's single entry
(frontend/over_the_board.py) and the organiser's round grid (frontend/round_grid.py) share it.

Field names: a number per seat ``h{row}-{name}-{seat}``, an answer per row ``h{row}-{name}``, and
``count`` (the rows shown).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from frontend.tournaments import _int
from games import bounds, engines
from games.engines.base import IllegalAction, Number, Pick, ScoreSheet
from tournaments import board
from tournaments.models import Match, Tournament


def sheet_of(game: str, config: dict[str, Any]) -> ScoreSheet:
    return engines.get(game).score_sheet(config)


def row_name(sheet: ScoreSheet, number: int) -> str:
    """A row's legend as the game names it ("Round 3", "Game 2", "Hand 5")."""
    context, template = sheet.row_name
    return (pgettext(context, template) if context else _(template)) % {"n": number}


def _label(label: str, context: str = "") -> str:
    return pgettext(context, label) if context else _(label)


def _key(part: Number | Pick) -> str:
    return part.key or part.name


class SheetForm(forms.Form):
    """The rows of a score sheet as typed: ``count`` (the rows shown; the buttons' own forms have
    refused a count out of its bound already, here one is read as none) and each row's fields, made
    only for those rows. The texts are the engine's to read: "7½" and "1,2" are scores and answers,
    and the rules refuse what they cannot take with their own sentence."""

    count = bounds.HANDS.form_field(required=False)

    def __init__(self, data: Any, sheet: ScoreSheet, sides: list[int]) -> None:
        super().__init__(data)
        self.sheet, self.sides = sheet, sides
        try:
            raw = self.fields["count"].widget.value_from_datadict(data, self.files, self.add_prefix("count"))
            self.rows = min(self.fields["count"].clean(raw) or 0, board.MAX_HANDS)
        except forms.ValidationError:
            self.rows = 0
        for i in range(self.rows):
            for name in self.row_fields(i) + [f"h{i}-{p.name}" for p in sheet.picks if sheet.numbers]:
                self.fields[name] = forms.CharField(required=False)

    def row_fields(self, i: int) -> list[str]:
        """The fields of row ``i`` that make it count once one is filled in."""
        if self.sheet.numbers:
            return [f"h{i}-{n.name}-{s}" for n in self.sheet.numbers for s in self.sides]
        return [f"h{i}-{p.name}" for p in self.sheet.picks]

    def typed(self) -> dict[str, str]:
        self.is_valid()
        return {name: str(self.cleaned_data.get(name) or "") for name in self.fields if name != "count"}


def parse_hands(game: str, config: dict[str, Any], sides: list[int], data: Any) -> list[dict[str, Any]]:
    """The hands of the entry form, in the shape ``board.score`` checks; empty rows are left out
    (a row counts once a number is written in it, or an answer on a sheet without numbers)."""
    sheet = sheet_of(game, config)
    form = SheetForm(data, sheet, sides)
    typed = form.typed()
    hands: list[dict[str, Any]] = []
    for i in range(form.rows):
        if not any(typed[name].strip() for name in form.row_fields(i)):
            continue
        hands.append(_hand(sheet, sides, i, typed))
    return hands


def _value(typed: dict[str, str], name: str) -> Any:
    text = typed.get(name, "").strip().replace("−", "-")
    # Read as every bound reads a number (games/bounds.py): "²" or 5,000 digits stay text, which the
    # rules refuse with a sentence; int() on them was a server error (#37).
    number = bounds.read_int(text)
    return number if number is not None else text


def _hand(sheet: ScoreSheet, sides: list[int], i: int, typed: dict[str, str]) -> dict[str, Any]:
    hand: dict[str, Any] = {}
    for number in sheet.numbers:
        hand[_key(number)] = {str(s): _value(typed, f"h{i}-{number.name}-{s}") for s in sides}
    for pick in sheet.picks:
        if pick.kind == "winners":
            words = typed.get(f"h{i}-{pick.name}", "").strip()
            hand[_key(pick)] = [_value({"w": w}, "w") for w in words.split(",") if w]
        else:
            value = _value(typed, f"h{i}-{pick.name}")
            hand[_key(pick)] = None if value == "" else value
    return hand


def as_form(game: str, config: dict[str, Any], hands: list[dict[str, Any]]) -> dict[str, str]:
    """Hands as the form's values (to correct an entry, or to see one's own again)."""
    sheet = sheet_of(game, config)
    parts: list[Number | Pick] = [*sheet.numbers, *sheet.picks]
    fields = {_key(part): part.name for part in parts}
    values: dict[str, str] = {}
    for i, hand in enumerate(hands):
        for name, value in hand.items():
            field = fields.get(name, name)
            if isinstance(value, dict):
                for side, v in value.items():
                    values[f"h{i}-{field}-{side}"] = str(v)
            elif isinstance(value, list):
                values[f"h{i}-{field}"] = ",".join(str(w) for w in value)
            elif value is not None:
                values[f"h{i}-{field}"] = str(value)
    values["count"] = str(len(hands))
    return values


def rows_in(values: Any) -> int:
    return _int(values.get("count"), 0) if values else 0


def summary(
    row: Tournament, match: Match, config: dict[str, Any], hands: list[dict[str, Any]], names: dict[int, str]
) -> dict[str, Any] | None:
    """An entry as the table sees it before confirming: the points of each hand as the rules count
    them (the closer doubled, the pitcher set back…), the totals and the places. ``names``: the
    match's players by entrant number, as the page already read them (one query for all its entries)."""
    try:
        scored = board.score(row.game, config, list(match.entrants), hands)
    except IllegalAction:
        return None
    sheet = sheet_of(row.game, config)
    lines = []
    for i, (points, mark) in enumerate(zip(scored.rows, scored.marks, strict=True)):
        cells = []
        for side in scored.sides:
            note = ""
            if mark.get("doubled") == side:
                note = _("closed: doubled")
            elif mark.get("closer") == side:
                note = _("closed")
            elif mark.get("set_back") == side:
                note = _("set back")
            elif side in mark.get("winners", []):
                note = _("won the round")
            cells.append({"points": points[side], "note": note})
        lines.append({"number": i + 1, "cells": cells, "about": _about(sheet, hands[i], names)})
    return {
        "lines": lines,
        "totals": [scored.totals[s] for s in scored.sides],
        "places": [scored.places[s] for s in scored.sides],
    }


def _about(sheet: ScoreSheet, hand: dict[str, Any], names: dict[int, str]) -> str:
    """What a hand's points were worked out from, when the points do not show it (the engine says:
    a Kazino game's counts, a Pitch hand's bid and awards)."""
    if sheet.about is None:
        return ""
    return " — ".join(_(template) % params for template, params in sheet.about(hand, names))


def form_rows(
    game: str, config: dict[str, Any], sides: list[dict[str, Any]], count: int, values: Any
) -> list[dict[str, Any]]:
    """The entry form's rows (hands), each field with its name, label, keyboard and value."""
    sheet = sheet_of(game, config)
    values = values or {}
    # Never more rows than a game may have hands, whatever count the client sent (#37: 20,000 rows).
    count = max(0, min(count, bounds.HANDS.high))
    people = [(str(s["number"]), s["name"]) for s in sides]
    rows = []
    for i in range(count):
        players = []
        for s in sides:
            n = s["number"]
            inputs = [
                {
                    "name": f"h{i}-{number.name}-{n}",
                    "label": _label(number.label),
                    "mode": number.keyboard,
                    "value": values.get(f"h{i}-{number.name}-{n}", ""),
                    "sign": number.sign,
                }
                for number in sheet.numbers
            ]
            players.append({"number": n, "name": s["name"], "inputs": inputs})
        choices = [
            {
                "name": f"h{i}-{pick.name}",
                "label": _label(pick.label, pick.context),
                "options": _options(pick, people),
                "value": str(values.get(f"h{i}-{pick.name}", "")),
            }
            for pick in sheet.picks
        ]
        rows.append(
            {"number": i + 1, "label": row_name(sheet, i + 1), "players": players, "choices": choices}
        )
    return rows


def _options(pick: Pick, people: list[tuple[str, str]]) -> list[tuple[str, str]]:
    pick_one = [("", "–")]
    if pick.kind == "seat":
        return pick_one + people
    if pick.kind == "seat_or_nobody":
        return [("", _("nobody")), *people]
    if pick.kind == "number":
        return pick_one + [(str(b), str(b)) for b in pick.numbers]
    options = [("", _("nobody (blocked, tied)")), *people]
    if pick.ties:
        options += [
            (f"{a},{b}", _("%(a)s and %(b)s (tied)") % {"a": x, "b": y})
            for k, (a, x) in enumerate(people)
            for b, y in people[k + 1 :]
        ]
    return options
