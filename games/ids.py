"""Integers that may name a row, and the ``<id:...>`` path converter every route with an id uses.

Ids are 64-bit signed integers in the database (``BigAutoField``). A larger number from a client (a
URL, a socket message) names no row, but it must not reach the database either: SQLite cannot bind
it (``OverflowError``, a server error) and PostgreSQL compares it as a ``numeric``. So:

- every route names its ids ``<id:name>`` (registered here, once): digits that fit a 64-bit signed
  integer, else the route does not match and the answer is 404 (socket routes: the catch-all of
  ``infra/routing.py``, close 4404). ``tests/security/test_huge_ids.py`` walks every route and fails
  on an ``<int:...>`` one;
- a socket or form field that names a row or a seq is checked with ``fits`` before any lookup.
"""

from __future__ import annotations

from typing import Any

from django.urls import register_converter

BIGINT_MAX = 2**63 - 1


def fits(value: Any, low: int = 0, high: int = BIGINT_MAX) -> bool:
    """Whether ``value`` is an int (not a bool) from ``low`` to ``high``, a 64-bit one by default."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


class IdConverter:
    """Like Django's ``int`` converter, but a number past a 64-bit signed integer does not match."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)  # past 4,300 digits Python refuses too (ValueError): no match either
        if number > BIGINT_MAX:
            raise ValueError("not an id")  # Django's resolver: this route does not match
        return number

    def to_url(self, value: Any) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
