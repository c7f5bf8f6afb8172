"""/metrics: who may read it, and that moves, appends, sockets and the Celery queue show in it."""

from __future__ import annotations

import os
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from games.errors import Conflict
from games.eventlog import store
from infra.metrics import SocketGauge
from infra.routing import websocket_urlpatterns
from tests.games.factories import play, tiny_game

pytestmark = pytest.mark.django_db(transaction=True)


def scrape(client, **extra) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:  # type: ignore[no-untyped-def]
    response = client.get("/metrics", HTTP_HOST="127.0.0.1", **extra)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(response.content.decode())
        for s in family.samples
    }


def value(samples, name: str, **labels: str) -> float:  # type: ignore[no-untyped-def]
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


# --- Who may read it -------------------------------------------------------------------------------


def test_this_machine_may_read_it(client):
    assert "tablehall_moves_total" in {name for name, _ in scrape(client)}


@pytest.mark.parametrize(
    "extra",
    [
        {"REMOTE_ADDR": "203.0.113.9"},
        {"REMOTE_ADDR": "10.0.0.7"},
        # Through nginx: the peer is loopback, the client anyone.
        {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"},
    ],
)
def test_anyone_else_needs_the_token(client, settings, extra):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_HOST="127.0.0.1", **extra).status_code == 403
    settings.METRICS_TOKEN = "s3cret-token"
    wrong = client.get("/metrics", HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION="Bearer guess", **extra)
    assert wrong.status_code == 403
    scrape(client, HTTP_AUTHORIZATION="Bearer s3cret-token", **extra)


# --- What it counts --------------------------------------------------------------------------------


def test_a_stored_move_counts_once_and_its_append_is_timed(client):
    game = tiny_game()
    before = scrape(client)
    seq = store.head(game.pk)[0]
    play(game, 0, 1, "m1", seq)
    play(game, 0, 1, "m1", seq)  # a retried command: stored once, counted once
    play(game, 1, 2, "m2", seq + 1, actor="bot:1")
    after = scrape(client)
    assert (
        value(after, "tablehall_moves_total", by="player")
        - value(before, "tablehall_moves_total", by="player")
        == 1
    )
    assert (
        value(after, "tablehall_moves_total", by="computer")
        - value(before, "tablehall_moves_total", by="computer")
        == 1
    )
    assert (
        value(after, "tablehall_event_append_seconds_count")
        - value(before, "tablehall_event_append_seconds_count")
        == 2
    )
    appended = value(after, "tablehall_events_appended_total") - value(
        before, "tablehall_events_appended_total"
    )
    assert appended == store.head(game.pk)[0] - seq


def test_a_lost_race_counts_as_a_conflict(client):
    game = tiny_game()
    before = value(scrape(client), "tablehall_append_conflicts_total")
    with pytest.raises(Conflict):
        store.append(game.pk, 0, [{"type": "add", "n": 1}], command_id="late", actor="seat:0")
    assert value(scrape(client), "tablehall_append_conflicts_total") == before + 1


@pytest.mark.redis
def test_the_celery_queue_length_is_read_from_redis(client, settings):
    import redis

    settings.REDIS_URL = os.environ["REDIS_URL"]
    settings.CELERY_TASK_DEFAULT_QUEUE = queue = f"metrics-{uuid.uuid4().hex[:8]}"
    r = redis.Redis.from_url(settings.REDIS_URL)
    try:
        r.rpush(queue, b"a", b"b", b"c")
        r.rpush(f"{queue}\x06\x163", b"urgent")
        assert value(scrape(client), "tablehall_celery_queue_length", queue=queue) == 4
    finally:
        r.delete(queue, f"{queue}\x06\x163")
    assert value(scrape(client), "tablehall_celery_queue_length", queue=queue) == 0


# --- Sockets ---------------------------------------------------------------------------------------

app = SocketGauge(URLRouter(websocket_urlpatterns))


@database_sync_to_async
def sockets(client) -> float:  # type: ignore[no-untyped-def]
    return value(scrape(client), "tablehall_websockets_connected", route="table")


@pytest.mark.asyncio
async def test_a_socket_counts_from_accept_to_disconnect():
    client = Client()
    game = await database_sync_to_async(tiny_game)()
    before = await sockets(client)
    watcher = WebsocketCommunicator(app, f"/ws/tables/{game.pk}/")
    assert (await watcher.connect())[0]
    await watcher.receive_json_from()
    assert await sockets(client) == before + 1
    # No such table: accepted, told so and closed (4404): it counts while open, and no longer after.
    refused = WebsocketCommunicator(app, "/ws/tables/999999/")
    assert (await refused.connect())[0]
    assert (await refused.receive_json_from())["code"] == "unknown_game"
    assert (await refused.receive_output())["code"] == 4404
    await refused.disconnect()  # as the server tells the application once the socket is closed
    assert await sockets(client) == before + 1
    await watcher.disconnect()
    assert await sockets(client) == before
    await database_sync_to_async(connections.close_all)()


def test_a_restarted_process_stops_counting_the_sockets_of_the_dead(tmp_path, monkeypatch):
    from infra import metrics

    dead = 2**22 + 12345  # above any pid_max default: no such process
    host = metrics._HOST
    files = {
        "dead": tmp_path / f"gauge_livesum_{host}-{dead}.db",
        "alive": tmp_path / f"gauge_livesum_{host}-{os.getppid()}.db",
        "other host": tmp_path / f"gauge_livesum_{host}-2-{dead}.db",
        "counter": tmp_path / f"counter_{host}-{dead}.db",  # totals stay: they only ever grow
    }
    for path in files.values():
        path.write_bytes(b"")
    monkeypatch.setattr(metrics, "MULTIPROC_DIR", str(tmp_path))
    metrics._forget_dead_processes()
    assert {name for name, path in files.items() if path.exists()} == {"alive", "other host", "counter"}
