"""A web process's sockets hear a table's updates through one shared subscription per audience.

With a channel per socket, a table watched by a thousand spectators is a group of a thousand channels:
every update is serialised with a thousand channel names, pushed to a thousand receive queues and
woken in a thousand consumers, each through Channels' receive machinery, before a byte is written.
Here each process subscribes once to an audience's updates (a table's spectators; on Redis, a seat's
too) and writes each text (encoded once by ``games.live.publish``) straight to its sockets, in order.

Two ways to subscribe, chosen by the channel layer (``games.live.pubsub.redis_url``):
- **Redis pub/sub** (channels-redis on plain Redis URLs, production): an audience's channel
  (``games.live.groups.feed_channel``) on one connection per process (``games.live.pubsub.Subscriptions``).
  Publishing a move is then one PUBLISH per audience, with no channel-layer group, per-socket queue or
  receive loop on the way: those were most of a web process's CPU a move (#36, docs/BENCHMARKS.md).
  Seats' sockets stay members of their seat's group for the rest (the chat's frames, ``seats_changed``).
- **A channel-layer group** (the in-memory layer of the embedded mode and the tests): the process's one
  member of the table's public group; seats' sockets receive their group's updates themselves.

A socket is held from ``join`` until ``live``: it joins before it reads the state it sends (so no update
can fall between the two), and the updates that arrive meanwhile are forwarded right after that state,
as a channel's queue would have delivered them. The last socket to ``leave`` ends the subscription. When
the pub/sub connection fails, every socket that listened through it is told (``lost``: its consumer
closes it, the client connects again and reads the table afresh). Everything runs on the server's event
loop; one registry per loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from games.live import audience
from games.live.groups import feed_channel, public_group
from games.live.pubsub import Subscriptions, redis_url

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]
Lost = Callable[[], Awaitable[None]]
# Channel layers forget a group member after their ``group_expiry`` (a day for channels-redis):
# a long-watched table renews its membership well before.
RENEW_EVERY = 3600.0


def on_redis(layer: Any) -> bool:
    """Whether updates travel on Redis pub/sub beside this layer (else on its groups)."""
    return redis_url(layer) is not None


class _Feed:
    """This process's subscription to one audience of one table, and its sockets."""

    def __init__(self, key: tuple[int, int, int | None]) -> None:
        self.key = key
        self.game_id, self.seat = key[1], key[2]
        # Each socket's updates held until it is live (a list), or None once it is.
        self.members: dict[Watch, list[str] | None] = {}
        self.subscribed: asyncio.Future[None]
        self.detached = False

    async def forward(self, text: str) -> None:
        for watch, held in list(self.members.items()):
            if held is not None:
                held.append(text)
                continue
            try:
                await watch.send(text)
            except Exception:  # one broken socket must not stop the others
                log.exception("could not forward an update of game %s to a socket", self.game_id)

    def detach(self) -> None:
        """This subscription may hear nothing any more: the next socket subscribes afresh; this one
        serves its members until they leave."""
        registry = _registry().feeds
        if registry.get(self.key) is self:
            del registry[self.key]
        self.detached = True

    async def close(self) -> None:
        raise NotImplementedError


class _GroupFeed(_Feed):
    """A member of the table's public group on the channel layer (the embedded mode's spectators)."""

    def __init__(self, layer: Any, key: tuple[int, int, int | None]) -> None:
        super().__init__(key)
        self.layer = layer
        self.group = public_group(self.game_id)
        self.channel = ""
        self.tasks: list[asyncio.Task[None]] = []
        self.subscribed = asyncio.ensure_future(self._subscribe())

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
                self.detach()
                await asyncio.sleep(1)
                continue
            if message.get("type") == "table.update":
                await self.forward(message["text"])

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


class _RedisFeed(_Feed):
    """An audience's pub/sub channel on the process's connection (``_Hub``)."""

    def __init__(self, hub: _Hub, key: tuple[int, int, int | None]) -> None:
        super().__init__(key)
        self.hub = hub
        self.channel = feed_channel(self.game_id, self.seat)
        self.heard: asyncio.Queue[str] = asyncio.Queue()
        hub.feeds[self.channel.encode()] = self
        self.subscribed = hub.subscriptions.subscribe(self.channel)
        self.task = asyncio.create_task(self._forward_heard())

    async def _forward_heard(self) -> None:
        while True:
            await self.forward(await self.heard.get())

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        hub, name = self.hub, self.channel.encode()
        if hub.feeds.get(name) is self:
            del hub.feeds[name]
            if not hub.subscriptions.ended:
                with contextlib.suppress(Exception):  # a lost connection has no subscription left
                    await hub.subscriptions.unsubscribe(self.channel)


class _Hub:
    """The process's (the loop's) pub/sub connection for its sockets, and the feeds it carries."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.feeds: dict[bytes, _RedisFeed] = {}
        self.subscriptions = Subscriptions(url, self._heard, self._lost)

    def _heard(self, channel: bytes, data: bytes) -> None:
        feed = self.feeds.get(channel)
        if feed is not None:
            feed.heard.put_nowait(data.decode())

    async def _lost(self, subscriptions: Subscriptions, why: str) -> None:
        """Redis dropped the connection: what was published meanwhile is lost to every socket on it.
        Each is told (its consumer closes it; the client reads the table afresh), and the next socket
        gets a new connection."""
        registry = _registry()
        if registry.hub is self:
            registry.hub = None
        log.warning("table updates: Redis pub/sub lost (%s): closing %d feeds", why, len(self.feeds))
        feeds, self.feeds = list(self.feeds.values()), {}
        for feed in feeds:
            feed.detach()
            feed.task.cancel()
            for watch in list(feed.members):
                if watch.lost is not None:
                    try:
                        await watch.lost()
                    except Exception:
                        log.exception("could not close a socket of game %s", feed.game_id)


class Watch:
    """One socket's place in a feed: ``send`` writes a text frame to it; ``lost`` closes it when the
    feed can no longer promise every update."""

    def __init__(self, feed: _Feed, send: Send, lost: Lost | None, counted: bool) -> None:
        self.feed = feed
        self.send = send
        self.lost = lost
        self.counted = counted


class _Registry:
    def __init__(self) -> None:
        self.feeds: dict[tuple[int, int, int | None], _Feed] = {}
        self.hub: _Hub | None = None


_registries: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Registry] = weakref.WeakKeyDictionary()
_closing: set[asyncio.Future[None]] = set()


def _registry() -> _Registry:
    loop = asyncio.get_running_loop()
    registry = _registries.get(loop)
    if registry is None:
        registry = _registries[loop] = _Registry()
    return registry


def _new_feed(layer: Any, key: tuple[int, int, int | None]) -> _Feed:
    url = redis_url(layer)
    if url is None:
        if key[2] is not None:
            raise ValueError("on the channel layer's groups a seat's sockets receive their group themselves")
        return _GroupFeed(layer, key)
    registry = _registry()
    if registry.hub is None or registry.hub.subscriptions.ended:
        registry.hub = _Hub(url)
    return _RedisFeed(registry.hub, key)


async def join(
    layer: Any,
    game_id: int,
    send: Send,
    *,
    seat: int | None = None,
    lost: Lost | None = None,
    counted: bool = True,
) -> Watch:
    """Subscribe (once per process and audience) and hold this socket's updates until ``live``.
    ``seat``: a seat's feed (only on Redis: ``on_redis``); None: the spectators'. ``counted``: a
    spectator the lobby counts (a socket on the server's loop; not the API's stream, which runs on a
    request's loop and is no one watching the page)."""
    registry, key = _registry().feeds, (id(layer), game_id, seat)
    feed = registry.get(key)
    if feed is None:
        feed = registry[key] = _new_feed(layer, key)
    watch = Watch(feed, send, lost, counted and seat is None)
    feed.members[watch] = []
    if watch.counted:
        audience.changed(game_id, _watching(game_id))
    try:
        await asyncio.shield(feed.subscribed)
    except BaseException:  # the subscription failed (the next socket tries again), or this one left
        feed.members.pop(watch, None)
        if watch.counted:
            audience.changed(game_id, _watching(game_id))
        if not feed.members and registry.get(key) is feed:
            del registry[key]
            closing = asyncio.ensure_future(_close(feed))
            _closing.add(closing)
            closing.add_done_callback(_closing.discard)
        raise
    return watch


async def live(watch: Watch) -> None:
    """Forward the updates held since ``join`` (the state has been sent), then each one as it comes."""
    feed = watch.feed
    held = feed.members.get(watch)
    while held:
        await watch.send(held.pop(0))
    if watch in feed.members:
        feed.members[watch] = None


async def leave(watch: Watch) -> None:
    feed = watch.feed
    if watch in feed.members:
        del feed.members[watch]
        if watch.counted:
            audience.changed(feed.game_id, _watching(feed.game_id))
    registry = _registry().feeds
    if feed.members:
        return
    if registry.get(feed.key) is feed:
        del registry[feed.key]
    elif not feed.detached:
        return
    await _close(feed)


async def _close(feed: _Feed) -> None:
    with contextlib.suppress(Exception):
        await asyncio.shield(feed.subscribed)
    await feed.close()


def detach_all() -> None:
    """The channel layer failed (games.live.sockets): every group subscription of this process may have lost
    its group, not only those whose read failed. The next sockets subscribe afresh."""
    for feed in list(_registry().feeds.values()):
        feed.detach()


def _watching(game_id: int) -> int:
    """This process's spectators of one table (the lobby's count, games.live.audience)."""
    return sum(
        sum(1 for watch in feed.members if watch.counted)
        for (_layer, gid, _seat), feed in _registry().feeds.items()
        if gid == game_id
    )


def watched() -> dict[int, int]:
    """Spectators per table in this process (on the running loop)."""
    counts: dict[int, int] = {}
    for (_layer, game_id, _seat), feed in _registry().feeds.items():
        counted = sum(1 for watch in feed.members if watch.counted)
        if counted:
            counts[game_id] = counts.get(game_id, 0) + counted
    return counts
