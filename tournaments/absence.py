"""The rules of absence that scoring needs (#30, docs/tournaments.md "The rules of absence"): pure.

What a sit-out (the pairing's bye) scores, as the organiser chose it, and the places of a game a
computer played out for absent entrants. The commands that apply the rules (a withdrawal, a no-show,
the organiser's forfeit) are in ``commands/progress.py``.
"""

from __future__ import annotations

from fractions import Fraction

from tournaments.log import Tournament


def bye_points(t: Tournament) -> Fraction:
    """What a pairing-allocated bye (a sit-out) scores, as the organiser chose it (``bye_value``, #30):
    a win at a full table (``full``), half of it (``half``: a full table's average) or nothing.
    Without a choice (and in logs from before it existed): one point, at any table size."""
    value = t.options.get("bye_value")
    if value is None:
        return Fraction(1)
    win = Fraction(int(t.options.get("table_size", 2)) - 1)
    return {"full": win, "half": win / 2}.get(str(value), Fraction(0))


def absent_last(places: dict[int, int], absent: list[int]) -> dict[int, int]:
    """A game a computer played out for absent entrants (#30): they share the last place, the others
    keep the order the game gave them (ties kept)."""
    present = {e: p for e, p in places.items() if e not in absent}
    out = {e: 1 + sum(1 for q in present.values() if q < p) for e, p in present.items()}
    out.update({e: len(present) + 1 for e in places if e in absent})
    return out
