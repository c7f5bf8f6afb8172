"""How many spectators watch each table, counted across the site's processes: for the lobby.

Spectators are held by the process whose socket they opened (``games.live.feeds``), so no process
knows the others'. Each process writes its own count for a table into a Redis hash (one field per
process, ``count:expiry``), renewed while it has spectators; a process that dies stops renewing and its
field stops counting once its expiry passes. The lobby reads every listed table's hash in one round
trip. One writer task per process sends the latest counts in order, so a join and a leave a moment
apart cannot land reversed.

Without Redis (the embedded mode: one process) the count is this process's. When Redis cannot be read,
``counts`` answers None and the lobby shows no number rather than a wrong one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Any

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

TTL = 90  # seconds a process's count stands without being renewed
RENEW = TTL / 3
PROCESS = uuid.uuid4().hex[:16]

_local: dict[int, int] = {}  # spectators per table in this process
_dirty: set[int] = set()
_writers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
_wake: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}
_clients: dict[asyncio.AbstractEventLoop, Any] = {}
_reader: Any = None


def _key(game_id: int) -> str:
    # The database's name keeps sites (and test runs) that share one Redis apart.
    return f"tablehall:{connection.settings_dict.get('NAME')}:watching:{game_id}"


def changed(game_id: int, count: int) -> None:
    """This process now has ``count`` spectators at the table (called on the server's event loop)."""
    if count > 0:
        _local[game_id] = count
    else:
        _local.pop(game_id, None)
    if not settings.REDIS_URL:
        return
    _dirty.add(game_id)
    loop = asyncio.get_running_loop()
    _wake.setdefault(loop, asyncio.Event()).set()
    writer = _writers.get(loop)
    if writer is None or writer.done():
        _writers[loop] = loop.create_task(_write())


async def _write() -> None:
    """Send the dirty counts, then renew the standing ones every ``RENEW`` seconds while any stand."""
    from redis import asyncio as aioredis

    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        client = _clients[loop] = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
    wake = _wake.setdefault(loop, asyncio.Event())
    last_renewal = time.monotonic()
    while _dirty or _local:
        if not _dirty:
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), max(0.0, RENEW - (time.monotonic() - last_renewal)))
            if time.monotonic() - last_renewal >= RENEW:
                _dirty.update(_local)
                last_renewal = time.monotonic()
            continue
        batch = list(_dirty)
        _dirty.clear()
        expiry = int(time.time()) + TTL
        try:
            pipe = client.pipeline(transaction=False)
            for game_id in batch:
                count = _local.get(game_id, 0)
                if count:
                    pipe.hset(_key(game_id), PROCESS, f"{count}:{expiry}")
                    pipe.expire(_key(game_id), TTL)
                else:
                    pipe.hdel(_key(game_id), PROCESS)
            await pipe.execute()
        except Exception:  # counts are a courtesy: a lost Redis must not touch the tables
            log.warning("could not write the spectator counts", exc_info=True)
            await asyncio.sleep(5)  # and again, without filling the log while Redis is away
            _dirty.update(batch)


def counts(game_ids: list[int]) -> dict[int, int] | None:
    """Spectators per table, every process counted; None when that cannot be known now."""
    if not game_ids:
        return {}
    if not settings.REDIS_URL:
        return {g: _local.get(g, 0) for g in game_ids}
    global _reader
    try:
        if _reader is None:
            import redis

            _reader = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)
        pipe = _reader.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(_key(game_id))
        answers = pipe.execute()
    except Exception:
        log.warning("could not read the spectator counts", exc_info=True)
        return None
    now = time.time()
    found: dict[int, int] = {}
    for game_id, fields in zip(game_ids, answers, strict=True):
        total = 0
        for value in fields.values():
            count, _sep, expiry = value.decode().partition(":")
            if count.isdigit() and expiry.isdigit() and int(expiry) > now:
                total += int(count)
        found[game_id] = total
    return found
