"""Spectator counts across processes (games/live/audience.py): each process's count in Redis, summed by the
lobby; a process that stops renewing stops counting; no Redis to read, no number."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.conf import settings

from games.live import audience

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    monkeypatch.setattr(audience, "_local", {})
    monkeypatch.setattr(audience, "_dirty", set())
    yield


async def _until(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the counts were never written"
        await asyncio.sleep(0.01)


@pytest.mark.skipif(not settings.REDIS_URL, reason="counts across processes need Redis")
async def test_every_process_is_counted_and_a_silent_one_expires():
    import redis

    game_id = 987654321
    reader = redis.Redis.from_url(settings.REDIS_URL)
    key = audience._key(game_id)
    reader.delete(key)
    # Another process's spectators: two, still renewed; a dead one's three, expired.
    reader.hset(key, "other", f"2:{int(time.time()) + 60}")
    reader.hset(key, "dead", f"3:{int(time.time()) - 1}")
    audience.changed(game_id, 4)
    await _until(lambda: audience.counts([game_id]) == {game_id: 6})
    audience.changed(game_id, 0)  # the last spectator of this process left
    await _until(lambda: audience.counts([game_id]) == {game_id: 2})
    reader.delete(key)


def test_without_redis_this_process_counts(monkeypatch):
    monkeypatch.setattr(settings, "REDIS_URL", "")
    audience._local[5] = 2
    assert audience.counts([5, 6]) == {5: 2, 6: 0}


def test_a_redis_that_cannot_be_read_gives_no_number(monkeypatch):
    monkeypatch.setattr(settings, "REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setattr(audience, "_reader", None)
    assert audience.counts([1]) is None
    monkeypatch.setattr(audience, "_reader", None)
