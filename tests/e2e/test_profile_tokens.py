"""The profile page's API tokens in a real browser: made (shown once), used by a script, revoked; no
axe-core violation, in English, Kreyòl and Tagalog, on a desktop and a phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from .axe import count, report, run_axe
from .conftest import PASSWORD, screenshot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _violations(page: Any, where: str) -> list[str]:
    found = run_axe(page)["violations"]
    return [f"{where}: {count(found)} violation(s)\n{report(found)}"] if found else []


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_tokens_on_the_profile_page(browser: Any, server: str, language: str) -> None:
    get_user_model().objects.create_user(f"ana-{language}", password=PASSWORD)
    problems: list[str] = []
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, base_url=server)
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = context.new_page()
        sign_in(page, f"ana-{language}")
        if page.locator("#menu-button").is_visible():  # a phone: the links fold behind the menu
            page.click("#menu-button")
        page.click("header a.who")  # the name in the menu leads to the profile
        page.wait_for_selector("#new-token-form")
        problems += _violations(page, f"profile, no token [{language} {size}]")
        page.fill("#token-name", "my bot")
        page.click("#new-token-form button[type=submit]")
        token = page.input_value("#token-value")
        assert token.startswith("th_")
        problems += _violations(page, f"profile, new token [{language} {size}]")
        screenshot(page, f"profile-token-{language}-{size}")
        # A script presents it: the API knows whose it is.
        answer = context.request.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
        assert answer.status == 200 and answer.json()["username"] == f"ana-{language}"
        page.reload()
        assert page.locator("#token-value").count() == 0, "shown once"
        page.click("#token-list button[type=submit]")
        page.wait_for_selector("p.notice")
        screenshot(page, f"profile-revoked-{language}-{size}")
        gone = context.request.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
        assert gone.status == 401
        context.close()
    assert not problems, "\n\n".join(problems)
