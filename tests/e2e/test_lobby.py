"""The lobby and a table in a real browser."""

from __future__ import annotations

import pytest

from .conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_lobby_lists_the_games_and_starts_a_table(page):
    page.goto("/")
    for name in ("skyjo", "dominoes", "kazino", "pitch"):
        assert page.locator(f'.game[data-game="{name}"]').count() == 1
    page.click('.game[data-game="kazino"] a.button')
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#status[data-status=open]")
    page.wait_for_function("document.querySelector('#board').children.length > 0")
    screenshot(page, "lobby-kazino-table")
