"""The room screen in Chromium at 1920×1080 and 1280×720: the pairings by name rotate with the other
panels by themselves, the organiser's clock actions (taken on another page) appear on the screen
without a reload, the clock counts down under an injected clock, "last hand" shows, and no hidden card
is in any frame. Then a season's page on a 390 px phone, in the three languages."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model

from games import engines
from games.commands.create import SeatSpec, create_game
from games.eventlog import queries
from games.eventlog.tables import load_table
from seasons import service as seasons
from tests.seasons.nights import club_nights
from tournaments import service, simulate
from tournaments.models import Club, Entry, MatchGame

from .axe import report, run_axe
from .conftest import WAIT, phone_context, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _hidden_cards(row) -> set[str]:
    kazino = engines.get("kazino")
    found: set[str] = set()
    for mg in MatchGame.objects.filter(match__tournament=row):
        found |= set(kazino.hidden_from(load_table(mg.game_id).state, None))
    return found


def _no_hidden_card(page, cards: set[str]) -> None:
    text = page.evaluate("document.body.innerText")
    for card in cards:
        assert not re.search(rf"(?<![\w#-]){re.escape(card)}(?![\w-])", text), card


def _accessible(page) -> None:
    """axe-core on WCAG 2.1 A and AA: no violation on the page as it is now."""
    violations = run_axe(page)["violations"]
    assert not violations, report(violations)


def _login(context, server, name: str) -> None:
    page = context.new_page()
    page.goto(f"{server}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", f"pw-{name}-1")
    page.click("form button[type=submit], form input[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_room_screen_rotates_follows_the_clock_and_shows_no_hidden_card(browser, server, size):
    # Staff: the tournament is made by the simulation (no organiser in its log), as a club's demo is.
    get_user_model().objects.create_user("director", password="pw-director-1", is_staff=True)
    club = Club.objects.create(name="Friday club", slug="friday")
    row = simulate.setup(
        "kazino", "swiss", 5, {"game_config": {"match": "single"}, "rounds": 2}, "greedy", club=club, seed=9
    )
    service.start(row)
    row.refresh_from_db()
    cards = _hidden_cards(row)
    assert cards  # the live games hold hands and a stock that nobody may see

    width, height = size
    screen_ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    screen = screen_ctx.new_page()
    screen.clock.install()
    screen.goto(f"/tournaments/{row.pk}/screen/?lang=en,ht")
    screen.clock.pause_at(time.time() + 1)  # seconds, as time.time() gives them
    pairings = screen.locator("#panel-pairings")
    screen.wait_for_function("window.roomScreen !== undefined")
    assert pairings.is_visible()
    names = screen.locator("#by-name .name").all_inner_texts()
    entrants = {e.shown_name for e in Entry.objects.filter(tournament=row)}
    assert names == sorted(names, key=str.casefold) and set(names) == entrants
    assert "Find your name · Chèche non w" in screen.locator("#panel-pairings h2").inner_text()
    _no_hidden_card(screen, cards)
    screenshot(screen, f"room-screen-pairings-{width}")
    # the panels rotate by themselves: 12 s later the tables, then the standings, then the names again
    seen = []
    for _ in range(3):
        screen.clock.run_for(12_000)
        panel = screen.locator(".panel:not([hidden])").get_attribute("data-panel")
        seen.append(panel)
        _no_hidden_card(screen, cards)
        screenshot(screen, f"room-screen-{panel}-{width}")
    assert seen == ["tables", "standings", "pairings"]

    # The organiser sets and starts the clock on the clock page; the screen shows it without a reload.
    screen.evaluate("window.stillTheSamePage = true")
    director_ctx = browser.new_context(base_url=server)
    _login(director_ctx, server, "director")
    console = director_ctx.new_page()
    console.goto(f"/tournaments/{row.pk}/clock/")
    console.fill("input[name=minutes]", "10")
    console.click("button[value=set]")
    console.click("button[value=start]")
    started = time.monotonic()
    screen.wait_for_selector("#clock[data-running='1']", timeout=WAIT)
    arrived = time.monotonic() - started
    assert screen.evaluate("window.stillTheSamePage === true")
    screen.clock.run_for(1_000)
    first = screen.locator("#clock-time").inner_text()
    assert re.fullmatch(r"(10:00|09:5\d)", first), first
    screen.clock.run_for(60_000)  # the injected clock: a minute later
    later = screen.locator("#clock-time").inner_text()
    assert re.fullmatch(r"(09:00|08:5\d)", later), later
    console.click("button[value=last_hand]")
    screen.wait_for_selector("#last-hand", timeout=WAIT)
    assert "Last hand · Dènye men" in screen.locator("#last-hand").inner_text()
    screen.clock.run_for(10 * 60_000)  # past the end: the screen says so, and decides nothing
    assert "Time!" in screen.locator("#clock-time").inner_text()
    _no_hidden_card(screen, cards)
    screenshot(screen, f"room-screen-clock-{width}")
    # axe-core waits on timers of its own: the screen in a context without the injected clock
    plain_ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    plain = plain_ctx.new_page()
    plain.goto(f"/tournaments/{row.pk}/screen/?lang=en,ht")
    plain.wait_for_selector("#last-hand")
    _accessible(plain)
    plain_ctx.close()
    print(f"clock start reached the screen in {arrived:.2f} s")
    for language in ("en", "ht", "tl"):
        screen.goto(f"/tournaments/{row.pk}/screen/?lang={language}")
        screenshot(screen, f"room-screen-{language}-{width}")
    screen_ctx.close()
    director_ctx.close()


def test_the_season_page_fits_a_phone_in_three_languages(browser, server):
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    club, _ = club_nights((3, 4))
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.now().date()
    season_id = seasons.define(
        club,
        {
            "name": "Grand Prix 2026",
            "start": today - timedelta(days=7),
            "end": today + timedelta(days=7),
            "games": ["kazino"],
            "tournaments": None,
            "scoring": {"kind": "table", "table": [10, 6, 4]},
            "best": 1,
            "tie_breaks": ["wins", "countback"],
        },
        staff,
    )
    for language in ("en", "ht", "tl"):
        context = phone_context(browser, server, language, scale=2)
        phone = context.new_page()
        phone.goto(f"/seasons/{season_id}/")
        phone.wait_for_selector("#season-table")
        assert phone.locator(".season-row").count() == 3
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.locator(".season-row details summary").first.tap()
        assert phone.locator(".season-row details[open] li").count() == 2  # two events, one dropped
        assert phone.locator(".season-row details[open] li.dropped").count() == 1
        _accessible(phone)
        screenshot(phone, f"season-page-{language}-390")
        context.close()


def test_the_points_ranking_on_a_phone_in_three_languages(browser, server):
    """Kazino's points ranking beside the ratings, on the leaderboard and the player's page."""
    from games.computers.autoplay import play_bot_turn
    from games.models import Game

    seats = [SeatSpec("", bot_level="greedy", bot_number=n) for n in (1, 2)]
    game = create_game("kazino", {"players": 2, "match": "single"}, seats, seed=18, kind=Game.Kind.RATED)
    while (outcome := queries.result(game.pk)) is None:
        table = load_table(game.pk)
        play_bot_turn(game.pk, table.seq, table.to_act()[0])
    points = sorted(outcome["games"][0]["points"], reverse=True)
    for language in ("en", "ht", "tl"):
        context = phone_context(browser, server, language, scale=2)
        phone = context.new_page()
        phone.goto("/ratings/?game=kazino&period=week&computers=1#points")  # computers asked for
        phone.wait_for_selector("#points-table")
        cells = phone.locator("#points-table tbody tr td:nth-child(3)").all_inner_texts()
        assert [int(c) for c in cells] == points
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        # The six columns fit the phone without scrolling their region (in Tagalog the names kept to one
        # line and pushed "points per game" out of sight).
        assert phone.evaluate(
            "document.querySelector('#points-table').scrollWidth <= document.querySelector('#points .scroll').clientWidth"
        )
        _accessible(phone)
        phone.locator("#points").screenshot(path=str(screenshot(phone, f"points-ranking-{language}-390")))
        phone.goto("/players/bot:greedy:1/?game=kazino")
        phone.wait_for_selector("#points-table")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        _accessible(phone)
        context.close()
