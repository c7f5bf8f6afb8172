"""Channel-layer group and Redis pub/sub channel names: the one place they are spelled."""

from __future__ import annotations

import functools

from django.conf import settings
from redis.connection import parse_url


def seat_group(game_id: int, seat: int) -> str:
    return f"table-{game_id}-seat-{seat}"


def public_group(game_id: int) -> str:
    return f"table-{game_id}-public"


@functools.lru_cache(maxsize=8)
def _database(url: str) -> int:
    return int(parse_url(url).get("db", 0)) if url else 0


def _pubsub_prefix() -> str:
    """Pub/sub channels are server-wide, unlike every key of the layer, the cache and Celery, which
    live in the deployment's Redis database: two deployments on one server (or two test processes,
    each on its own database) would otherwise hear each other's table 89, hidden cards included. The
    database number in each channel's name keeps pub/sub within the same bounds as the rest."""
    return f"tablehall:{_database(settings.REDIS_URL or '')}"


def edge_channel(game_id: int) -> str:
    """The Redis pub/sub channel of a table's public updates, for the spectator edge (infra/edge/):
    only the spectators' already-encoded frames are ever published there."""
    return f"{_pubsub_prefix()}:spectators:{game_id}"


def seat_channel(game_id: int, seat: int) -> str:
    """The Redis pub/sub channel of one seat's updates (games/live/feeds.py): the web processes where that
    seat has a socket subscribe to it. Never the edge's: it holds the seat's hidden cards."""
    return f"{_pubsub_prefix()}:seat:{game_id}:{seat}"


def feed_channel(game_id: int, seat: int | None) -> str:
    """An audience's pub/sub channel: a seat's, or the spectators' (the edge's channel)."""
    return edge_channel(game_id) if seat is None else seat_channel(game_id, seat)
