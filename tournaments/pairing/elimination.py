"""Single-elimination brackets: standard seeding, byes to the top seeds."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

Pair = tuple[Hashable | None, Hashable | None]


def bracket_size(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order, so seeds 1 and 2 can only meet in the final:
    size 8 → [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def first_round(seeded: Sequence[Hashable]) -> list[Pair]:
    """The first-round pairs of a bracket for entrants listed by seed (best first).

    Missing entrants in a bracket of the next power of two are byes, and they fall to the top seeds.
    """
    if len(set(seeded)) != len(seeded):
        raise ValueError("entrants must be distinct")
    if len(seeded) < 2:
        return []
    size = bracket_size(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in seed_order(size)]
    return [(slots[i], slots[i + 1]) for i in range(0, size, 2)]


def next_round(winners: Sequence[Hashable | None]) -> list[Pair]:
    """Pairs of the next round from the previous round's winners, in bracket order."""
    if len(winners) % 2:
        raise ValueError("a bracket round has an even number of slots")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
