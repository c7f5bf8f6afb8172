"""A tournament page in a real browser: the organiser starts it, and the page follows it live to the end."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments import service
from tournaments.models import Tournament

from .conftest import screenshot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_page_follows_a_tournament_live_from_start_to_standings(page):
    organiser = get_user_model().objects.create_user("organiser", password="pw-organiser-1")
    row = service.create(
        "Live Swiss", "kazino", "swiss", {"rounds": 2, "game_config": {"match": "single"}}, by=organiser
    )
    for n in range(4):
        service.register(row, f"Bot {n + 1}", bot_level="random")
    sign_in(page, "organiser", "pw-organiser-1")
    page.goto(f"/tournaments/{row.pk}/")
    page.click("button[value=start]")
    page.wait_for_selector("#status[data-status=running]")
    page.wait_for_selector('ul.rounds[data-round="1"] a.button')  # a live game to watch
    first = page.evaluate("window.tournamentPage.seq")
    page.evaluate("window.stillTheSamePage = true")
    # No reload from here on: the socket's nudges bring every round and the final standings.
    page.wait_for_selector("#status[data-status=finished]", timeout=120_000)
    assert page.evaluate("window.stillTheSamePage === true"), "the page was not reloaded"
    assert page.evaluate("window.tournamentPage.seq") > first
    assert page.locator('ul.rounds[data-round="2"] > li').count() == 2
    ranks = page.locator("#standings tbody tr td:first-child").all_inner_texts()
    assert ranks[0] == "1" and len(ranks) == 4
    row.refresh_from_db()
    assert row.status == "finished"
    screenshot(page, "tournament-finished")
    assert Tournament.objects.get(pk=row.pk).round == 2
