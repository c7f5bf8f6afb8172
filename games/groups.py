"""Channel-layer group names: the one place they are spelled."""

from __future__ import annotations


def seat_group(game_id: int, seat: int) -> str:
    return f"table-{game_id}-seat-{seat}"


def public_group(game_id: int) -> str:
    return f"table-{game_id}-public"


def edge_channel(game_id: int) -> str:
    """The Redis pub/sub channel of a table's public updates, for the spectator edge (infra/edge/):
    only the spectators' already-encoded frames are ever published there."""
    return f"tablehall:spectators:{game_id}"
