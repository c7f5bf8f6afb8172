"""Replay sockets in tests: the real routes behind the session and auth middleware."""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from games.access.seats import SESSION_KEY
from infra.routing import websocket_urlpatterns

app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


@database_sync_to_async
def session_of(user: Any = None, seat_tokens: dict[int, dict[int, str]] | None = None) -> str:
    """A session cookie value: signed in as ``user``, and/or holding seat tokens like a guest's browser."""
    if user is not None:
        client = Client()
        client.force_login(user)
        key = client.cookies["sessionid"].value
        session = SessionStore(session_key=key)
    else:
        session = SessionStore()
    if seat_tokens:
        session[SESSION_KEY] = {
            str(g): {str(n): t for n, t in seats.items()} for g, seats in seat_tokens.items()
        }
    session.save()
    return str(session.session_key)


async def connect(path: str, session: str | None = None, token: str | None = None) -> WebsocketCommunicator:
    """A socket with a browser's session cookie, and/or a seat's credential as a script sends it."""
    headers = [(b"cookie", f"sessionid={session}".encode())] if session else []
    if token is not None:
        headers.append((b"x-seat-token", token.encode()))
    communicator = WebsocketCommunicator(app, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected, f"{path} refused the connection"
    return communicator


async def until(ws: WebsocketCommunicator, kind: str, timeout: float = 3) -> dict[str, Any]:
    """The next message of this type (others before it are skipped)."""
    while True:
        message = await ws.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


async def drain(ws: WebsocketCommunicator, wait: float = 0.2) -> list[dict[str, Any]]:
    """Every message that arrives within ``wait`` seconds of the last one (without timing out the
    consumer: a timed-out receive cancels it)."""
    out = []
    while not await ws.receive_nothing(timeout=wait):
        out.append(await ws.receive_json_from())
    return out


async def arrived(ws: WebsocketCommunicator, counts: dict[str, int]) -> list[dict[str, Any]]:
    """Messages until ``counts[type]`` of each type have come (others on the way are kept too): what
    a connection is known to be sent, awaited as such rather than as a quiet spell, which a busy
    machine can make before the last of them."""
    out: list[dict[str, Any]] = []
    left = dict(counts)
    while any(n > 0 for n in left.values()):
        message = await ws.receive_json_from(timeout=10)
        out.append(message)
        if message["type"] in left:
            left[message["type"]] -= 1
    return out


async def load(ws: WebsocketCommunicator, perspective: Any, hand: Any) -> list[dict[str, Any]]:
    """Ask for a hand; the ``hand`` messages that answer it (all chunks), or [the error]."""
    await ws.send_json_to({"type": "load", "perspective": perspective, "hand": hand})
    parts: list[dict[str, Any]] = []
    while True:
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == "error":
            return [message]
        if message["type"] != "hand":
            continue
        parts.append(message)
        if sum(len(p["moments"]) for p in parts) >= message["total"]:
            return parts
