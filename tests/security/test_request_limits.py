"""Large request bodies are refused before they are read; a NUL character is refused before the
database sees it (infra/limits.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from infra.limits import BodyLimit
from replay.models import Annotation
from tournaments.models import Tournament

from .world import build, client_for

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
async def _close_db_connections():  # type: ignore[no-untyped-def]
    yield
    await database_sync_to_async(connections.close_all)()


def _scope(path: str, method: str = "POST", length: int | None = None) -> dict[str, Any]:
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
        "http_version": "1.1",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 40000),
        "root_path": "",
    }


async def _response(app: Any, scope: dict[str, Any], chunks: list[bytes]) -> tuple[int | None, bytes]:
    communicator = ApplicationCommunicator(app, scope)
    for n, chunk in enumerate(chunks):
        await communicator.send_input(
            {"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
        )
    if await communicator.receive_nothing(timeout=2):
        await communicator.wait(timeout=2)
        return None, b""
    start = await communicator.receive_output(timeout=5)
    body = await communicator.receive_output(timeout=5)
    return start["status"], body.get("body", b"")


def _site() -> Any:
    from infra.asgi import application

    return application


async def test_a_declared_large_body_is_refused_unread(settings):
    settings.MAX_REQUEST_BODY = 1000
    status, body = await _response(_site(), _scope("/api/games/1/actions", length=5000), [b"{}"])
    assert status == 413 and b'"code": "too_large"' in body


async def test_a_body_within_the_limit_reaches_django(settings):
    settings.MAX_REQUEST_BODY = 1000
    status, body = await _response(_site(), _scope("/api/games/999999/state", method="GET", length=0), [b""])
    assert status == 404 and b"unknown_game" in body


async def _answer(app: Any, scope: dict[str, Any], chunks: list[bytes]) -> tuple[int, bytes]:
    """The response to a body sent in ``chunks`` (no length declared); it must come (bounded wait)."""
    communicator = ApplicationCommunicator(app, scope)
    for n, chunk in enumerate(chunks):
        await communicator.send_input(
            {"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
        )
    start = await communicator.receive_output(timeout=10)
    assert start["type"] == "http.response.start", start
    body = b""
    while True:
        message = await communicator.receive_output(timeout=10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(timeout=10)
    return start["status"], body


async def test_a_body_sent_in_chunks_is_answered_413_when_it_passes_the_limit(settings):
    """It used to be cut off: the application was told the client had left and answered nothing, so
    the connection hung."""
    settings.MAX_REQUEST_BODY = 1000
    seen: list[dict[str, Any]] = []

    async def reader(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(await receive())

    status, body = await _answer(BodyLimit(reader), _scope("/api/games/1/actions"), [b"x" * 600] * 3)
    assert status == 413 and json.loads(body)["error"]["code"] == "too_large"
    assert seen == [], "the application ran"
    # Through the whole site too.
    status, body = await _answer(_site(), _scope("/api/games/1/actions"), [b"x" * 600] * 3)
    assert status == 413 and json.loads(body)["error"]["code"] == "too_large"


async def test_a_body_sent_in_chunks_within_the_limit_reaches_the_application_whole(settings):
    settings.MAX_REQUEST_BODY = 1000
    chunks = [b'{"a": "', b"x" * 500, b'"}']

    async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    assert await _answer(BodyLimit(echo), _scope("/x"), chunks) == (200, b"".join(chunks))
    status, body = await _answer(_site(), _scope("/api/games/999999/actions"), chunks)
    assert status == 404 and json.loads(body)["error"]["code"] == "unknown_game"


# --- NUL characters: PostgreSQL cannot store them, so they were server errors ------------------------


@database_sync_to_async
def _nul_requests() -> list[tuple[str, int, str | None]]:
    world = build()
    anonymous, organiser = Client(), client_for(world, "organiser")
    tournaments, notes = Tournament.objects.count(), Annotation.objects.count()
    responses = {
        "player page": anonymous.get("/players/%00/"),
        "room page": anonymous.get("/replays/rooms/a%00b/"),
        "invite link": anonymous.get(f"/tables/{world.invite.pk}/invite/%00/"),
        "query": anonymous.get(f"/games/{world.finished.pk}/replay/", {"as": "0\x00"}),
        "new tournament": organiser.post(
            "/tournaments/new/", {"name": "Cup\x00", "game": "kazino", "format": "swiss"}
        ),
        "computer player": organiser.post(
            f"/tournaments/{world.tournament.pk}/do/add_bot",
            {"name": "B\x00", "level": "random"},
        ),
        "comment": organiser.post(
            f"/games/{world.finished.pk}/replay/comments/", {"seq": "3", "text": "hi\x00"}
        ),
    }
    assert Tournament.objects.count() == tournaments and Annotation.objects.count() == notes
    return [(what, r.status_code, r.json()["error"]["code"]) for what, r in responses.items()]


async def test_a_nul_character_anywhere_is_a_clear_refusal():
    for what, status, code in await _nul_requests():
        assert (status, code) == (400, "bad_request"), what


async def test_a_socket_handshake_with_a_nul_is_refused():
    world = await database_sync_to_async(build)()
    origin = [(b"origin", b"http://testserver")]
    for path in (f"/ws/tables/{world.live.pk}/?seat=%00", "/ws/replays/rooms/a%00/"):
        communicator = WebsocketCommunicator(_site(), path, headers=origin)
        connected, _ = await communicator.connect()
        assert not connected, path
    communicator = WebsocketCommunicator(_site(), f"/ws/tables/{world.live.pk}/?seat=x", headers=origin)
    connected, _ = await communicator.connect()
    assert connected, "a harmless value reaches the table socket, which answers it"
    assert (await communicator.receive_json_from())["code"] == "not_your_seat"
    await communicator.disconnect()
