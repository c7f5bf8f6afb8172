"""``{{ value|points }}``: a score or tie-break value written the one way Tablehall writes points, on
the pages, in the printed sheets and in the standings CSV (docs/tournaments.md "How points are
written"): whole numbers as they are (12, 1,250), the fractions placement points and shared places
make as vulgar fractions (7½, 6¾, 2⅓, −¼), and anything else with two decimals (2.17)."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

register = template.Library()

# The fractions a table's placement points and shared places give (halves, quarters, thirds).
FRACTIONS = {
    Fraction(1, 4): "¼",
    Fraction(1, 3): "⅓",
    Fraction(1, 2): "½",
    Fraction(2, 3): "⅔",
    Fraction(3, 4): "¾",
}


@register.filter
def points(value: object) -> str:
    try:
        # A float from a fold (6.666…) is read at the precision it was written to.
        number = Fraction(str(value)).limit_denominator(1000)
    except (ValueError, ZeroDivisionError):
        return str(value)
    sign = "−" if number < 0 else ""
    number = abs(number)
    whole, part = divmod(number, 1)
    written = number_format(int(whole), use_l10n=True, force_grouping=True)
    if part == 0:
        return sign + written
    if part in FRACTIONS:
        return sign + (written if whole else "") + FRACTIONS[part]
    return sign + number_format(round(float(number), 2), 2, use_l10n=True, force_grouping=True)
