"""The HTTP stream of a table (GET /api/v1/tables/ID/stream): NDJSON, the state then every update once,
resumable after a seq, each audience only its own picture (frontend/api/streams.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import AsyncClient
from redis.exceptions import ConnectionError as RedisConnectionError

from games.eventlog import store
from games.eventlog.tables import load_table
from games.models import Game
from tests.games.factories import play, tiny_game

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 30.0  # seconds: only a bound for a failing test


@pytest.fixture
async def _close_db_connections():  # type: ignore[no-untyped-def]
    yield
    await database_sync_to_async(connections.close_all)()


async def opened(
    game: Game, seat: int | None = None, since: int | None = None, token: str | None = None
) -> Any:
    params: dict[str, Any] = {}
    if seat is not None:
        params["seat"] = seat
    if since is not None:
        params["since"] = since
    headers = {"X-Seat-Token": token} if token else {}
    response = await AsyncClient().get(f"/api/v1/tables/{game.pk}/stream", params, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/x-ndjson"
    return response


async def next_message(lines: Any) -> dict[str, Any]:
    while True:
        line = await asyncio.wait_for(anext(lines), WAIT)
        text = line.decode() if isinstance(line, bytes) else line
        if text.strip():  # a blank line keeps the connection open
            return json.loads(text)


@database_sync_to_async
def move(game: Game, seat: int, n: int, command_id: str) -> int:
    play(game, seat, n, command_id, store.head(game.pk)[0])
    return store.head(game.pk)[0]


@database_sync_to_async
def table_for(token_seat: int) -> tuple[Game, str]:
    game = tiny_game()
    return game, game.seats.get(number=token_seat).token


async def test_a_seat_streams_its_state_then_each_update_once(_close_db_connections):
    game, token = await table_for(0)
    response = await opened(game, seat=0, token=token)
    lines = response.streaming_content.__aiter__()
    state = await next_message(lines)
    assert state["type"] == "state" and state["seat"] == 0 and state["view"]["secret"]
    seqs = []
    for n, seat in enumerate((0, 1, 0)):
        seq = await move(game, seat, 1, f"s-{n}")
        update = await next_message(lines)
        assert update["type"] == "update" and update["seq"] == seq
        seqs.append(update["seq"])
    assert seqs == sorted(set(seqs)), "each update once, in order"
    await lines.aclose()


async def test_a_stream_resumes_after_a_seq_with_nothing_lost_or_doubled(_close_db_connections):
    game, token = await table_for(0)
    first = await move(game, 0, 1, "r-0")
    later = [await move(game, 1, 1, "r-1"), await move(game, 0, 2, "r-2")]
    response = await opened(game, seat=0, since=first, token=token)
    lines = response.streaming_content.__aiter__()
    missed = [await next_message(lines) for _ in later]
    assert [m["type"] for m in missed] == ["update", "update"]
    assert [m["seq"] for m in missed] == later
    live = await move(game, 1, 1, "r-3")
    assert (await next_message(lines))["seq"] == live
    await lines.aclose()


async def test_spectators_stream_the_public_picture_only(_close_db_connections):
    game, _token = await table_for(0)
    hidden = await database_sync_to_async(lambda: list(load_table(game.pk).state.secrets))()
    assert all(hidden)
    response = await opened(game)
    lines = response.streaming_content.__aiter__()
    seen = [await next_message(lines)]
    await move(game, 0, 1, "p-0")
    seen.append(await next_message(lines))
    assert [m["type"] for m in seen] == ["state", "update"]
    for message in seen:
        assert message["seat"] is None and message["legal_actions"] == []
        text = json.dumps(message)
        assert not any(f'"{card}"' in text for card in hidden), "no seat's card reaches a spectator"
    await lines.aclose()


async def test_a_stream_of_a_seat_not_held_is_refused(_close_db_connections):
    game, token = await table_for(0)
    response = await AsyncClient().get(
        f"/api/v1/tables/{game.pk}/stream", {"seat": 1}, headers={"X-Seat-Token": token}
    )
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_your_seat"
    response = await AsyncClient().get("/api/v1/tables/999999/stream")
    assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_game"


@pytest.mark.parametrize(
    "failure", [ConnectionError("closed"), RedisConnectionError("refused"), OSError(111)]
)
async def test_a_stream_whose_live_connection_cannot_open_says_try_again(
    _close_db_connections, monkeypatch, failure
):
    """Redis unreachable while a stream opens: a 503 the client can act on (the same request later
    resumes with ``since``), in its language, not a server error; nothing is left subscribed."""
    from games.live import feeds

    async def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise failure

    monkeypatch.setattr(feeds, "join", unreachable)
    monkeypatch.setattr(feeds, "on_redis", lambda layer: True)  # a seat's stream joins its feed there
    game, token = await table_for(0)
    for params, headers in (({"seat": 0}, {"X-Seat-Token": token}), ({}, {})):
        response = await AsyncClient().get(
            f"/api/v1/tables/{game.pk}/stream", params, headers={**headers, "Accept-Language": "ht"}
        )
        assert response.status_code == 503 and response["Retry-After"] == "1"
        error = response.json()["error"]
        assert error["code"] == "live_unavailable"
        assert "Redis" not in error["message"] and "111" not in error["message"]
        assert error["message"] != "Live updates are not available right now: try again in a moment."


@database_sync_to_async
def delayed_table() -> Game:
    return tiny_game(goal=3, spectator_delay=2)


async def test_a_delayed_tables_end_reaches_spectators_on_state_updates_and_the_stream(_close_db_connections):
    """#37: with a spectator delay of 2 the API answered the position 2 moves before the end forever
    (``finished: false``) while /history said finished."""
    game = await delayed_table()
    response = await opened(game)
    lines = response.streaming_content.__aiter__()
    start = await next_message(lines)
    assert start["type"] == "state" and not start["finished"]
    for n, seat in enumerate((0, 1)):
        await move(game, seat, 1, f"d-{n}")  # held back: the spectators' picture does not change
    end = await move(game, 0, 1, "d-2")
    last = await next_message(lines)
    assert last["seq"] == end and last["finished"] and last["outcome"] is not None
    assert last["since"] == start["seq"] and last["view"]["total"] == 3
    await lines.aclose()
    client = AsyncClient()
    state = (await client.get(f"/api/v1/tables/{game.pk}/state")).json()
    assert state["seq"] == end and state["finished"] and state["view"]["total"] == 3
    missed = (await client.get(f"/api/v1/tables/{game.pk}/updates", {"since": start["seq"]})).json()
    assert missed["updates"][-1]["seq"] == end and missed["updates"][-1]["finished"]
