"""The lobby, the leaderboards and a player's page in a real browser (issue #23 items 8–10): desktop
(1280 × 800) and phone (390 × 844), English, Kreyòl and Tagalog, screenshots of each and axe-core on
each (no violation); the phone's header folds its links behind a Menu button; a spectator is counted
in the lobby and told they are watching; a guest's table says "Your turn" when it is."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from tests.replay.play import new_game, play

from .axe import report, run_axe
from .conftest import PASSWORD, screenshot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "ht", "tl"]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
TIMEOUT = 60_000
LONG_NAME = "marie-claire.desrosiers-jean-baptiste"


@pytest.fixture
def rated() -> dict[str, Any]:
    """Two signed-in players' rated Skyjo games, and one against the computer, plus a table in play."""
    model = get_user_model()
    ana, ben = model.objects.create_user("ana"), model.objects.create_user("ben")
    for seed in (1, 2, 3):
        play(
            new_game(
                "skyjo", 2, options={"target": 30}, humans={0: ana, 1: ben}, seed=seed, kind=Game.Kind.RATED
            )
        )
    play(new_game("kazino", 2, options={"match": "single"}, humans={0: ana}, seed=4, kind=Game.Kind.RATED))
    live = new_game("dominoes", 3, options={"variant": "draw", "target": 20}, seed=5, is_demo=True)
    return {"ana": ana.pk, "live": live.pk}


def _context(browser: Any, server: str, viewport: dict[str, int], language: str) -> Any:
    context = browser.new_context(viewport=viewport, base_url=server)
    context.set_default_timeout(TIMEOUT)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    return context


def _until(page: Any, check: str, timeout: float = 60.0) -> None:
    """Reload the page until ``check`` (a JS expression) holds: the lobby is not live, a count is."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(check):
        assert time.monotonic() < deadline, f"never true: {check}"
        page.reload()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_the_leaderboard_and_a_player_page_read_well(rated, browser, server, language):
    pages = {
        "lobby": "/",
        "leaderboard": "/ratings/?game=skyjo",
        "player": f"/players/user:{rated['ana']}/?game=skyjo",
    }
    failures = []
    for size, viewport in SIZES.items():
        context = _context(browser, server, viewport, language)
        page = context.new_page()
        for name, path in pages.items():
            page.goto(path)
            assert page.evaluate("document.documentElement.lang") == language
            # Nothing wider than the screen.
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], (name, size)
            found = run_axe(page)["violations"]
            if found:
                failures.append(f"{name} [{language}, {size}]:\n{report(found)}")
            screenshot(page, f"{name}-{language}-{viewport['width']}")
        assert page.locator(".game-tab[aria-current=page]").get_attribute("data-game") == "skyjo"
        page.goto(pages["player"])
        assert page.locator("svg.rating-chart:visible").count() == 1  # one picture for the screen it is on
        assert page.locator("#played tbody tr").count() == 3
        context.close()
    assert not failures, "axe-core found WCAG 2.1 A/AA violations:\n\n" + "\n\n".join(failures)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phone_header_folds_into_a_menu_and_the_desktop_one_does_not(rated, browser, server, language):
    get_user_model().objects.create_user(LONG_NAME, password=PASSWORD)
    context = _context(browser, server, SIZES["phone"], language)
    page = context.new_page()
    sign_in(page, LONG_NAME)
    page.goto("/")
    button = page.locator("#menu-button")
    assert button.is_visible() and button.get_attribute("aria-expanded") == "false"
    assert not page.locator("#site-nav").is_visible()
    height = page.evaluate("document.querySelector('#site-bar').getBoundingClientRect().height")
    assert height <= 0.08 * 844, f"the header takes {height} px of 844"
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    links = page.locator("#site-nav a:not(.who)")  # the name is a link too (to the profile)
    assert links.first.is_visible()
    boxes = [links.nth(i).bounding_box() for i in range(links.count())]
    assert all(b["x"] + b["width"] <= 390 for b in boxes), "a link runs off the screen"
    # The name has a line of its own, clear of the links.
    who = page.locator("#site-nav .who").bounding_box()
    assert who["x"] + who["width"] <= 390
    assert all(b["y"] >= who["y"] + who["height"] or b["y"] + b["height"] <= who["y"] for b in boxes)
    assert not run_axe(page)["violations"]
    screenshot(page, f"menu-open-{language}-390")
    page.keyboard.press("Escape")
    assert button.get_attribute("aria-expanded") == "false" and not page.locator("#site-nav").is_visible()
    context.close()

    desktop = _context(browser, server, SIZES["desktop"], language)
    page = desktop.new_page()
    page.goto("/")
    assert not page.locator("#menu-button").is_visible()
    assert page.locator("#site-nav a").first.is_visible()
    height = page.evaluate("document.querySelector('#site-bar').getBoundingClientRect().height")
    assert height < 80
    desktop.close()


def test_a_spectator_is_counted_in_the_lobby_and_told_they_are_watching(rated, browser, server):
    watcher = _context(browser, server, SIZES["phone"], "en")
    spectator = watcher.new_page()
    spectator.goto(f"/tables/{rated['live']}/")
    spectator.wait_for_selector("#status[data-status=open]")
    assert spectator.locator("#watching").inner_text() == "You are watching"
    screenshot(spectator, "table-spectator-en-390")

    lobby = _context(browser, server, SIZES["desktop"], "en")
    page = lobby.new_page()
    page.goto("/")
    row = f"#live-tables [data-table='{rated['live']}']"
    _until(page, f"!!document.querySelector(\"{row} [data-watching='1']\")")
    assert page.locator(f"{row} [data-mark=demo]").is_visible()
    assert page.locator(f"{row} .count").inner_text() == "3 players"
    watcher.close()  # the spectator leaves: no count any more
    _until(page, f'!document.querySelector("{row} [data-watching]")')
    lobby.close()


def test_a_guests_table_says_your_turn_in_the_lobby(rated, browser, server):
    context = _context(browser, server, SIZES["phone"], "en")
    page = context.new_page()
    page.goto("/new/kazino/")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    pk = page.url.rstrip("/").split("/")[-1]
    assert not page.locator("#watching").count()  # a player is not a spectator
    page.wait_for_function("() => document.querySelector('#turn').classList.contains('mine')")
    page.goto("/")
    row = page.locator(f"#live-tables [data-table='{pk}']")
    assert row.locator("[data-mark=turn]").inner_text() == "Your turn"
    screenshot(page, "lobby-your-turn-en-390")
    page.goto("/?game=skyjo")
    assert not page.locator(f"[data-table='{pk}']").count()  # filtered out
    context.close()
