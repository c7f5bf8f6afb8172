"""Rate limits on what players send (docs/security.md "Rate limits").

- Every message a socket receives (table, replay and tournament sockets) spends a token of that
  connection's bucket: ``SOCKET_RATE`` tokens a second, at most ``SOCKET_BURST`` saved up. A connection
  lives in one process, so the bucket is kept in that process's memory.
- Every action or table command of a seat (over the HTTP API or any socket of that seat) is counted per
  seat in Django's cache, by django-ratelimit: at most ``ACTION_RATE_LIMIT`` ("COUNT/PERIOD", e.g.
  ``30/5s``) in each window. The cache is Redis when ``REDIS_URL`` is set, so every Daphne process
  shares one count.

A refusal is ``rate_limited`` (HTTP 429); nothing is stored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django_ratelimit.core import get_usage

from games.engines.base import _
from games.errors import ServiceError

log = logging.getLogger(__name__)
ACTION_GROUP = "games.action"
HINT_GROUP = "games.hint"


class RateLimited(ServiceError):
    status = 429

    def __init__(self) -> None:
        super().__init__("rate_limited", _("Too many actions at once: wait a moment, then try again."))


@dataclass
class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` kept; each message takes one."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def socket_bucket() -> TokenBucket | None:
    """A new connection's bucket, or None when ``SOCKET_RATE`` is 0 (no limit)."""
    rate = float(settings.SOCKET_RATE)
    if rate <= 0:
        return None
    return TokenBucket(rate, max(1.0, float(settings.SOCKET_BURST)))


def check_seat(seat_token: str, *, group: str = ACTION_GROUP, rate: str | None = None) -> None:
    """Count one command of the seat with this token; RateLimited past ``rate`` (by default
    ``ACTION_RATE_LIMIT``) in the ``group``'s count.

    Keyed by the seat's token (django-ratelimit stores only a hash of it): unique to the seat, so a
    table's seats never share a count and a test database's reused ids never meet an old count.
    """
    rate = settings.ACTION_RATE_LIMIT if rate is None else rate
    if not rate:
        return
    try:
        usage = get_usage(None, group=group, key=_constant(seat_token), rate=rate, increment=True)
    except Exception:  # a cache outage must not stop the tables: let the command through
        log.warning("rate-limit cache unavailable; command let through", exc_info=True)
        return
    if usage is not None and usage["should_limit"]:
        raise RateLimited()


def _constant(value: str) -> Callable[[str, Any], str]:
    return lambda _group, _request: value
