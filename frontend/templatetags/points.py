"""``{{ value|points }}``: a score or tie-break value as players write it: 12, 7½, −½, 2.33."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def points(value: object) -> str:
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return str(value)
    sign = "−" if number < 0 else ""
    number = abs(number)
    whole, part = divmod(number, 1)
    if part == 0:
        return sign + number_format(int(whole), use_l10n=True, force_grouping=True)
    if part == Fraction(1, 2):
        return sign + (number_format(int(whole), use_l10n=True, force_grouping=True) if whole else "") + "½"
    return sign + number_format(float(number), 2, use_l10n=True, force_grouping=True)
