"""Whether a seat is connected to its table, and since when it has not been (games/commands/resignation.py).

A seat's table socket and its API stream count as connections; each process adds one when it opens and
takes it away when it closes, in the site's cache (Redis in production, so every process sees the same
count). When the count falls to zero the moment is kept: the seat has been gone since then. A seat that
never connected has been gone since its last move, or since the table was made.

A process killed outright leaves its connections counted: the seat then looks connected and cannot be
claimed against — the safe side, since a connected player must never be timed out. The keys expire a
day after their last change.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.core.cache import cache
from django.utils import timezone

KEPT = 24 * 3600  # seconds


def _count_key(game_id: int, seat: int) -> str:
    return f"presence:{game_id}:{seat}:open"


def _gone_key(game_id: int, seat: int) -> str:
    return f"presence:{game_id}:{seat}:gone"


def joined(game_id: int, seat: int) -> None:
    """A connection of the seat opened."""
    key = _count_key(game_id, seat)
    cache.add(key, 0, KEPT)
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, KEPT)
    cache.touch(key, KEPT)


def left(game_id: int, seat: int, now: datetime | None = None) -> None:
    """A connection of the seat closed; the last one starts its absence."""
    key = _count_key(game_id, seat)
    try:
        count = cache.decr(key)
    except ValueError:
        count = 0
    if count <= 0:
        cache.delete(key)
        cache.set(_gone_key(game_id, seat), (now or timezone.now()).timestamp(), KEPT)


def connected(game_id: int, seat: int) -> bool:
    count = cache.get(_count_key(game_id, seat))
    return isinstance(count, int) and count > 0


def absent_since(game_id: int, seat: int, *, last_move_at: datetime) -> datetime | None:
    """None while the seat is connected; else when it was last seen (its last connection's close or its
    last move, whichever is later)."""
    if connected(game_id, seat):
        return None
    gone = cache.get(_gone_key(game_id, seat))
    if isinstance(gone, int | float):
        return max(last_move_at, datetime.fromtimestamp(gone, tz=UTC))
    return last_move_at
