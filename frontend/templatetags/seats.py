"""{% load seats %}: ``{{ seat|seat_name }}`` names a seat in the reader's language (games.words.names);
``{{ seats|seat_names }}`` names them all, " · " between them (plain text: the template escapes it)."""

from __future__ import annotations

from django import template

from games.models import Seat
from games.words.names import seat_name as _seat_name

register = template.Library()


@register.filter
def seat_name(seat: Seat) -> str:
    return _seat_name(seat)


@register.filter
def seat_names(seats: list[Seat]) -> str:
    return " · ".join(_seat_name(seat) for seat in seats)
