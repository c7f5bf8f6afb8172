"""Ids past a 64-bit integer and socket paths no route knows: a clear 404 or close 4404, never a server
error (games/ids.py, games/live/sockets.py ``NoSuchSocket``).

A number like 99999999999999999999 in a URL used to reach the database: SQLite cannot bind it
(``OverflowError``, a 500 on the invite link). A socket handshake to an unknown path made Channels
raise: Daphne answered 500 and logged the traceback as an ERROR.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from games.ids import BIGINT_MAX, IdConverter
from infra.routing import websocket_urlpatterns

from .world import build, client_for

pytestmark = [pytest.mark.django_db(transaction=True)]

HUGE = "99999999999999999999"  # 20 digits: past 2**63 - 1
JUST_PAST = str(BIGINT_MAX + 1)


@pytest.fixture(autouse=True)
async def _close_db_connections():  # type: ignore[no-untyped-def]
    yield
    await database_sync_to_async(connections.close_all)()


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for pattern in patterns:
        here = prefix + str(pattern.pattern)
        yield here, pattern.pattern
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, here)
        else:
            assert isinstance(pattern, URLPattern)


def test_every_route_with_a_number_uses_the_bounded_converter():
    """``<int:...>`` matches any number of digits: a route must name its ids ``<id:...>``."""
    routes = [*_routes(get_resolver().url_patterns), *_routes(websocket_urlpatterns)]
    unbounded = [
        route
        for route, pattern in routes
        if any(isinstance(c, IntConverter) for c in getattr(pattern, "converters", {}).values())
    ]
    assert not unbounded, f"use <id:...> (games/ids.py) in {unbounded}"
    assert any(isinstance(c, IdConverter) for _, p in routes for c in getattr(p, "converters", {}).values())


def test_the_converter_takes_every_64_bit_id_and_nothing_past_it():
    converter = IdConverter()
    assert converter.to_python("0") == 0 and converter.to_python(str(BIGINT_MAX)) == BIGINT_MAX
    assert converter.to_python("007") == 7
    for value in (JUST_PAST, HUGE, "9" * 5000):
        with pytest.raises(ValueError):
            converter.to_python(value)


def _huge_id_requests() -> list[tuple[str, int, str]]:
    world = build()
    anonymous = Client(raise_request_exception=False)
    organiser = client_for(world, "organiser", raise_request_exception=False)
    game = world.finished.pk
    gets = [
        f"/tables/{HUGE}/",
        f"/tables/{HUGE}/hint?seat=0",
        f"/tables/{HUGE}/join/x/",  # the old invite link: a 500 on SQLite before
        f"/tables/{HUGE}/invite/x/",
        f"/tournaments/{HUGE}/",
        f"/tournaments/{JUST_PAST}/standings.csv",
        f"/tournaments/{HUGE}/log.json",
        f"/games/{HUGE}/replay/",
        f"/games/{JUST_PAST}/replay/comments/",
        f"/games/{HUGE}/replay/review/",
        f"/api/games/{HUGE}/state",
        f"/api/games/{JUST_PAST}/state",
    ]
    out = [(f"GET {url}", anonymous.get(url)) for url in gets]
    posts = [
        f"/api/games/{HUGE}/actions",
        f"/tournaments/{HUGE}/act",
        f"/tournaments/{HUGE}/do/start",
        f"/games/{HUGE}/replay/rooms/",
        f"/games/{game}/replay/comments/{HUGE}/",
    ]
    out += [(f"POST {url}", organiser.post(url, {}, content_type="application/json")) for url in posts]
    return [(what, r.status_code, r.content.decode(errors="replace")[:1000]) for what, r in out]


def test_an_id_past_64_bits_in_any_route_is_a_404():
    for what, status, body in _huge_id_requests():
        assert status == 404, f"{what}: {status} {body}"
        if " /api/" in what:  # the API answers in its own JSON shape, as for any unknown game
            assert json.loads(body)["error"]["code"] == "unknown_game", what


def test_the_api_checks_the_method_first_whatever_the_id():
    client = Client()
    for url, wrong in ((f"/api/games/{HUGE}/actions", "get"), (f"/api/games/{HUGE}/state", "post")):
        response = getattr(client, wrong)(url)
        assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"


# --- Sockets -----------------------------------------------------------------------------------------


def _site() -> Any:
    from infra.asgi import application

    return application


async def _closed_with(path: str) -> int | None:
    """The close code a socket to ``path`` gets, through the whole site (origin check and all)."""
    communicator = WebsocketCommunicator(_site(), path, headers=[(b"origin", b"http://testserver")])
    connected, code = await communicator.connect(timeout=10)
    if not connected:
        return int(code) if code is not None else None
    message = await communicator.receive_output(timeout=10)
    assert message["type"] == "websocket.close", message
    await communicator.disconnect(timeout=10)
    return int(message["code"])


async def test_a_socket_to_an_unknown_path_is_closed_with_4404_and_no_error_logged(caplog):
    caplog.set_level(logging.INFO)
    paths = [
        "/ws/nope/",
        "/",
        "/ws/tables/abc/",
        f"/ws/tables/{HUGE}/",
        f"/ws/replays/{JUST_PAST}/",
        f"/ws/tournaments/{HUGE}/",
        "/ws/replays/rooms/",
    ]
    for path in paths:
        assert await _closed_with(path) == 4404, path
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_known_socket_routes_still_answer():
    world = await database_sync_to_async(build)()
    communicator = WebsocketCommunicator(
        _site(), f"/ws/tables/{world.live.pk}/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    assert (await communicator.receive_json_from(timeout=10))["type"] == "state"
    await communicator.disconnect()
