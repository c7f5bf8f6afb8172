"""The new-table form on a phone held upright, in Kreyòl and Tagalog (the longer languages), for
a member of a club (the form then offers the club's tables): nothing runs past the screen's right
edge, so no field hides half its label or needs a sideways scroll."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import engines
from tournaments import clubs

from .conftest import phone_context, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-new-table-phone-1"
#: A club name as long as clubs give themselves: the form's choice reads "Only members of <name>".
CLUB = "Klib Domino ak Kat Jacmel"

#: What sticks out past the viewport's right edge: each such element, described.
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('main *')]
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}: ${Math.round(e.getBoundingClientRect().right)}`)"""


def sign_in(page: Any, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit], form input[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.mark.parametrize("language", ["ht", "tl"])  # English is the shortest of the three
def test_the_new_table_form_fits_a_phone_for_a_club_member(browser: Any, server: str, language: str) -> None:
    member = get_user_model().objects.create_user(f"member-{language}", password=PASSWORD)
    clubs.create(CLUB, f"klib-{language}", by=member)
    context = phone_context(browser, server, language)
    page = context.new_page()
    try:
        sign_in(page, member.username)
        for game in engines.names():
            page.goto(f"/new/{game}/")
            page.wait_for_selector("#club option:nth-child(2)", state="attached")
            sticking_out = page.evaluate(WIDER_THAN_THE_SCREEN)
            if sticking_out:
                screenshot(page, f"new-table-{game}-{language}-phone")
            assert not sticking_out, f"{game} in {language}: {sticking_out}"
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), game
    finally:
        context.close()
