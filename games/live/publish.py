"""What each audience is sent: its view computed once per change, then fanned out by group.

Registered as an after-commit hook (games.hooks): the service hands over the table it built for the
command, and nothing is loaded again. Spectators of a table with a spectator delay see the table as it
was that many moves ago.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import orjson
from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from games import hooks
from games.eventlog.tables import Table, folded_upto, moves_back, previous_end, spectator_cut
from games.eventlog.timeline import FAIR_PREFIX, TABLE_EVENTS
from games.live.groups import edge_channel, feed_channel, public_group, seat_group
from games.live.pubsub import redis_url
from games.words import names

log = logging.getLogger(__name__)
T = TypeVar("T")


def table_message(table: Table, seat: int | None, since: int) -> dict[str, Any]:
    """One audience's picture of the table. ``since``: the seq this message follows (gap detection)."""
    return {
        "game": table.game.pk,
        "seq": table.seq,
        "since": since,
        "seat": seat,
        "view": table.engine.view(table.state, seat),
        "to_act": table.to_act(),
        "legal_actions": (
            table.engine.legal_actions(table.state, seat)
            if seat is not None and not table.timeline.abandoned and table.timeline.resigned is None
            else []
        ),
        "can_undo": table.timeline.can_undo and table.game.allows_undo,
        "can_redo": table.timeline.can_redo and table.game.allows_undo,
        "paused": table.timeline.paused,
        "game_number": table.timeline.game_number,
        # One end-of-game shape for every game: the engine's outcome (places, scores, winners…).
        "outcome": (outcome := table.outcome()),
        "finished": outcome is not None,
        # Why the game was stopped before its end ("forfeit", "no-show"…); None while it goes on.
        "stopped": (table.timeline.abandon_reason or "stopped") if table.timeline.abandoned else None,
        # A seat resigned, or was claimed against when it left: {"seat", "reason"} (games/commands/resignation.py).
        "resigned": table.timeline.resigned,
        "last_move": last_move(table),
    }


def last_move(table: Table) -> dict[str, Any] | None:
    """Who made the last move and what happened, for the move log: event types always, event data
    only for the types the engine lists in ``PUBLIC_EVENTS`` (everything in them is public)."""
    if not table.events:
        return None
    last = table.events[-1]
    public: frozenset[str] = getattr(table.engine, "PUBLIC_EVENTS", frozenset())
    events = []
    for e in reversed(table.events):  # a command's events are contiguous and end the log
        if e.command_id != last.command_id:
            break
        if e.type.startswith(FAIR_PREFIX):
            continue  # the fair-deal proof is no move (and its commitment holds a secret)
        shown = e.type in public or e.type in TABLE_EVENTS
        events.append({"type": e.type, **(e.data if shown else {})})
    events.reverse()
    return {"actor": last.actor, "seq": last.seq, "events": events}


def spectator_table(table: Table) -> Table:
    cut = spectator_cut(table)
    if cut == table.seq:
        return table
    return folded_upto(table, cut)  # in memory: the table holds the whole log


def snapshot(table: Table, seat: int | None) -> dict[str, Any]:
    """The full picture for a (re)connecting client, with the seats around the table."""
    shown = table if seat is not None else spectator_table(table)
    seats = [
        {
            "number": s.number,
            "name": names.seat_name(s),
            "bot": s.bot_level or None,
            "computer": s.bot_number if s.bot_level else None,
            "team": s.team,
        }
        for s in table.game.seats.all()
    ]
    return {**table_message(shown, seat, shown.seq), "seats": seats, "engine": table.game.engine}


def table_changed(table: Table) -> None:
    """Send every audience its new picture: each seat's view, and the spectators' (maybe delayed).

    Only the audiences someone listens to are sent theirs, asked of Redis (or the layer) in one round
    trip: a computer's seat, a player who closed the page, a table nobody watches cost no view and no
    message. That is safe because a socket subscribes before it reads the table (games.live.feeds,
    games.live.consumers): one that subscribes after the question reads a table that already has this move.
    On Redis (``games.live.pubsub.redis_url``) each audience's text is PUBLISHed on its channel, from this
    thread (``_send_pubsub``); in the embedded mode it is sent to the audience's channel-layer group.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    game_id = table.game.pk
    since = previous_end(table.events)
    # Each audience (a seat, or None: the spectators) and its text, made when it is needed (``_encode``).
    audiences: list[tuple[int | None, Callable[[], dict[str, Any]]]] = [
        (n, functools.partial(table_message, table, n, since)) for n in range(table.game.config["players"])
    ]
    if not table.game.deal_is_secret():  # else spectators keep the opening (spectator_cut)
        public = spectator_table(table)
        delay = table.game.spectator_delay
        # The spectators' previous picture: as they were cut when the previous command was the last.
        # (The log's seqs are 1, 2, 3…: the events up to ``since`` are its first ``since``.)
        public_since = moves_back(table.events, delay, upto=since) if since else 0
        audiences.append((None, functools.partial(table_message, public, None, public_since)))
    # Other parts' sockets that follow the game (a replay page), told in the same trip.
    nudges = [(group, message) for follower in _followers for group, message in follower(table)]
    if redis_url(layer) is not None:
        _send_pubsub(layer, game_id, table.seq, audiences, nudges)
        return
    texts = [
        (seat_group(game_id, seat) if seat is not None else public_group(game_id), _encode(message))
        for seat, message in audiences
    ]
    # The edge hears the public text and nothing else: the seats' texts never reach its channel.
    public_text = next((text for group, text in texts if group == public_group(game_id)), None)

    async def send_all() -> None:
        # One trip into the event loop for every audience: each trip costs a thread hop.
        try:
            listened = await _listened(layer, [group for group, _text in texts] + [g for g, _m in nudges])
        except Exception:  # the layer cannot say: send to every audience
            log.exception("could not ask who listens to game %s", game_id)
            listened = None
        for group, text in texts:
            if listened is not None and group not in listened:
                continue
            try:
                await layer.group_send(group, {"type": "table.update", "text": text})
            except Exception:  # a full or unreachable layer must not undo a committed move
                log.exception("could not publish game %s seq %s to %s", game_id, table.seq, group)
        await _nudge(layer, game_id, table.seq, nudges, listened)
        if public_text is not None and edge_enabled(layer):
            try:
                await layer.connection(0).publish(edge_channel(game_id), public_text)
            except Exception:  # the edge's spectators see the gap and resync
                log.exception("could not publish game %s seq %s to the spectator edge", game_id, table.seq)

    try:
        _run(send_all, layer)
    except Exception:  # e.g. called from a thread that runs an event loop: the move stands regardless
        log.exception("could not publish game %s seq %s", game_id, table.seq)


async def _nudge(
    layer: Any, game_id: int, seq: int, nudges: list[tuple[str, dict[str, Any]]], listened: set[str] | None
) -> None:
    for group, nudge in nudges:
        if listened is not None and group not in listened:
            continue
        try:
            await layer.group_send(group, nudge)
        except Exception:
            log.exception("could not tell %s of game %s seq %s", group, game_id, seq)


SEATS_CHANGED = orjson.dumps({"type": "seats_changed"}).decode()


def seats_changed(game_id: int, players: int) -> None:
    """Tell the table's pages that its seats changed (a seat taken through an invite or the lobby):
    each asks again for the whole table, whose seat names are written in its own reader's language.
    Nothing else is said: a page that hears it learns no more than a reload would show it. Seats hear it
    on their groups; spectators on their feed: the spectators' Redis channel (Daphne's and the edge's,
    which reads its pictures again), or the public group in the embedded mode."""
    layer = get_channel_layer()
    on_redis = redis_url(layer) is not None
    groups = [seat_group(game_id, n) for n in range(players)]
    if not on_redis:
        groups.append(public_group(game_id))  # the embedded mode's spectators
    for group in groups:
        try:
            group_send(group, {"type": "table.update", "text": SEATS_CHANGED})
        except Exception:  # the seat is taken whatever the layer does; pages catch up on reload
            log.exception("could not tell game %s's pages that its seats changed", game_id)
    if on_redis:
        try:
            _Direct.client(layer, 0).publish(feed_channel(game_id, None), SEATS_CHANGED)
        except Exception:
            log.exception("could not tell game %s's spectators that its seats changed", game_id)


def encode_update(message: dict[str, Any]) -> str:
    """An update's text, as each audience gets it live and again when it catches up (games.live.resume).
    (orjson: compact like ``separators=(",", ":")``, UTF-8 rather than ``\\u`` escapes, int keys as
    strings like json; a tenth of json's CPU on the hot path of every move.)"""
    return orjson.dumps({"type": "update", **message}, option=orjson.OPT_NON_STR_KEYS).decode()


def _encode(message: Callable[[], dict[str, Any]]) -> str:
    """Encoded once per audience, not once per socket: consumers and the edge forward the text as it is."""
    return encode_update(message())


def _send_pubsub(
    layer: Any,
    game_id: int,
    seq: int,
    audiences: list[tuple[int | None, Callable[[], dict[str, Any]]]],
    nudges: list[tuple[str, dict[str, Any]]],
) -> None:
    """Publish on Redis from this thread (a web process's database thread, a Celery worker): one
    pipelined trip asks which audiences' channels have a subscriber (a web process where that seat has a
    socket, spectators there or on the edge) and which followers' groups a member; a second PUBLISHes
    each listened audience's text, made only then. No event loop is reached unless a follower listens
    (a replay page: channels-redis's ``group_send``). Computer seats nobody watches cost one trip."""
    channels = [feed_channel(game_id, seat) for seat, _message in audiences]
    by_server: dict[int, list[str]] = {}
    for group, _told in nudges:
        by_server.setdefault(layer.consistent_hash(group), []).append(group)
    followed: set[str] = set()
    try:
        first = by_server.pop(0, [])
        pipe = _Direct.client(layer, 0).pipeline(transaction=False)
        pipe.pubsub_numsub(*channels)
        for group in first:
            pipe.zcard(layer._group_key(group))
        subscribers, *counts = pipe.execute()
        followed.update(group for group, count in zip(first, counts, strict=True) if count)
        for index, some in by_server.items():
            pipe = _Direct.client(layer, index).pipeline(transaction=False)
            for group in some:
                pipe.zcard(layer._group_key(group))
            followed.update(group for group, count in zip(some, pipe.execute(), strict=True) if count)
        heard = [
            (channel, message)
            for channel, (_seat, message), (_name, count) in zip(
                channels, audiences, subscribers, strict=True
            )
            if count
        ]
        if heard:
            pipe = _Direct.client(layer, 0).pipeline(transaction=False)
            for channel, message in heard:
                pipe.publish(channel, _encode(message))
            pipe.execute()
    except Exception:  # Redis unreachable: the move stands; sockets that missed it see the gap and resync
        log.exception("could not publish game %s seq %s", game_id, seq)
        return
    if not followed:
        return

    async def send_followed() -> None:
        await _nudge(layer, game_id, seq, nudges, followed)

    try:
        _run(send_followed, layer)
    except Exception:
        log.exception("could not tell the followers of game %s seq %s", game_id, seq)


def edge_enabled(layer: Any) -> bool:
    """Whether spectators watch through the edge (``SPECTATOR_SOCKET`` set, on channels-redis): not in
    embedded mode, whose in-memory layer has no Redis to publish on."""
    return bool(getattr(settings, "SPECTATOR_SOCKET", "")) and hasattr(layer, "connection")


async def _listened(layer: Any, groups: list[str]) -> set[str] | None:
    """Which of ``groups`` have a member, asked of channels-redis in one pipelined round trip per Redis
    server (ZCARD of each group's set: an expired member still counts, so nothing is missed); None when
    the layer cannot say (the in-memory layer: then every audience is sent its picture)."""
    if not all(hasattr(layer, name) for name in ("_group_key", "connection", "consistent_hash")):
        return None
    by_server: dict[int, list[str]] = {}
    for group in groups:
        by_server.setdefault(layer.consistent_hash(group), []).append(group)
    listened: set[str] = set()
    for index, some in by_server.items():
        async with layer.connection(index).pipeline(transaction=False) as pipe:
            for group in some:
                pipe.zcard(layer._group_key(group))
            counts = await pipe.execute()
        listened.update(group for group, count in zip(some, counts, strict=True) if count)
    return listened


Follower = Callable[[Table], list[tuple[str, dict[str, Any]]]]
_followers: list[Follower] = []


def follow(follower: Follower) -> None:
    """After every change, ``follower(table)`` names channel-layer groups and the message each is sent
    with the table's own updates, in the same trip and only to groups someone listens to (replay.live).
    """
    if follower not in _followers:
        _followers.append(follower)


def on_change(change: hooks.Change) -> None:
    """The after-commit hook (registered in games/apps.py): the change's updates to their audiences."""
    table_changed(change.table)


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send one message to a channel-layer group from synchronous code, on the loop the layer's
    connections live on (``_run``): other parts' nudges (a tournament page, a replay's comments) cost a
    worker one thread hop, not a new loop and new Redis connections each. Raises what the layer raises."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        await layer.group_send(group, message)

    _run(send, layer)


# --- One event loop per process for the layer, when no server's loop is there ------------------------


def _run(send: Callable[[], Coroutine[Any, Any, T]], layer: Any) -> T:
    """Run ``send`` on the event loop the layer's connections live on.

    Under an ASGI server (a command from a socket, an HTTP request) that is the server's loop, reached
    through ``async_to_sync``. Elsewhere (a Celery worker, the in-process worker, a script) async_to_sync
    would make a new loop, a new thread and new Redis connections for every publication: a network
    layer is given one loop per process instead, kept in a thread of its own, so each move costs one
    thread hop. The in-memory layer (embedded mode, tests) keeps async_to_sync, as its queues expect.
    """
    if isinstance(layer, InMemoryChannelLayer) or _server_loop() is not None:
        return async_to_sync(send)()
    return _Loop.get().run(send())


class _Direct:
    """Synchronous Redis clients on the channel layer's servers, one per server and process (redis-py's
    pools hand each thread its own connection)."""

    _clients: dict[tuple[int, int], Any] = {}
    _lock = threading.Lock()

    @classmethod
    def client(cls, layer: Any, index: int) -> Any:
        key = (os.getpid(), index)
        with cls._lock:
            client = cls._clients.get(key)
            if client is None:
                import redis

                host = dict(layer.hosts[index])
                client = cls._clients[key] = redis.Redis.from_url(host.pop("address"), **host)
            return client


def _server_loop() -> asyncio.AbstractEventLoop | None:
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    # asgiref leaves the mark behind when the loop that set it has stopped (an async test, a finished
    # async_to_sync): only a running loop is a server's.
    return loop if loop is not None and loop.is_running() else None


class _Loop:
    """A daemon thread running an event loop (one per process: made again after a fork)."""

    _current: _Loop | None = None
    _lock = threading.Lock()
    TIMEOUT = 30.0

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        thread = threading.Thread(target=self.loop.run_forever, name="publish-loop", daemon=True)
        thread.start()

    @classmethod
    def get(cls) -> _Loop:
        with cls._lock:
            if cls._current is None or cls._current.pid != os.getpid():
                cls._current = _Loop()
            return cls._current

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(self.TIMEOUT)
