"""#37: the end of a credential reaches what it opened. A revoked API token's open NDJSON stream ends
(it delivered 12 more updates with the seat's hand), and a signed-out session's table socket closes —
each within a second of the revocation, waited for as a condition (games/access/credentials.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient, Client

from games.access import credentials, tokens
from games.commands.create import SeatSpec, create_game
from games.eventlog import store
from games.models import ApiToken, Game
from tests.api.helpers import token_for, user
from tests.games.factories import play
from tests.replay.sockets import connect, session_of, until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_db_connections"),
]
WITHIN = 1.0  # seconds: the guarantee


@database_sync_to_async
def players_table() -> tuple[Game, Any, str]:
    ada = user("ada")
    game = create_game(
        "tiny",
        {"players": 2, "goal": 10},
        [SeatSpec("ada", user=ada), SeatSpec("bob")],
    )
    return game, ada, token_for(ada, ("play", "read"))


@database_sync_to_async
def move(game: Game, seat: int, command_id: str) -> None:
    play(game, seat, 1, command_id, store.head(game.pk)[0])


async def next_line(lines: Any, timeout: float) -> dict[str, Any]:
    while True:
        line = await asyncio.wait_for(anext(lines), timeout)
        text = line.decode() if isinstance(line, bytes) else line
        if text.strip():
            return json.loads(text)


async def test_a_revoked_token_ends_its_open_stream_within_a_second():
    game, ada, token = await players_table()
    response = await AsyncClient().get(
        f"/api/v1/tables/{game.pk}/stream", {"seat": 0}, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.content
    lines = response.streaming_content.__aiter__()
    state = await next_line(lines, 30)
    assert state["type"] == "state" and state["seat"] == 0 and state["view"]["secret"]
    await move(game, 0, "before")
    assert (await next_line(lines, 30))["type"] == "update"  # live until revoked

    row = await database_sync_to_async(lambda: ApiToken.objects.get(user=ada))()
    assert await database_sync_to_async(tokens.revoke)(ada, row.pk)
    await move(game, 1, "after")  # this seat's update must not reach the revoked token
    with pytest.raises(StopAsyncIteration):
        await next_line(lines, WITHIN)


async def test_a_stream_of_another_token_goes_on_when_one_is_revoked():
    game, ada, token = await players_table()
    other = await database_sync_to_async(token_for)(ada, ("read",))
    response = await AsyncClient().get(
        f"/api/v1/tables/{game.pk}/stream", {"seat": 0}, headers={"Authorization": f"Bearer {other}"}
    )
    lines = response.streaming_content.__aiter__()
    assert (await next_line(lines, 30))["type"] == "state"
    revoked = await database_sync_to_async(
        lambda: ApiToken.objects.filter(user=ada, scopes="play,read").get()
    )()
    await database_sync_to_async(tokens.revoke)(ada, revoked.pk)
    await move(game, 0, "still")
    assert (await next_line(lines, 30))["type"] == "update"
    await lines.aclose()


def _log_out(session: str) -> int:
    client = Client()
    client.cookies["sessionid"] = session
    return client.post("/accounts/logout/").status_code


async def test_signing_out_closes_the_sessions_table_sockets_within_a_second():
    game, ada, _token = await players_table()
    session = await session_of(ada)
    ws = await connect(f"/ws/tables/{game.pk}/", session=session)
    state = await until(ws, "state")
    assert state["seat"] == 0
    other = await connect(f"/ws/tables/{game.pk}/", session=await session_of(ada))  # another browser
    await until(other, "state")

    assert await database_sync_to_async(_log_out)(session) in (200, 302)
    closed = await ws.receive_output(timeout=WITHIN)
    assert closed == {"type": "websocket.close", "code": credentials.CLOSED}
    await move(game, 0, "after")
    assert (await until(other, "update"))["type"] == "update", "only that session's sockets close"
    await other.disconnect()
