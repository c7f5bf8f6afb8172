"""{% load seats %}: ``{{ seat|seat_name }}`` names a seat in the reader's language (frontend.seats)."""

from __future__ import annotations

from django import template

from frontend.seats import seat_name as _seat_name
from games.models import Seat

register = template.Library()


@register.filter
def seat_name(seat: Seat) -> str:
    return _seat_name(seat)
