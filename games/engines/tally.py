"""Checking a score sheet written with real cards: what every game's checks share (each game's own
rules are ``score`` in games/engines/<game>/sheet.py; tournaments/board.py runs them).

A checked game is a ``Sheet``: each side's points in each hand, the totals and the places. Numbers
are read as people write them (a whole number, or a half: "7½"), never past ``DIGITS`` characters.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engines.base import DIGITS, IllegalAction, Sheet, _, read_int

#: A whole number as people write it: ASCII digits of bounded length only (``read_int``): "²" is a digit
#: to isdigit() but int() raises on it, and int() on thousands of digits costs time before it refuses (#37).
whole = read_int


def whole_or_half(value: Any) -> Fraction | None:
    """A whole number or a half ("7½", "15/2", "7.5"); None if it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if not isinstance(value, str):
        return None
    text = value.strip().replace("½", ".5").replace(",", ".")
    # A score is short and written plainly: no exponent ("1e999999" would build a huge number), no
    # digits but ASCII ones, nothing longer than a bounded number (games/bounds.py).
    if len(text) > DIGITS or not text.isascii() or not set(text) <= set("0123456789-./"):
        return None
    if text.startswith(".5"):
        text = "0" + text
    try:
        number = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
    return number if (2 * number).denominator == 1 else None


def per_side(
    hand: dict[str, Any], name: str, sides: list[int], line: int, halves: bool = False
) -> dict[int, Fraction]:
    values = hand.get(name)
    if not isinstance(values, dict) or set(values) != {str(s) for s in sides}:
        raise IllegalAction("missing_number", _("Line {hand}: write a number for every player."), hand=line)
    out: dict[int, Fraction] = {}
    for side in sides:
        raw = values[str(side)]
        count = None if halves else whole(raw)
        number = whole_or_half(raw) if halves else (None if count is None else Fraction(count))
        if number is None:
            raise IllegalAction("not_a_number", _("Line {hand}: every score is a whole number."), hand=line)
        out[side] = number
    return out


def side_in(value: Any, sides: list[int]) -> int | None:
    number = whole(value)
    return number if number in sides else None


def ranked(totals: dict[int, Fraction], lower_wins: bool) -> dict[int, int]:
    """1-based places, equal totals sharing."""
    sign = 1 if lower_wins else -1
    return {s: 1 + sum(1 for o in totals.values() if sign * o < sign * v) for s, v in totals.items()}


def add_row(sheet: Sheet, points: dict[int, Fraction], mark: dict[str, Any] | None = None) -> None:
    sheet.rows.append(points)
    sheet.marks.append(mark or {})
    for side, value in points.items():
        sheet.totals[side] = sheet.totals.get(side, Fraction(0)) + value


def winner_places(sheet: Sheet, winner: int | None, code: str, not_over: str, target: int) -> None:
    """The places, highest total first, of a game someone won; without a winner the sheet is
    refused (``code``, ``not_over``): the game is not over yet."""
    if winner is None:
        raise IllegalAction(code, not_over, target=target)
    sheet.places = ranked(sheet.totals, lower_wins=False)
