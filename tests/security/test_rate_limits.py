"""Rate limits: a token bucket per socket connection, a shared count per seat (docs/security.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connections

from games.access import ratelimit
from games.eventlog import store
from tests.replay.sockets import connect

from .world import World, build, client_for

ROOT = Path(__file__).resolve().parents[2]


def test_a_bucket_allows_a_burst_then_its_rate():
    now = [0.0]
    bucket = ratelimit.TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.49
    assert not bucket.take(), "less than one token came back"
    now[0] += 0.01
    assert bucket.take() and not bucket.take()
    now[0] += 100
    assert [bucket.take() for _ in range(4)] == [True, True, True, False], "the burst is the most saved"


def test_a_seat_count_stops_at_its_limit_and_counts_each_seat_alone(settings):
    settings.ACTION_RATE_LIMIT = "3/10s"
    mine, theirs = uuid.uuid4().hex, uuid.uuid4().hex
    for _ in range(3):
        ratelimit.check_seat(mine)
    with pytest.raises(ratelimit.RateLimited) as refused:
        ratelimit.check_seat(mine)
    assert refused.value.code == "rate_limited" and refused.value.status == 429
    ratelimit.check_seat(theirs)  # another seat's count is its own


def test_a_cache_that_fails_lets_commands_through(settings, monkeypatch):
    def broken(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the cache is down")

    settings.ACTION_RATE_LIMIT = "1/10s"
    monkeypatch.setattr(ratelimit, "get_usage", broken)
    for _ in range(3):
        ratelimit.check_seat("any")


@pytest.mark.processes
@pytest.mark.parametrize("value", ["fast", "10", "0/s", "10/0s", "10/5w"])
def test_a_malformed_limit_stops_the_server_at_start(value):
    env = {**os.environ, "ACTION_RATE_LIMIT": value, "DJANGO_SETTINGS_MODULE": "infra.settings"}
    done = subprocess.run(
        [sys.executable, "-c", "import infra.settings"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode != 0 and "ACTION_RATE_LIMIT must look like" in done.stderr


@pytest.mark.processes
@pytest.mark.redis
def test_every_process_shares_a_seats_count(settings, frozen_window):
    """Two processes (this one and another Python) count one seat's commands in the same Redis."""
    settings.ACTION_RATE_LIMIT = "3/10s"
    token = uuid.uuid4().hex
    script = (
        "import django; django.setup()\n"
        "import types, django_ratelimit.core as core\n"
        f"core.time = types.SimpleNamespace(time=lambda: {frozen_window})\n"
        "from games.access import ratelimit\n"
        f"[ratelimit.check_seat({token!r}) for _ in range(3)]\n"
    )
    env = {**os.environ, "ACTION_RATE_LIMIT": "3/10s", "DJANGO_SETTINGS_MODULE": "infra.settings"}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with pytest.raises(ratelimit.RateLimited):
        ratelimit.check_seat(token)


# --- Through the socket and the API ----------------------------------------------------------------------


@pytest.fixture
async def _close_db_connections():  # type: ignore[no-untyped-def]
    yield
    await database_sync_to_async(connections.close_all)()


def _action(seq: int, command_id: str) -> dict[str, Any]:
    return {
        "type": "action",
        "action": {"type": "add", "n": 1},
        "command_id": command_id,
        "expected_seq": seq,
    }


async def _head(world: World) -> tuple[int, str]:
    return await database_sync_to_async(store.head)(world.live.pk)


@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_floods_is_answered_rate_limited(settings, monkeypatch, _close_db_connections):
    settings.SOCKET_RATE, settings.SOCKET_BURST = 20, 3
    now = [0.0]  # the bucket's clock, moved by the test: the machine's speed plays no part
    monkeypatch.setattr(
        ratelimit, "socket_bucket", lambda: ratelimit.TokenBucket(20, 3, clock=lambda: now[0])
    )
    world = await database_sync_to_async(build)()
    ws = await connect(f"/ws/tables/{world.live.pk}/", token=world.token(world.live, 0))
    await ws.receive_json_from()
    for _ in range(5):
        await ws.send_json_to({"type": "resync"})
    replies = [await ws.receive_json_from() for _ in range(5)]
    assert [r["type"] for r in replies] == ["state"] * 3 + ["error"] * 2
    assert {r["code"] for r in replies[3:]} == {"rate_limited"} and replies[3]["message"]
    seq = await _head(world)
    await ws.send_json_to(_action(seq[0], "flood-1"))
    assert (await ws.receive_json_from())["code"] == "rate_limited"
    assert await _head(world) == seq, "a refused action stores nothing"
    now[0] += 0.2  # four tokens come back (three kept)
    await ws.send_json_to(_action(seq[0], "after-1"))
    replies = [await ws.receive_json_from() for _ in range(2)]
    assert "ack" in {r["type"] for r in replies}
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_seats_actions_are_counted_over_all_its_sockets_and_the_api(settings, _close_db_connections):
    settings.ACTION_RATE_LIMIT = "3/30s"
    world = await database_sync_to_async(build)()
    seat1 = world.token(world.live, 1)
    first = await connect(f"/ws/tables/{world.live.pk}/", token=seat1)
    second = await connect(f"/ws/tables/{world.live.pk}/", token=seat1)
    seat0 = await connect(f"/ws/tables/{world.live.pk}/", token=world.token(world.live, 0))
    for ws in (first, second, seat0):
        await ws.receive_json_from()
    seq = await _head(world)
    codes = []
    for n, ws in enumerate((first, first, second, second)):
        await ws.send_json_to(_action(seq[0], f"s1-{n}"))  # seat 1 is not to act: refused, but counted
        codes.append((await ws.receive_json_from())["code"])
    assert codes == ["not_your_turn"] * 3 + ["rate_limited"]

    @database_sync_to_async
    def api_post() -> Any:
        body = {"seat": 1, "action": {"type": "add", "n": 1}, "command_id": "api-1", "expected_seq": seq[0]}
        client = client_for(world, "anonymous")
        url = f"/api/games/{world.live.pk}/actions"
        return client.post(url, json.dumps(body), content_type="application/json", HTTP_X_SEAT_TOKEN=seat1)

    response = await api_post()
    assert response.status_code == 429 and response.json()["error"]["code"] == "rate_limited"
    assert await _head(world) == seq
    await seat0.send_json_to(_action(seq[0], "s0-1"))  # seat 0 has a count of its own
    assert "ack" in {(await seat0.receive_json_from())["type"] for _ in range(2)}
    for ws in (first, second, seat0):
        await ws.disconnect()


@pytest.mark.django_db
def test_hints_have_their_own_stricter_limit(settings):
    settings.HINT_RATE_LIMIT = "1/30s"
    world = build()
    client = client_for(world, "owner")
    url = f"/tables/{world.dominoes.pk}/hint?seat=0"
    assert client.get(url).status_code == 200
    refused = client.get(url)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
