"""Bipartite matching by augmenting paths, for the engines' ``determinize`` when a greedy deal of the
unseen cards or tiles gets stuck (a void suit, a tile a seat cannot hold): which item fills each slot."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

Item = TypeVar("Item", bound=Hashable)


def match(items: Sequence[Item], slots: int, fits: Callable[[Item, int], bool]) -> dict[Item, int] | None:
    """Each item placed to a slot (``0 … slots-1``), every slot filled by an item that ``fits`` it, items
    tried in their order; None when no such placement exists."""
    owner: dict[Item, int] = {}

    def augment(slot: int, seen: set[Item]) -> bool:
        for item in items:
            if item in seen or not fits(item, slot):
                continue
            seen.add(item)
            if item not in owner or augment(owner[item], seen):
                owner[item] = slot
                return True
        return False

    for slot in range(slots):
        if not augment(slot, set()):
            return None
    return owner
