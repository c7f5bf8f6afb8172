"""Double elimination: how often a loser meets again, early in the losers bracket, someone it already
played (issue #31, deliverable 5).

    python tests/bench/pairing_brackets.py [--events 2000]

For 16, 32 and 64 entrants, ``events`` whole brackets with every match won by a coin toss, seated by
``tournaments.pairing.bracket`` with each set of drop-in orders: the platform's (brackets-manager's
defaults since #31) and the alternation it used before (W2 losers reversed, W3 halves swapped, and so
on in turn). A rematch is *early* when it comes before the last two losers-bracket rounds (the
losers' semi-final and final, where few are left and a rematch is hard to avoid). Figures: the share
of events with at least one early rematch, and the mean number of early rematches per event.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import benchlib  # noqa: E402
from tournaments.pairing import bracket  # noqa: E402

T = TypeVar("T")
SIZES = (16, 32, 64)


def alternating(dropped: Sequence[T], size: int, winners_round: int) -> list[T]:
    """The drop-in orders before #31: reversed, then halves swapped, in turn."""
    return bracket.reorder(dropped, "reverse" if winners_round % 2 == 0 else "half_shift")


ORDERS: dict[str, Callable[[Sequence[Any], int, int], list[Any]]] = {
    "before": alternating,
    "brackets-manager": bracket.drop_order,
}


def event(size: int, rng: random.Random) -> int:
    """Early losers-bracket rematches in one bracket of ``size`` entrants, coin-toss results."""
    b = bracket.Bracket(list(range(1, size + 1)), double=True)
    met: set[frozenset[int]] = set()
    last = max(m.round for m in b.matches if m.bracket == bracket.LOSERS)
    early = 0
    while not b.finished():
        for m in b.pending():
            pair = frozenset((m.a, m.b))
            if m.bracket == bracket.LOSERS and m.round < last - 1 and pair in met:
                early += 1
            met.add(pair)
            b.record(m.id, rng.choice((m.a, m.b)))
    return early


def measure(events: int = 2000, seed: int = 1) -> list[dict[str, Any]]:
    rows = []
    saved = bracket.drop_order
    try:
        for size in SIZES:
            row: dict[str, Any] = {"entrants": size, "events": events}
            for name, order in ORDERS.items():
                bracket.drop_order = order  # type: ignore[assignment]
                rng = random.Random(seed)
                counts = [event(size, rng) for _ in range(events)]
                row[name] = {
                    "share": sum(1 for c in counts if c) / events,
                    "mean": sum(counts) / events,
                }
            rows.append(row)
    finally:
        bracket.drop_order = saved  # type: ignore[assignment]
    return rows


def lines(rows: list[dict[str, Any]]) -> list[str]:
    return [
        f"double elimination {r['entrants']}: early losers-bracket rematch in "
        + ", ".join(f"{name} {100 * r[name]['share']:.1f}% ({r[name]['mean']:.2f}/event)" for name in ORDERS)
        + f" of {r['events']} events"
        for r in rows
    ]


def main() -> None:
    benchlib.print_report(__doc__, measure, lines)


if __name__ == "__main__":
    main()
