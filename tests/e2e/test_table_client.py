"""The table client's own behaviour, on the tiny test engine with the generic renderer."""

from __future__ import annotations

import pytest

from games.commands import controls, moves
from games.commands.create import SeatSpec, create_game
from games.eventlog import store
from games.models import Game, Invite, Seat

from .conftest import WAIT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def claimed_table(page) -> Game:  # type: ignore[no-untyped-def]
    """A tiny table whose seat 0 the page claims through its invite, as a friend would: the link, then
    "Take the seat". The page then plays seat 0, its socket authorised by its session."""
    seats = [SeatSpec("Open seat", awaiting_player=True), SeatSpec("P1")]
    game = create_game("tiny", {"players": 2, "goal": 10}, seats)
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
    # A move the page never heard of (made in this process, which has no channel layer: conftest.py),
    # then an update that does not follow the page's seq.
    moves.submit(game.pk, 0, {"type": "add", "n": 1}, "elsewhere-1", store.head(game.pk)[0])
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
    moves.submit(game.pk, 0, {"type": "add", "n": 2}, "while-away", store.head(game.pk)[0])
    head = store.head(game.pk)[0]
    page.wait_for_function(f"window.tableClient.snap.seq === {head}", timeout=WAIT)
    assert page.evaluate("window.tableClient.snap.view.total") == 2


def test_a_move_confirmed_while_the_socket_is_down_is_sent_when_it_is_back(page):
    """A phone between two networks: Confirm while the socket is closed is neither lost nor an error
    to tap again; the page says so and plays the move once the connection is back."""
    game = claimed_table(page)
    # The socket drops and stays down until the test lets it reconnect.
    page.evaluate(
        """() => {
            const c = window.tableClient.connection;
            const open = c.open.bind(c);
            c.open = () => { window.reconnect = open; };
            c.socket.close();
        }"""
    )
    page.wait_for_selector("#status[data-status=closed]")
    page.wait_for_function("typeof window.reconnect === 'function'")
    sent = page.evaluate("window.__actions")
    page.get_by_role("button", name="add · n 2").click()
    page.click("#confirm")
    assert "move will be sent when the connection is back" in page.inner_text("#error")
    assert page.evaluate("window.__actions") == sent, "nothing can be sent on a closed socket"
    assert _moves(game) == []
    page.evaluate("window.reconnect()")
    page.wait_for_function("window.tableClient.snap.view.total === 2", timeout=WAIT)
    assert [m["n"] for m in _moves(game)] == [2], "played once, when the socket was back"
    assert page.locator("#preview").is_hidden()


def _watch_banner(page) -> None:  # type: ignore[no-untyped-def]
    """Keep every text the error banner shows, however briefly."""
    page.evaluate(
        """() => {
            window.bannerTexts = [];
            const banner = document.getElementById("error");
            new MutationObserver(() => { if (banner.textContent) window.bannerTexts.push(banner.textContent); })
                .observe(banner, {childList: true, characterData: true, subtree: true});
        }"""
    )


def _moves(game: Game) -> list[dict]:  # type: ignore[type-arg]
    return [e.data for e in store.load(game.pk) if e.type == "added"]


def test_a_move_refused_because_the_table_moved_on_is_played_again_when_still_legal(page):
    """#23.3: a person never sees a concurrency error. The table moves on without the page hearing of
    it (a pause made in this process); the move confirmed from the old picture is refused as stale,
    and the client sends it again from the new picture, since it is still legal."""
    game = claimed_table(page)
    _watch_banner(page)
    controls.pause(game.pk, "elsewhere-pause", store.head(game.pk)[0], by="seat:1")
    seen = page.evaluate("window.tableClient.snap.seq")
    assert seen < store.head(game.pk)[0]
    page.get_by_role("button", name="add · n 2").click()
    page.click("#confirm")
    page.wait_for_function("window.tableClient.snap.view.total === 2")
    assert [m["n"] for m in _moves(game)] == [2]
    assert page.evaluate("window.bannerTexts") == []
    assert page.locator("#preview").is_hidden()


def test_a_move_no_longer_possible_is_explained_in_plain_words(page):
    """The same, but the seat's move was made elsewhere meanwhile (another device of the same player):
    the stale move is not sent again, and the page says what happened without seqs or jargon."""
    game = claimed_table(page)
    _watch_banner(page)
    moves.submit(game.pk, 0, {"type": "add", "n": 1}, "elsewhere-1", store.head(game.pk)[0])
    page.get_by_role("button", name="add · n 2").click()
    page.click("#confirm")
    page.wait_for_function("window.bannerTexts.length > 0")
    texts = page.evaluate("window.bannerTexts")
    assert texts == [
        "Your move was not played: the table changed just before it arrived and it is no longer your turn."
    ]
    assert [m["n"] for m in _moves(game)] == [1]
    page.wait_for_function("window.tableClient.snap.view.total === 1")


def test_an_undo_refused_because_the_table_moved_on_is_explained_in_plain_words(page):
    """Undo from an old picture would take back someone else's move: it is not sent again, and the
    page says in words that nothing was taken back (no "move 4, it is now at 5")."""
    game = claimed_table(page)
    page.get_by_role("button", name="add · n 1").click()
    page.click("#confirm")
    page.wait_for_function("window.tableClient.snap.view.total === 1 && window.tableClient.snap.can_undo")
    _watch_banner(page)
    moves.submit(game.pk, 1, {"type": "add", "n": 2}, "elsewhere-2", store.head(game.pk)[0])
    page.click("#undo")
    page.wait_for_function("window.bannerTexts.length > 0")
    assert page.evaluate("window.bannerTexts") == [
        "Another move was played just before: nothing was taken back. Look at the table and try again."
    ]
    assert [m["n"] for m in _moves(game)] == [1, 2]
    assert not [e for e in store.load(game.pk) if e.type == "table.undo"]


def test_the_replay_of_a_game_in_progress_receives_new_moves_live(page):
    """#23.6: a spectator's replay page, open at the newest moment, shows a move played meanwhile at the
    table, without reloading; a page looking back keeps its place."""
    game = claimed_table(page)
    watcher = page.context.browser.new_context(base_url=page.url.split("/tables/")[0])
    try:
        replay = watcher.new_page()
        replay.goto(f"/games/{game.pk}/replay/")
        replay.wait_for_function(
            "document.querySelector('#replay') && !document.querySelector('#replay').dataset.loading && document.querySelector('#replay').dataset.seq"
        )
        before = int(replay.locator("#replay").get_attribute("data-seq"))
        page.get_by_role("button", name="add · n 2").click()
        page.click("#confirm")
        page.wait_for_function("window.tableClient.snap.view.total === 2")
        head = store.head(game.pk)[0]
        assert head > before
        replay.wait_for_function(
            f"document.querySelector('#replay').dataset.seq === '{head}' && !document.querySelector('#replay').dataset.loading"
        )
        assert "Guest 1: added" in replay.locator("#moments").inner_text()
    finally:
        watcher.close()
