"""Seat credentials and invites (docs/security.md "Seat credentials and invites").

An invite link is a single-use claim, distinct from the seat's credential: opening it takes nothing, a
used, unknown or old one grants nothing, and the claim replaces the seat's credential. A credential
is in no address and no page, not even its holder's: the browser's socket and pages are authorised by
its session, a script's by the ``X-Seat-Token`` header. Naming a seat you do not hold, or presenting a
wrong credential, is an error, not a spectator's seat.

These tests speak only HTTP and the sockets (and read the seats' rows), so that they also run on the
code before invites were claims, where each of them fails.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from games.models import Game, Seat
from tests import races
from tests.replay.sockets import app

pytestmark = pytest.mark.django_db(transaction=True)


def _table_with_an_open_seat(maker: Client) -> tuple[Game, str]:
    """A guest's Kazino table, seat 0 theirs and seat 1 open; the invite link their page shows."""
    response = maker.post(
        "/new/kazino/", {"players": "2", "match": "single", "seat0": "me", "seat1": "friend"}
    )
    assert response.status_code == 302
    game = Game.objects.latest("pk")
    [link] = maker.get(f"/tables/{game.pk}/").context["invites"]
    return game, link["url"]


def _credentials(game: Game) -> list[str]:
    return [s.token for s in Seat.objects.filter(game=game)]


def _held(client: Client, game: Game) -> list[Any]:
    """The seats the table page says this browser plays."""
    return list(client.get(f"/tables/{game.pk}/").context["client"]["seats"])


def _seat(game: Game, number: int) -> tuple[Any, ...]:
    row = Seat.objects.get(game=game, number=number)
    return row.awaiting_player, row.user_id, row.display_name, row.token


# --- Invite links -----------------------------------------------------------------------------------


def test_an_invite_link_is_not_a_seat_credential():
    game, link = _table_with_an_open_seat(Client())
    assert not any(token in link for token in _credentials(game)), link


def test_opening_an_invite_takes_nothing():
    game, link = _table_with_an_open_seat(Client())
    before = _seat(game, 1)
    visitor = Client()
    page = visitor.get(link)  # what a link preview does
    assert page.status_code == 200 and b"take-seat" in page.content
    assert _seat(game, 1) == before and _held(visitor, game) == []


def test_an_invite_to_a_taken_seat_grants_nothing():
    game, link = _table_with_an_open_seat(Client())
    friend = Client()
    assert friend.post(link).status_code == 302
    taken = _seat(game, 1)
    stranger = Client()
    page = stranger.get(link)
    assert page.status_code in (404, 410) and "This seat is taken." in page.content.decode()
    assert _held(stranger, game) == []
    assert stranger.post(link).status_code in (404, 410)
    assert _held(stranger, game) == [] and _seat(game, 1) == taken


def test_an_invite_is_claimed_once():
    game, link = _table_with_an_open_seat(Client())
    friend = Client()
    assert friend.post(link).status_code == 302
    claimed = _seat(game, 1)
    assert friend.post(link).status_code in (404, 410)  # the same browser again
    assert Client().post(link).status_code in (404, 410)  # anyone else
    assert _seat(game, 1) == claimed


def test_the_old_join_links_grant_nothing():
    maker = Client()
    game, _link = _table_with_an_open_seat(maker)
    mine, open_seat = _seat(game, 0), _seat(game, 1)
    stranger = Client()
    for number in (0, 1):  # the maker's seat, and the open one
        old_link = f"/tables/{game.pk}/join/{Seat.objects.get(game=game, number=number).token}/"
        assert stranger.get(old_link).status_code in (404, 410)
        assert stranger.post(old_link).status_code in (404, 410)
    assert _held(stranger, game) == []
    assert (_seat(game, 0), _seat(game, 1)) == (mine, open_seat)


def test_no_page_carries_a_seat_credential():
    maker = Client()
    game, link = _table_with_an_open_seat(maker)
    friend = Client()
    before_claim = maker.get(f"/tables/{game.pk}/").content.decode()  # the holder of seat 0, with the invite
    friend.get(link)
    friend.post(link)
    pages = {
        "maker's table (with the invite)": before_claim,
        "maker's table": maker.get(f"/tables/{game.pk}/").content.decode(),
        "friend's table": friend.get(f"/tables/{game.pk}/").content.decode(),
        "spectator's table": Client().get(f"/tables/{game.pk}/").content.decode(),
        "lobby": maker.get("/").content.decode(),
        "replay": maker.get(f"/games/{game.pk}/replay/").content.decode(),
    }
    tokens = _credentials(game)
    leaks = [name for name, page in pages.items() if any(t in page for t in tokens)]
    assert not leaks, f"a seat credential in: {leaks}"


def test_a_claim_replaces_the_seats_credential():
    game, link = _table_with_an_open_seat(Client())
    old = Seat.objects.get(game=game, number=1).token
    friend = Client()
    assert friend.post(link).status_code == 302
    new = Seat.objects.get(game=game, number=1).token
    assert new != old
    script = Client()
    assert script.get(f"/api/games/{game.pk}/state?seat=1", HTTP_X_SEAT_TOKEN=old).status_code == 403
    assert script.get(f"/api/games/{game.pk}/state?seat=1", HTTP_X_SEAT_TOKEN=new).status_code == 200
    assert _held(friend, game) == [1]


# --- The table socket -------------------------------------------------------------------------------


@pytest.fixture
async def _close_db_connections():  # type: ignore[no-untyped-def]
    yield
    await database_sync_to_async(connections.close_all)()


async def _first(
    path: str, client: Client | None = None, token: str | None = None
) -> tuple[dict[str, Any], Any]:
    """The socket's first message, and how it goes on: the close code that follows an error, or
    "open" when it answers a ``resync`` after its state."""
    headers = []
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    if token is not None:
        headers.append((b"x-seat-token", token.encode()))
    ws = WebsocketCommunicator(app, path, headers=headers)
    connected, code = await ws.connect()
    if not connected:
        return {}, code
    message = await ws.receive_output(timeout=5)
    if message["type"] == "websocket.close":
        return {}, message.get("code")
    first = json.loads(message["text"])
    if first["type"] == "error":
        after = await ws.receive_output(timeout=5)
        return first, after.get("code") if after["type"] == "websocket.close" else after
    await ws.send_json_to({"type": "resync"})
    again = await ws.receive_json_from(timeout=5)
    await ws.disconnect()
    return first, "open" if again["type"] == "state" else again


async def test_a_browser_socket_plays_the_seat_its_session_holds(_close_db_connections: None):
    maker = Client()
    game, _link = await database_sync_to_async(_table_with_an_open_seat)(maker)
    state, how = await _first(f"/ws/tables/{game.pk}/?seat=0", maker)
    assert state["type"] == "state" and state["seat"] == 0 and how == "open"


async def test_a_seat_not_held_is_refused_not_watched(_close_db_connections: None):
    maker = Client()
    game, _link = await database_sync_to_async(_table_with_an_open_seat)(maker)
    for client, seat in ((maker, 1), (maker, 7), (maker, "x"), (maker, ""), (None, 0)):
        error, how = await _first(f"/ws/tables/{game.pk}/?seat={seat}", client)
        assert (error.get("code"), how) == ("not_your_seat", 4403), (seat, error, how)


async def test_a_wrong_credential_is_refused_not_watched(_close_db_connections: None):
    maker = Client()
    game, _link = await database_sync_to_async(_table_with_an_open_seat)(maker)
    open_seat = (await database_sync_to_async(Seat.objects.get)(game=game, number=1)).token
    for token in ("not-a-credential", open_seat, "é" * 50):
        error, how = await _first(f"/ws/tables/{game.pk}/", token=token)
        assert (error.get("code"), how) == ("not_your_seat", 4403), (token, error, how)


async def test_a_credential_in_the_address_is_refused(_close_db_connections: None):
    maker = Client()
    game, _link = await database_sync_to_async(_table_with_an_open_seat)(maker)
    mine = (await database_sync_to_async(Seat.objects.get)(game=game, number=0)).token
    error, how = await _first(f"/ws/tables/{game.pk}/?token={mine}")
    assert error.get("type") == "error" and error.get("seat") is None and how == 4400, (error, how)


async def test_the_replaced_credential_opens_no_socket(_close_db_connections: None):
    game, link = await database_sync_to_async(_table_with_an_open_seat)(Client())
    old = (await database_sync_to_async(Seat.objects.get)(game=game, number=1)).token
    friend = Client()
    assert (await database_sync_to_async(friend.post)(link)).status_code == 302
    new = (await database_sync_to_async(Seat.objects.get)(game=game, number=1)).token
    error, how = await _first(f"/ws/tables/{game.pk}/", token=old)
    assert (error.get("code"), how) == ("not_your_seat", 4403)
    state, how = await _first(f"/ws/tables/{game.pk}/", token=new)
    assert state["seat"] == 1 and how == "open"
    state, how = await _first(f"/ws/tables/{game.pk}/?seat=1", friend)
    assert state["seat"] == 1 and how == "open"


# --- Two claims at once -----------------------------------------------------------------------------


def _race(link: str, claimers: list[Client]) -> dict[int, int]:
    """Every claimer posts the invite at once (each in a thread, released together); their statuses."""
    return dict(enumerate(races.at_once(*(lambda c=c: c.post(link).status_code for c in claimers))))


@pytest.mark.postgres
def test_of_two_claims_at_once_exactly_one_takes_the_seat():
    """Two browsers post the same invite at the same moment: one gets the seat, the other is told it
    is taken, and only the winner's session holds it."""
    for _round in range(5):  # a new table each round: the race is run more than once
        game, link = _table_with_an_open_seat(Client())
        claimers = [Client(), Client()]
        statuses = _race(link, claimers)
        assert sorted(statuses.values()) == [302, 410], statuses
        winner = next(n for n, status in statuses.items() if status == 302)
        assert _held(claimers[winner], game) == [1] and _held(claimers[1 - winner], game) == []
        assert not Seat.objects.get(game=game, number=1).awaiting_player
