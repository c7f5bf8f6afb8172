"""In a real browser: the forms show the rules' defaults of the options chosen (#23), the tournament
form shows the chosen game's options and how long a round takes (#20), and a tournament's computer
keeps its name at its table, in Kreyòl too."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Seat
from tournaments import service
from tournaments.models import MatchGame, Tournament

from .conftest import screenshot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_new_table_form_shows_the_target_of_the_variant_and_players_chosen(page):
    page.goto("/new/dominoes/")
    target = page.locator("input[name=target]")
    assert target.get_attribute("placeholder") == "100"
    page.select_option("select[name=variant]", "all_fives")
    assert target.get_attribute("placeholder") == "250"
    page.select_option("select[name=players]", "3")
    assert target.get_attribute("placeholder") == "200"
    assert page.locator(".seat-row:not([hidden])").count() == 3
    page.select_option("select[name=seat1]", "bot:greedy")
    page.select_option("select[name=seat2]", "bot:strong")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    game = Game.objects.get()
    assert (game.config["variant"], game.config["players"], game.config["target"]) == ("all_fives", 3, 200)


def test_the_tournament_form_shows_the_chosen_games_options_and_how_long_a_round_takes(page):
    get_user_model().objects.create_user("organiser", password="pw-organiser-1")
    sign_in(page, "organiser", "pw-organiser-1")
    page.goto("/tournaments/new/")
    page.fill("input[name=name]", "Fives night")
    page.select_option("#tournament-game", "dominoes")
    assert page.locator('fieldset[data-game="dominoes"]').is_visible()
    assert not page.locator('fieldset[data-game="pitch"]').is_visible()
    page.select_option("select[name=dominoes-variant]", "all_fives")
    target = page.locator("input[name=dominoes-target]")
    assert target.get_attribute("placeholder") == "250"
    page.fill("input[name=table_size]", "3")
    page.locator("input[name=table_size]").dispatch_event("change")
    assert target.get_attribute("placeholder") == "200"
    # The first format is a knockout of two-player matches: the estimate says why it cannot be made.
    page.wait_for_function("document.getElementById('estimate-text').textContent.includes('two-player')")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=best_of]", "3")
    page.locator("input[name=best_of]").dispatch_event("change")
    page.wait_for_function("document.getElementById('estimate-text').textContent.includes('best of 3')")
    text = page.inner_text("#estimate-text")
    assert re.fullmatch(r"A round takes about \d+ minutes \(best of 3\)\.", text), text
    # The players expected: each round's tables, and (9 players, 4 rounds at tables of 3 meet 8 others
    # each) the warning that a Swiss would repeat meetings; choosing a fixed schedule silences it.
    page.fill("input[name=rounds]", "4")
    page.fill("input[name=expected]", "9")
    page.locator("input[name=expected]").dispatch_event("change")
    page.wait_for_function(
        "document.getElementById('seating-advice').textContent.includes('fixed in advance')"
    )
    assert page.inner_text("#seating-advice").startswith("9 players: 3 tables of 3 each round.")
    page.select_option("select[name=seating]", "fixed")
    page.wait_for_function(
        "!document.getElementById('seating-advice').textContent.includes('fixed in advance')"
    )
    screenshot(page, "tournament-form-options")
    # The form's estimate arrives after each change and moves the button: a click while it
    # moves can miss it (the POST was never sent). Wait, as a person does, for it to settle: the
    # estimate is busy from a change until its answer is shown ("networkidle" had long been reached).
    page.wait_for_selector("#estimate:not([aria-busy])", state="attached")
    page.click("#new-tournament button[type=submit]")
    page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    row = Tournament.objects.get()
    assert row.options["game_config"] == {"variant": "all_fives"} and row.options["table_size"] == 3
    assert row.options["seating"] == "fixed" and row.options["rounds"] == 4
    assert re.search(r"A round takes about \d+ minutes \(best of 3\)\.", page.inner_text("#round-estimate"))


def test_a_tournaments_computer_keeps_its_name_at_its_table_in_kreyol(browser, server):
    row = service.create("Non", "kazino", "round_robin", {"game_config": {"match": "target"}})
    for level in ("random", "greedy", "strong"):
        service.register(row, "", bot_level=level)
    service.start(row)
    game_id = next(mg.game_id for mg in MatchGame.objects.filter(match__tournament=row) if 3 in mg.seats)
    seat = Seat.objects.get(game_id=game_id, bot_level="strong")
    context = browser.new_context(viewport={"width": 1100, "height": 900}, base_url=server, locale="ht")
    page = context.new_page()
    page.goto(f"/tables/{game_id}/")
    page.wait_for_selector("#scores li")
    names = page.locator("#scores li").all_inner_texts()
    assert any(name.startswith("Òdinatè 3 (fò) :") for name in names), names  # Kreyòl: a space before a colon
    assert seat.number + 1 != 3 or any(name.startswith("Òdinatè") for name in names)
    standings = context.new_page()
    standings.goto(f"/tournaments/{row.pk}/")
    assert "Òdinatè 3 (fò)" in standings.inner_text("#standings")
    context.close()
