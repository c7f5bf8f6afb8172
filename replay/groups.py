"""Channel-layer group names of replays: the one place they are spelled."""

from __future__ import annotations


def game_group(game_id: int) -> str:
    """Every replay socket of a game (comments are pushed here)."""
    return f"replay-{game_id}"


def room_group(key: str) -> str:
    """The sockets of one replay room (positions and drivers are pushed here)."""
    return f"replay-room-{key}"
