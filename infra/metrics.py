"""Metrics worth watching, in Prometheus' text format at ``/metrics`` (docs/deploying.md "Metrics").

- ``tablehall_moves_total{by}``: moves stored (``rate()`` gives moves/s), by players or computers;
- ``tablehall_event_append_seconds``: how long ``games.eventlog.store.append`` takes, and
  ``tablehall_events_appended_total`` / ``tablehall_append_conflicts_total``;
- ``tablehall_websockets_connected{route}``: open sockets (tables, replays, tournament pages);
- ``tablehall_celery_queue_length{queue}`` and ``tablehall_celery_unacked``: tasks waiting in Redis,
  and ``tablehall_turns{queue,state}``: computer turns waiting (``due``) or being played (``claimed``)
  by the workers' turn chains (games/background/dueturns.py), read when scraped.

Each process counts for itself. With ``PROMETHEUS_MULTIPROC_DIR`` set to a directory shared by
the web and worker processes of one machine (or one compose project), every ``/metrics`` reports
the sum of them all, Celery's pool processes included: that is how the computers' moves, which
are stored by the workers, reach a web process's page.

The counters are fed by a wrapper around ``games.eventlog.store.append`` and an after-commit hook of the
command pipeline (``games.hooks``; both from ``install``, from ``InfraConfig.ready``), so the event
store and the service stay unaware of them; the socket gauge by ``SocketGauge``, an ASGI middleware in front of every consumer.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hmac
import ipaddress
import os
import socket
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.core import GaugeMetricFamily

from games.background.dueturns import keys as turns_keys

MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
_HOST = socket.gethostname().replace("_", "-")


def _process_id() -> str:
    # Host and pid: processes of several containers may share one directory, and their pids
    # collide. No "_": the collector splits file names on it.
    return f"{_HOST}-{os.getpid()}"


def _forget_dead_processes() -> None:
    """Drop the live gauges of this host's processes that are gone (a restarted web process's
    old sockets must not be counted forever), and any left under our own id."""
    own = _process_id()
    for path in glob.glob(os.path.join(MULTIPROC_DIR, f"gauge_live*_{_HOST}-*.db")):
        ident = os.path.basename(path).rsplit("_", 1)[1][: -len(".db")]
        host, _, pid = ident.rpartition("-")
        if host != _HOST or not pid.isdigit():
            continue  # another host's (a longer name that starts like ours)
        if ident == own or not _alive(int(pid)):
            # Several processes may start at once and clean the same file.
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# The *_created series double the page and say nothing a restart's counter reset does not.
disable_created_metrics()
if MULTIPROC_DIR:
    _forget_dead_processes()
    values.ValueClass = values.MultiProcessValue(_process_id)

MOVES = Counter("tablehall_moves", "Moves stored (players' and computers'), once committed.", ["by"])
APPEND_SECONDS = Histogram(
    "tablehall_event_append_seconds",
    "Time to append one command's events to the event store.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
EVENTS = Counter("tablehall_events_appended", "Events appended to the store (retried commands excluded).")
CONFLICTS = Counter(
    "tablehall_append_conflicts", "Appends refused because another command got to the game first."
)
SOCKETS = Gauge(
    "tablehall_websockets_connected",
    "WebSockets open on this process (summed over processes in multiprocess mode).",
    ["route"],
    multiprocess_mode="livesum",
)
# Every series exists from the start at 0, so rate() and alerts see the first move.
for _by in ("player", "computer"):
    MOVES.labels(by=_by)
for _route in ("table", "replay", "tournament", "other"):
    SOCKETS.labels(route=_route)


# --- Hooks ------------------------------------------------------------------------------------------


def _timed_append(append: Callable[..., Any]) -> Callable[..., Any]:
    from games.errors import Conflict

    @functools.wraps(append)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            appended = append(*args, **kwargs)
        except Conflict:
            CONFLICTS.inc()
            raise
        APPEND_SECONDS.observe(time.perf_counter() - started)
        if not appended.duplicate:
            EVENTS.inc(len(appended.events))
        return appended

    return timed


def _count_move(change: Any) -> None:
    """An after-commit hook (games.hooks): a move counts once it is durable, a retry not again."""
    if change.is_move:
        MOVES.labels(by="computer" if change.actor.startswith("bot:") else "player").inc()


_installed = False


def install() -> None:
    """Meter the store's appends and the service's moves, once per process."""
    global _installed
    from games import hooks
    from games.eventlog import store

    if _installed:
        return
    _installed = True
    store.append = _timed_append(store.append)  # type: ignore[method-assign]
    hooks.register("metrics", _count_move, order=20)
    if not MULTIPROC_DIR:
        REGISTRY.register(_QUEUE)


# --- Sockets ----------------------------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def socket_route(path: str) -> str:
    for prefix, route in (
        ("/ws/tables/", "table"),
        ("/ws/watch/", "table"),
        ("/ws/replays/", "replay"),
        ("/ws/tournaments/", "tournament"),
    ):
        if path.startswith(prefix):
            return route
    return "other"


class SocketGauge:
    """ASGI middleware: a socket counts from its ``accept`` until its consumer ends."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        gauge = SOCKETS.labels(route=socket_route(scope.get("path", "")))
        accepted = False

        async def counting_send(message: MutableMapping[str, Any]) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                gauge.inc()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                gauge.dec()


# --- Celery queue -----------------------------------------------------------------------------------

# kombu's Redis transport keeps a queue's priorities 3, 6 and 9 in lists named QUEUE + sep + n.
_PRIORITY_SEP = "\x06\x16"


class QueueCollector:
    """Computer turns waiting in Redis, read at scrape time (one round trip, bounded by a timeout)."""

    def describe(self) -> list[GaugeMetricFamily]:
        return []  # so that registering it does not call Redis

    def collect(self) -> Iterator[GaugeMetricFamily]:
        url = settings.REDIS_URL
        if not url:
            return
        import redis

        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
            with client.pipeline(transaction=False) as pipe:
                for key in [queue, *(f"{queue}{_PRIORITY_SEP}{n}" for n in (3, 6, 9))]:
                    pipe.llen(key)
                pipe.hlen("unacked")
                due_key, claimed_key = turns_keys(queue)[:2]
                pipe.zcard(due_key)
                pipe.zcard(claimed_key)
                *lengths, unacked, due, claimed = pipe.execute()
        except redis.RedisError:
            return  # /healthz says Redis is down; a scrape must not fail because of it
        waiting = GaugeMetricFamily(
            "tablehall_celery_queue_length", "Tasks waiting in the Celery queue (Redis).", labels=["queue"]
        )
        waiting.add_metric([queue], sum(lengths))
        yield waiting
        yield GaugeMetricFamily(
            "tablehall_celery_unacked",
            "Tasks taken by workers and not yet done, delayed computer turns included (all queues).",
            value=unacked,
        )
        turns = GaugeMetricFamily(
            "tablehall_turns",
            "Computer turns due and claimed in Redis (games/background/dueturns.py).",
            labels=["queue", "state"],
        )
        turns.add_metric([queue, "due"], due)
        turns.add_metric([queue, "claimed"], claimed)
        yield turns


_QUEUE = QueueCollector()


# --- The page ---------------------------------------------------------------------------------------


def _allowed(request: HttpRequest) -> bool:
    """With the token from METRICS_TOKEN, from anywhere; without it, only from this machine and
    not through the proxy (nginx adds X-Forwarded-For, and its client may be anyone)."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    if "X-Forwarded-For" in request.headers:
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def view(request: HttpRequest) -> HttpResponse:
    if not _allowed(request):
        return HttpResponse("Forbidden\n", status=403, content_type="text/plain")
    if MULTIPROC_DIR:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, MULTIPROC_DIR)
        registry.register(_QUEUE)
    else:
        registry = REGISTRY
    response = HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
