"""#33, club-only tables, in a real browser: a club's member (on a phone, in Kreyòl) starts a table
"only for members of" her club with an open seat; a second member (on a laptop, in Tagalog) who joined
through the club's link finds it first in his lobby and takes the seat; a player who is no member sees
it neither in the lobby nor at its address (the page of a table that does not exist)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Seat
from tournaments import clubs

from .axe import report, run_axe
from .conftest import screenshot
from .test_finding_a_game import LAPTOP, PHONE, _choose_kazino, _person, _table_opened

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_member_finds_a_club_only_table_first_and_a_non_member_never_sees_it(
    browser: Any, server: str
) -> None:
    phone = _person(browser, server, "rose", "ht", PHONE)
    laptop = _person(browser, server, "jose", "tl", LAPTOP)
    outsider = _person(browser, server, "ana", "en", LAPTOP)
    organiser = get_user_model().objects.get(username="rose")
    club = clubs.create("Klib Jedi", "klib-jedi", by=organiser)
    try:
        # José opens the club's join link (Rose shared it from the members' page) and joins.
        phone.goto(f"/clubs/{club.slug}/members/")
        found = run_axe(phone)["violations"]
        assert not found, f"the club's members page [ht phone]:\n{report(found)}"
        screenshot(phone, "club-members-ht-phone")
        link = phone.input_value("#join-link-value")
        laptop.goto(link)
        laptop.click("#join-club")
        laptop.wait_for_url(f"**/clubs/{club.slug}/members/")
        laptop.wait_for_selector("#club-members li[data-member=jose]")

        # A public table with an open seat first: without the club, it would lead José's lobby.
        _choose_kazino(outsider, seat1="open")
        outsider.click("#new-table button[type=submit]")
        public_id = _table_opened(outsider)

        # Rose starts a table only for her club, with a seat open to its members.
        _choose_kazino(phone, seat1="open")
        phone.select_option("#club", str(club.pk))
        found = run_axe(phone)["violations"]
        assert not found, f"the new-table form with a club [ht phone]:\n{report(found)}"
        screenshot(phone, "club-only-form-ht-phone")
        phone.locator("#new-table button[type=submit]").first.tap()
        club_id = _table_opened(phone)
        assert Game.objects.get(pk=club_id).club_id == club.pk

        # José's lobby shows the club's table first, marked, and he takes its open seat.
        laptop.goto("/")
        first_row = laptop.locator("#live-tables > li").first
        assert first_row.get_attribute("data-table") == str(club_id)
        assert first_row.locator("[data-mark=club]").count() == 1
        laptop.wait_for_selector(f"#live-tables > li[data-table='{public_id}']")  # the public one after it
        screenshot(laptop, "club-only-lobby-tl-laptop")
        first_row.locator(".take-seat button").click()
        assert _table_opened(laptop) == club_id
        seat = Seat.objects.get(game_id=club_id, number=1)
        assert seat.user is not None and seat.user.username == "jose" and not seat.awaiting_player

        # Ana, no member, sees the public table in her lobby and not the club's; its address is the
        # page of a table that does not exist.
        outsider.goto("/")
        outsider.wait_for_selector(f"#live-tables > li[data-table='{public_id}']")
        assert outsider.locator(f"li[data-table='{club_id}']").count() == 0
        assert "Klib Jedi" not in outsider.inner_text("main")
        missing = Game.objects.order_by("-pk").first().pk + 1000  # type: ignore[union-attr]
        answer = outsider.goto(f"/tables/{club_id}/")
        nowhere = outsider.goto(f"/tables/{missing}/")
        assert answer is not None and nowhere is not None and answer.status == nowhere.status == 404
        screenshot(outsider, "club-only-table-outsider-en-laptop")
    finally:
        for page in (phone, laptop, outsider):
            page.context.close()
