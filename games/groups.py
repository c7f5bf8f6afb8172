"""Channel-layer group names: the one place they are spelled."""

from __future__ import annotations


def seat_group(game_id: int, seat: int) -> str:
    return f"table-{game_id}-seat-{seat}"


def public_group(game_id: int) -> str:
    return f"table-{game_id}-public"
