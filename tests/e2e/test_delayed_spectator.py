"""#37 in a browser: a spectator of a tournament table with a move delay sees the game's end and its
final score (the delay cut the last moves forever); the move log is numbered by the moves' places in
the table's log (a spectator arriving mid-game saw "1" for move 37), and a spectator is shown no
keyboard help for moves they cannot make."""

from __future__ import annotations

import re

import pytest

from games.commands.create import SeatSpec, create_game
from games.models import Game, Invite

from .conftest import WAIT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
GOAL = 8


def test_a_spectator_of_a_delayed_tournament_table_sees_its_final_score(page):
    # Seat 0 is the page's (claimed through its invite), seat 1 the server's computer: every move goes
    # through the server, so the spectator's page hears each one as it is published.
    seats = [SeatSpec("Open seat", awaiting_player=True), SeatSpec.computer(2, "random")]
    game = create_game(
        "tiny", {"players": 2, "goal": GOAL}, seats, kind=Game.Kind.TOURNAMENT, spectator_delay=2
    )
    code = Invite.objects.get(seat__game=game, seat__number=0).code
    page.goto(f"/tables/{game.pk}/invite/{code}/")
    page.click("#take-seat")
    page.wait_for_function(
        "window.tableClient && window.tableClient.snap && window.tableClient.snap.seat === 0"
    )
    page.get_by_role("button", name="add · n 1").click()  # a move before the spectator arrives
    page.click("#confirm")
    page.wait_for_function("window.tableClient.snap.to_act.includes(0)", timeout=WAIT)

    other = page.context.browser.new_context(base_url=page.url.split("/tables/")[0])
    try:
        watcher = other.new_page()
        watcher.goto(f"/tables/{game.pk}/")
        watcher.wait_for_function("window.tableClient && window.tableClient.snap", timeout=WAIT)
        assert watcher.evaluate("window.tableClient.snap.seat") is None
        assert watcher.locator(".keys").count() == 0, "no keyboard help for a spectator"
        while not page.evaluate("window.tableClient.snap.finished"):
            page.wait_for_function(
                "window.tableClient.snap.finished || window.tableClient.snap.to_act.includes(0)", timeout=WAIT
            )
            if page.evaluate("window.tableClient.snap.finished"):
                break
            # Add 2, or 1 when 2 would pass the goal (the computer's random moves decide the total).
            page.get_by_role("button", name=re.compile(r"^add · n [12]$")).last.click()
            page.click("#confirm")
            page.wait_for_function(
                "window.tableClient.snap.finished || !window.tableClient.snap.to_act.includes(0)",
                timeout=WAIT,
            )
        watcher.wait_for_function("window.tableClient.snap.finished", timeout=WAIT)
        end = watcher.evaluate("window.tableClient.snap")
        assert end["view"]["total"] == GOAL and end["outcome"] is not None
        assert watcher.locator("#turn").inner_text() == "The game is over."
        assert f'"total": {GOAL}' in watcher.locator("#board").inner_text()
        # The newest line of the log carries its move's seq, not the count of moves this page saw.
        values = watcher.eval_on_selector_all("#log-list li", "els => els.map((e) => e.value)")
        assert values and values[0] == end["last_move"]["seq"] > len(values)
    finally:
        other.close()
