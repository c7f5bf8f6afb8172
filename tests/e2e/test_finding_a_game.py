"""#33, finding a game, in a real browser: two people — one on a phone in Kreyòl, one on a laptop in
Tagalog — find each other through Play now and play a first move; then one takes the other's open
seat from the lobby. Every wait is for a state a person waits for (a page, a table, a move)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.eventlog.tables import load_table
from games.models import Game, Seat

from .axe import report, run_axe
from .conftest import COUNT_SENDS, PASSWORD, WAIT, phone_device, screenshot, sign_in
from .test_kazino import play_one_move, seq

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = phone_device()
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


def _person(browser: Any, server: str, name: str, language: str, device: dict[str, Any]) -> Any:
    """A signed-in person's page in their language on their device."""
    get_user_model().objects.create_user(name, password=PASSWORD)
    context = browser.new_context(base_url=server, **device)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    context.add_init_script(COUNT_SENDS)
    page = context.new_page()
    sign_in(page, name)
    return page


def _no_violations(page: Any, where: str) -> None:
    found = run_axe(page)["violations"]
    assert not found, f"{where}:\n{report(found)}"


def _choose_kazino(page: Any, seat1: str = "bot:greedy") -> None:
    page.goto("/new/kazino/")
    page.check("input[name=kind][value=casual]")
    page.select_option("select[name=match]", "single")
    page.select_option("select[name=seat1]", seat1)


def _table_opened(page: Any) -> int:
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#status[data-status=open]")
    page.wait_for_selector(".kz[data-seq]")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def test_two_people_find_each_other_with_play_now_and_through_an_open_seat(browser: Any, server: str) -> None:
    phone = _person(browser, server, "rose", "ht", PHONE)
    laptop = _person(browser, server, "jose", "tl", LAPTOP)
    try:
        # Rose, on her phone in Kreyòl, presses Play now: nobody waits yet, so she does.
        _choose_kazino(phone)
        phone.check("#fallback")  # asked for, with the most minutes: a person comes well before
        phone.select_option("#fallback-minutes", "5")
        _no_violations(phone, "the new-table form with Play now [ht phone]")
        screenshot(phone, "play-now-form-ht-phone")
        phone.locator("#play-now-button").tap()
        phone.wait_for_url("**/play/waits/*/")
        phone.wait_for_selector("#play-now-wait[data-state=waiting]")
        assert "Waiting for an opponent" not in phone.inner_text("main")  # in Kreyòl
        _no_violations(phone, "the waiting page [ht phone]")
        screenshot(phone, "play-now-waiting-ht-phone")
        # José, on his laptop in Tagalog, asks for the same: a table is made with both of them.
        _choose_kazino(laptop)
        laptop.click("#play-now-button")
        game_id = _table_opened(laptop)
        # Rose's waiting page learns it by asking, and goes to the same table.
        assert _table_opened(phone) == game_id
        seated = {
            s.user.username: s.number for s in Seat.objects.filter(game_id=game_id).select_related("user")
        }
        assert set(seated) == {"rose", "jose"}
        screenshot(phone, "play-now-table-ht-phone")
        screenshot(laptop, "play-now-table-tl-laptop")
        # Whoever is to play plays a first move; the other sees it.
        first = load_table(game_id).to_act()[0]
        mover, other = (phone, laptop) if seated["rose"] == first else (laptop, phone)
        mover.wait_for_function("() => document.querySelector('#turn')?.classList.contains('mine')")
        before = seq(other)
        play_one_move(mover, 0, touch=mover is phone)
        other.wait_for_function(f"Number(document.querySelector('.kz').dataset.seq) > {before}", timeout=WAIT)

        # Rose starts a table with an open seat; José finds it first in the lobby and takes the seat.
        _choose_kazino(phone, seat1="open")
        phone.locator("#new-table button[type=submit]").first.tap()
        open_id = _table_opened(phone)
        laptop.goto("/")
        first_row = laptop.locator("#live-tables > li").first
        assert first_row.get_attribute("data-table") == str(open_id)
        screenshot(laptop, "open-seat-lobby-tl-laptop")
        first_row.locator(".take-seat button").click()
        assert _table_opened(laptop) == open_id
        seat = Seat.objects.get(game_id=open_id, number=1)
        assert seat.user is not None and seat.user.username == "jose" and not seat.awaiting_player
        assert Game.objects.get(pk=open_id).status == Game.Status.ACTIVE
        # Taken: the lobby offers it to nobody now.
        laptop.goto("/")
        laptop.wait_for_selector(f"#live-tables > li[data-table='{open_id}']")
        assert laptop.locator(f"li[data-table='{open_id}'] .take-seat").count() == 0
    finally:
        phone.context.close()
        laptop.context.close()
