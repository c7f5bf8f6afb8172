"""The room screen's languages are the organiser's, saved on the tournament (#34): chosen in the
console (Kreyòl and Tagalog both, for a club of both), kept as an event of its log, and used by the
screen opened with no language in its address — by any reader, whatever their own language."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.eventlog import streams
from tournaments import clock, service
from tournaments.models import Club

from .conftest import WAIT, screenshot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_organiser_s_languages_are_the_screen_s(browser, server):
    director = get_user_model().objects.create_user("director", password="pw-director-1")
    club = Club.objects.create(name="Friday club", slug="friday")
    row = service.create("Friday Cup", "kazino", "swiss", {"game_config": {"match": "single"}}, by=director)
    row.club = club
    row.save(update_fields=["club"])
    for name in ("Ana", "Ben", "Carla", "Didier"):
        service.register(row, name, by=director)
    service.start(row, by=director)

    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server)
    page = context.new_page()
    sign_in(page, "director", "pw-director-1")
    page.goto(f"/tournaments/{row.pk}/")
    form = page.locator("[data-form=screen-languages]")
    form.locator("input[value=ht]").check()
    form.locator("input[value=tl]").check()
    form.locator("button[value=screen_languages]").click()
    page.wait_for_selector("[data-form=screen-languages] input[value=tl]:checked", timeout=WAIT)
    saved = [e.data for e in streams.read(row.stream_id) if e.type == clock.LANGUAGES_SET]
    assert [d["languages"] for d in saved] == [["ht", "tl"]]
    screenshot(page, "console-round-clock-en")

    # A reader in English opens the screen with no language in its address: Kreyòl and Tagalog.
    screen_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=server)
    screen = screen_ctx.new_page()
    screen.goto(f"/tournaments/{row.pk}/screen/")
    heading = screen.locator("#panel-pairings h2").inner_text()
    assert "Chèche non w" in heading and "Hanapin ang pangalan mo" in heading, heading
    assert "Find your name" not in heading
    screenshot(screen, "room-screen-ht-tl-1920")
    # The screen's own refresh keeps them (its panels are fetched with the same languages).
    screen.evaluate("window.roomScreen.refresh()")
    screen.wait_for_function("document.querySelector('#panel-pairings h2') !== null")
    assert "Hanapin ang pangalan mo" in screen.locator("#panel-pairings h2").inner_text()
    screen_ctx.close()
    context.close()
