"""Channel-layer group and Redis pub/sub channel names: the one place they are spelled."""

from __future__ import annotations


def seat_group(game_id: int, seat: int) -> str:
    return f"table-{game_id}-seat-{seat}"


def public_group(game_id: int) -> str:
    return f"table-{game_id}-public"


def edge_channel(game_id: int) -> str:
    """The Redis pub/sub channel of a table's public updates, for the spectator edge (infra/edge/):
    only the spectators' already-encoded frames are ever published there."""
    return f"tablehall:spectators:{game_id}"


def seat_channel(game_id: int, seat: int) -> str:
    """The Redis pub/sub channel of one seat's updates (games/live/feeds.py): the web processes where that
    seat has a socket subscribe to it. Never the edge's: it holds the seat's hidden cards."""
    return f"tablehall:seat:{game_id}:{seat}"


def feed_channel(game_id: int, seat: int | None) -> str:
    """An audience's pub/sub channel: a seat's, or the spectators' (the edge's channel)."""
    return edge_channel(game_id) if seat is None else seat_channel(game_id, seat)
