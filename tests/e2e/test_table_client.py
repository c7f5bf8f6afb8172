"""The table client's own behaviour, on the tiny test engine with the generic renderer."""

from __future__ import annotations

import pytest

from games import service, store
from games.models import Game, Invite, Seat

from .conftest import WAIT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def claimed_table(page) -> Game:  # type: ignore[no-untyped-def]
    """A tiny table whose seat 0 the page claims through its invite, as a friend would: the link, then
    "Take the seat". The page then plays seat 0, its socket authorised by its session."""
    seats = [service.SeatSpec("Open seat", awaiting_player=True), service.SeatSpec("P1")]
    game = service.create_game("tiny", {"players": 2, "goal": 10}, seats)
    code = Invite.objects.get(seat__game=game, seat__number=0).code
    page.goto(f"/tables/{game.pk}/invite/{code}/")
    page.click("#take-seat")
    page.wait_for_function(
        "window.tableClient && window.tableClient.snap && window.tableClient.snap.seat === 0"
    )
    return game


def test_the_page_claims_an_invite_and_its_socket_carries_no_credential(page):
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    game = claimed_table(page)
    token = Seat.objects.get(game=game, number=0).token
    assert token not in page.content()
    assert sockets and all(url.endswith(f"/ws/tables/{game.pk}/?seat=0") for url in sockets), sockets
    assert not any(s.token in url for url in sockets for s in Seat.objects.filter(game=game))
    # The link is spent: opening it again says so and plays nothing.
    code = Invite.objects.get(seat__game=game, seat__number=0).code
    other = page.context.browser.new_context(base_url=page.url.split("/tables/")[0])
    try:
        stranger = other.new_page()
        response = stranger.goto(f"/tables/{game.pk}/invite/{code}/")
        assert response is not None and response.status == 410
        assert stranger.locator("#invite-refused").is_visible()
    finally:
        other.close()


def test_a_gap_in_updates_makes_the_client_resync(page):
    game = claimed_table(page)
    seq = page.evaluate("window.tableClient.snap.seq")
    # A move the page never heard of (made in this process, whose channel layer the server does not
    # share), then an update that does not follow the page's seq.
    service.submit(game.pk, 0, {"type": "add", "n": 1}, "elsewhere-1", store.head(game.pk)[0])
    assert page.evaluate("window.tableClient.snap.seq") == seq
    page.evaluate(
        """() => {
            const c = window.tableClient.connection;
            c.receive({...c.snap, type: "update", seq: c.snap.seq + 5, since: c.snap.seq + 4, view: {...c.snap.view, total: 99}});
        }"""
    )
    # The client refuses the update it cannot place and asks for the table again.
    head = store.head(game.pk)[0]
    page.wait_for_function(
        f"window.tableClient.snap.seq === {head} && window.tableClient.snap.view.total === 1"
    )
    assert "99" not in page.locator("#board").inner_text()


def test_a_reconnecting_client_catches_up(page):
    game = claimed_table(page)
    page.evaluate("window.tableClient.connection.socket.close()")
    service.submit(game.pk, 0, {"type": "add", "n": 2}, "while-away", store.head(game.pk)[0])
    head = store.head(game.pk)[0]
    page.wait_for_function(f"window.tableClient.snap.seq === {head}", timeout=WAIT)
    assert page.evaluate("window.tableClient.snap.view.total") == 2
