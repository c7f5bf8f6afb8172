"""The table client's own behaviour, on the tiny test engine with the generic renderer."""

from __future__ import annotations

import pytest

from games import service, store
from games.models import Seat
from tests.games.factories import tiny_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_gap_in_updates_makes_the_client_resync(page):
    game = tiny_game()
    token = Seat.objects.get(game=game, number=0).token
    page.goto(f"/tables/{game.pk}/join/{token}/")
    page.wait_for_function("window.tableClient && window.tableClient.snap")
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
    game = tiny_game()
    token = Seat.objects.get(game=game, number=0).token
    page.goto(f"/tables/{game.pk}/join/{token}/")
    page.wait_for_function("window.tableClient && window.tableClient.snap")
    page.evaluate("window.tableClient.connection.socket.close()")
    service.submit(game.pk, 0, {"type": "add", "n": 2}, "while-away", store.head(game.pk)[0])
    head = store.head(game.pk)[0]
    page.wait_for_function(f"window.tableClient.snap.seq === {head}", timeout=15000)
    assert page.evaluate("window.tableClient.snap.view.total") == 2
