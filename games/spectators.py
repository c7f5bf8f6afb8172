"""The spectators of a table in one process share one subscription to its public group.

With a channel per socket, a table watched by a thousand spectators is a group of a thousand channels:
every update is serialised with a thousand channel names, pushed to a thousand receive queues and
woken in a thousand consumers, each through Channels' receive machinery, before a byte is written.
Here each process joins the table's public group once, with a channel of its own, and writes each
update's text (encoded once by ``games.publish``) straight to its spectators' sockets, in order. Seats
keep a group each (one or a few sockets).

A spectator is held from ``join`` until ``live``: the consumer joins before it reads the state it sends
(so no update can fall between the two), and the updates that arrive meanwhile are forwarded right after
that state, as a channel's queue would have delivered them. The last spectator to ``leave`` ends the
subscription. Everything runs on the server's event loop; one registry per loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from games import audience
from games.groups import public_group

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]
# Channel layers forget a group member after their ``group_expiry`` (a day for channels-redis):
# a long-watched table renews its membership well before.
RENEW_EVERY = 3600.0


class _Table:
    """This process's subscription to one table's public group, and its spectators."""

    def __init__(self, layer: Any, game_id: int) -> None:
        self.layer = layer
        self.game_id = game_id
        self.group = public_group(game_id)
        self.channel = ""
        # Each spectator's updates held until it is live (a list), or None once it is.
        self.members: dict[Watch, list[str] | None] = {}
        self.subscribed: asyncio.Future[None] = asyncio.ensure_future(self._subscribe())
        self.tasks: list[asyncio.Task[None]] = []
        self.detached = False

    async def _subscribe(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._renew())]

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # an unreachable layer must not end the table's stream for good
                log.exception("spectators of game %s: could not read the channel layer", self.game_id)
                self._detach()
                await asyncio.sleep(1)
                continue
            if message.get("type") != "table.update":
                continue
            text = message["text"]
            for watch, held in list(self.members.items()):
                if held is not None:
                    held.append(text)
                    continue
                try:
                    await watch.send(text)
                except Exception:  # one broken socket must not stop the others
                    log.exception("could not forward an update of game %s to a spectator", self.game_id)

    def _detach(self) -> None:
        """A restarted Redis keeps no group: this subscription may hear nothing any more. The next
        spectator subscribes afresh (joining before its state is read); this one serves its members
        until they leave (games.sockets closes their sockets when the layer fails)."""
        registry = _tables.get(asyncio.get_running_loop(), {})
        key = (id(self.layer), self.game_id)
        if registry.get(key) is self:
            del registry[key]
        self.detached = True

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                await self.layer.group_add(self.group, self.channel)
            except Exception:
                log.exception("spectators of game %s: could not renew the subscription", self.game_id)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.channel:
            try:
                await self.layer.group_discard(self.group, self.channel)
            except Exception:  # the membership expires by itself
                log.exception("spectators of game %s: could not leave the group", self.game_id)


class Watch:
    """One spectator socket's place at a table: ``send`` writes a text frame to it."""

    def __init__(self, table: _Table, send: Send) -> None:
        self.table = table
        self.send = send


_tables: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[int, int], _Table]] = (
    weakref.WeakKeyDictionary()
)
_closing: set[asyncio.Future[None]] = set()


def _registry() -> dict[tuple[int, int], _Table]:
    return _tables.setdefault(asyncio.get_running_loop(), {})


async def join(layer: Any, game_id: int, send: Send) -> Watch:
    """Subscribe (once per process and table) and hold this spectator's updates until ``live``."""
    registry, key = _registry(), (id(layer), game_id)
    table = registry.get(key)
    if table is None:
        table = registry[key] = _Table(layer, game_id)
    watch = Watch(table, send)
    table.members[watch] = []
    audience.changed(game_id, _watching(game_id))
    try:
        await asyncio.shield(table.subscribed)
    except BaseException:  # the subscription failed (the next spectator tries again), or this one left
        table.members.pop(watch, None)
        audience.changed(game_id, _watching(game_id))
        if not table.members and registry.get(key) is table:
            del registry[key]
            closing = asyncio.ensure_future(_close(table))
            _closing.add(closing)
            closing.add_done_callback(_closing.discard)
        raise
    return watch


async def live(watch: Watch) -> None:
    """Forward the updates held since ``join`` (the state has been sent), then each one as it comes."""
    table = watch.table
    held = table.members.get(watch)
    while held:
        await watch.send(held.pop(0))
    if watch in table.members:
        table.members[watch] = None


async def leave(watch: Watch) -> None:
    table = watch.table
    if watch in table.members:
        del table.members[watch]
        audience.changed(table.game_id, _watching(table.game_id))
    registry, key = _registry(), (id(table.layer), table.game_id)
    if table.members:
        return
    if registry.get(key) is table:
        del registry[key]
    elif not table.detached:
        return
    await _close(table)


async def _close(table: _Table) -> None:
    with contextlib.suppress(Exception):
        await asyncio.shield(table.subscribed)
    await table.close()


def detach_all() -> None:
    """The channel layer failed (games.sockets): every subscription of this process may have lost its
    group, not only those whose read failed. The next spectators subscribe afresh."""
    for table in list(_registry().values()):
        table._detach()


def _watching(game_id: int) -> int:
    """This process's spectators of one table (the lobby's count, games.audience)."""
    return sum(len(t.members) for (_layer, gid), t in _registry().items() if gid == game_id)


def watched() -> dict[int, int]:
    """Spectators per table in this process (on the running loop)."""
    counts: dict[int, int] = {}
    for (_layer, game_id), table in _registry().items():
        counts[game_id] = counts.get(game_id, 0) + len(table.members)
    return counts
