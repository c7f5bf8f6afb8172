"""How much of its longest checks a run makes.

``bin/test`` (CI) runs every check in full. ``bin/test --fast``, the inner loop, sets TEST_TIER=fast:
the few checks that repeat one thing many times (whole tournaments of every format of every game,
whole games of every variant, a thousand dropped sockets) then make a sample of it that still covers
every kind (each format, each game), as ENGINE_GAMES does for the engines' random playouts.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

FAST = os.environ.get("TEST_TIER") == "fast"


def count(full: int, fast: int) -> int:
    """How many times to repeat: ``full`` in the whole run, ``fast`` in the inner loop."""
    return fast if FAST else full


def cases(full: Sequence[T], fast: Sequence[T]) -> list[T]:
    """The cases to run: every one of ``full`` in the whole run, ``fast`` (a covering few of them) in
    the inner loop."""
    assert all(case in full for case in fast), "the inner loop's cases are some of the whole run's"
    return list(fast if FAST else full)
