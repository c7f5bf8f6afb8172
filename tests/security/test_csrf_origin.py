"""Requests forged by another site: forms need Django's CSRF token, the JSON API needs it when it is
authorised by the session (not by a seat token), and sockets refuse pages of other origins."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.middleware.csrf import _get_new_csrf_string

from games.eventlog import store

from .endpoints import ENDPOINTS, Endpoint
from .world import ROLES, World, build, client_for

# The API checks CSRF itself, after the game is found (docs/security.md: unknown_game comes first).
POSTS = [
    e
    for e in ENDPOINTS
    if e.method == "POST"
    and e.name not in ("games:submit", "games:no_such_game")
    and not e.name.startswith("api_v1:")
]
# The public API never reads the session: a cookie alone authorises nothing there, so a forged request
# (which can carry only the cookie) can do nothing, with or without a CSRF token.
PUBLIC_API_POSTS = [e for e in ENDPOINTS if e.method == "POST" and e.name.startswith("api_v1:")]


def _allowed_role(endpoint: Endpoint) -> str:
    """A role the matrix lets through (signed in when one is: the session is what CSRF protects)."""
    allowed = [r for r in ROLES if endpoint.expect[r].status < 400 and not endpoint.expect[r].login]
    signed_in = [r for r in allowed if r not in ("guest", "anonymous")]
    return (signed_in or allowed or ["owner"])[0]


def _post(endpoint: Endpoint, world: World, role: str, csrf: bool, json: bool = False) -> Any:
    """The endpoint's post as ``role``'s browser would send it, with or without the CSRF token (a form,
    or with ``json`` a JSON body as the public API takes)."""
    client = client_for(world, role, enforce_csrf_checks=True)
    headers: dict[str, str] = {}
    if csrf:
        secret = _get_new_csrf_string()
        client.cookies["csrftoken"] = secret
        headers["HTTP_X_CSRFTOKEN"] = secret
    if json:
        data = endpoint.data(world) if endpoint.data else "{}"
        return client.post(endpoint.url(world), data, content_type="application/json", **headers)
    return client.post(endpoint.url(world), endpoint.data(world) if endpoint.data else {}, **headers)


class TestWithoutTheToken:
    """Every form and API post, on one world (tests/security/conftest.py)."""

    @pytest.mark.django_db
    @pytest.mark.parametrize("endpoint", POSTS, ids=lambda e: e.id)
    def test_a_form_post_without_the_csrf_token_is_refused_and_changes_nothing(
        self, endpoint: Endpoint, shared_world: World
    ) -> None:
        world = shared_world
        role = _allowed_role(endpoint)
        before = endpoint.effect(world) if endpoint.effect else None
        response = _post(endpoint, world, role, csrf=False)
        assert response.status_code == 403, f"{endpoint.id} as {role}: {response.status_code}"
        if endpoint.effect:
            assert endpoint.effect(world) == before
        # The same request with the token gets what the matrix says.
        response = _post(endpoint, world, role, csrf=True)
        assert response.status_code == endpoint.expect[role].status

    @pytest.mark.django_db
    @pytest.mark.parametrize("endpoint", PUBLIC_API_POSTS, ids=lambda e: e.id)
    def test_the_public_api_is_not_authorised_by_the_session(
        self, endpoint: Endpoint, shared_world: World
    ) -> None:
        world = shared_world
        role = _allowed_role(endpoint)
        before = endpoint.effect(world) if endpoint.effect else None
        for csrf in (False, True):
            response = _post(endpoint, world, role, csrf, json=True)
            assert response.status_code in (401, 403), f"{endpoint.id} as {role}: {response.status_code}"
            if endpoint.effect:
                assert endpoint.effect(world) == before


def _move(world: World) -> dict[str, Any]:
    seq = store.head(world.live.pk)[0]
    return {"seat": 0, "action": {"type": "add", "n": 1}, "command_id": "c1", "expected_seq": seq}


@pytest.mark.django_db
def test_the_api_authorised_by_the_session_needs_the_csrf_token():
    world = build()
    url = f"/api/games/{world.live.pk}/actions"
    owner = client_for(world, "owner", enforce_csrf_checks=True)
    seq = store.head(world.live.pk)
    response = owner.post(url, json.dumps(_move(world)), content_type="application/json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf_failed"
    # What another site's form can send: text/plain shaped into JSON, with the session cookie.
    forged = json.dumps(_move(world))[:-1] + ', "x": "' + '="}'
    response = owner.post(url, forged, content_type="text/plain")
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf_failed"
    assert store.head(world.live.pk) == seq
    secret = _get_new_csrf_string()
    owner.cookies["csrftoken"] = secret
    response = owner.post(
        url, json.dumps(_move(world)), content_type="application/json", HTTP_X_CSRFTOKEN=secret
    )
    assert response.status_code == 200 and store.head(world.live.pk)[0] == seq[0] + 1


@pytest.mark.django_db
def test_the_api_with_a_seat_token_needs_no_cookie_and_ignores_the_session():
    world = build()
    url = f"/api/games/{world.live.pk}/actions"
    script = client_for(world, "anonymous", enforce_csrf_checks=True)
    token = {"HTTP_X_SEAT_TOKEN": world.token(world.live, 0)}
    response = script.post(url, json.dumps(_move(world)), content_type="application/json", **token)
    assert response.status_code == 200
    # A wrong token is refused even for the seat's own signed-in user: the header alone decides.
    owner = client_for(world, "owner", enforce_csrf_checks=True)
    wrong = {"HTTP_X_SEAT_TOKEN": world.token(world.live, 1)}
    move = {**_move(world), "command_id": "c2"}
    response = owner.post(url, json.dumps(move), content_type="application/json", **wrong)
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_your_seat"


# --- Origins of sockets ---------------------------------------------------------------------------------


@pytest.fixture
async def _close_db_connections():  # type: ignore[no-untyped-def]
    yield
    await database_sync_to_async(connections.close_all)()


def _site() -> Any:
    from infra.asgi import application

    return application


async def _handshake(path: str, origin: bytes | None) -> tuple[bool, Any]:
    headers = [(b"origin", origin)] if origin is not None else []
    communicator = WebsocketCommunicator(_site(), path, headers=headers)
    connected, code = await communicator.connect()
    if connected:
        await communicator.disconnect()
    return connected, code


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        (b"http://testserver", True),
        (b"http://localhost:8000", True),
        (b"https://127.0.0.1", True),
        (b"https://evil.example", False),
        (b"http://localhost.evil.example", False),
        (b"null", False),
        (None, False),
        (b"http://[", False),  # malformed: refused, not an exception
        (b"http://localhost:99999", False),
        (b"\xff\xfe", False),
    ],
)
async def test_sockets_accept_only_the_sites_own_pages(origin, accepted, _close_db_connections):
    world = await database_sync_to_async(build)()
    for path in (
        f"/ws/tables/{world.live.pk}/",
        f"/ws/replays/{world.finished.pk}/",
        f"/ws/tournaments/{world.tournament.pk}/",
    ):
        connected, _code = await _handshake(path, origin)
        assert connected is accepted, f"{path} with Origin {origin!r}"


@pytest.mark.django_db(transaction=True)
async def test_a_trusted_origin_from_csrf_settings_is_accepted(settings, _close_db_connections):
    from infra.origin import SiteOriginValidator
    from tests.replay.sockets import app

    settings.CSRF_TRUSTED_ORIGINS = ["https://club.example:8443"]
    world = await database_sync_to_async(build)()
    site = SiteOriginValidator(app)
    for origin, accepted in ((b"https://club.example:8443", True), (b"http://club.example:8443", False)):
        ws = WebsocketCommunicator(site, f"/ws/tables/{world.live.pk}/", headers=[(b"origin", origin)])
        connected, _ = await ws.connect()
        assert connected is accepted, origin
        if connected:
            await ws.disconnect()
