"""The rules pages' pictures in a real browser: every worked example drawn by the table's renderer,
read-only (nothing to press or focus in it), inside the page on a phone, in the three languages, with
no axe violation."""

from __future__ import annotations

import pytest

from frontend.rules_pictures import PICTURES

from .axe import count, report, run_axe
from .conftest import SHOTS, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [({"width": 1280, "height": 800}, False), ({"width": 390, "height": 844}, True)]
GAMES = ["skyjo", "dominoes", "kazino", "pitch"]
ALL_DRAWN = "() => [...document.querySelectorAll('figure.rules-picture')].every((f) => f.dataset.drawn)"

# Per picture: drawn (the renderer put something in it), its right edge within the page's width, and
# the focusable or pressable things in it that a reader could reach (none: the drawing is inert).
INSPECT = """() => [...document.querySelectorAll('figure.rules-picture')].map((f) => {
  const board = f.querySelector('.rules-board');
  const box = f.getBoundingClientRect();
  return {
    slug: f.dataset.picture,
    drawn: board.childElementCount > 0,
    inert: board.inert,
    right: Math.round(box.right),
    width: document.documentElement.clientWidth,
    caption: f.querySelector('figcaption').textContent.trim(),
  };
})"""


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_every_rules_page_draws_its_pictures_in_every_language_and_size(browser, server, language):
    for viewport, touch in SIZES:
        options = {"viewport": viewport, "base_url": server}
        if touch:
            options.update(device_scale_factor=2, is_mobile=True, has_touch=True)
        context = browser.new_context(**options)
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        try:
            page = context.new_page()
            for game in GAMES:
                page.goto(f"/rules/{game}/")
                page.wait_for_function(ALL_DRAWN)
                found = page.evaluate(INSPECT)
                expected = [p.slug for p in PICTURES if p.engine == game]
                assert [f["slug"] for f in found] == expected
                for figure in found:
                    assert figure["drawn"] and figure["inert"] and figure["caption"], figure
                    assert figure["right"] <= figure["width"], f"{game} {language} {viewport}: {figure}"
                assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), game
                # Tabbing through the page never lands in a picture.
                assert page.evaluate(
                    "[...document.querySelectorAll('.rules-board *')].every((e) => e.tabIndex < 0 || e.closest('[inert]'))"
                )
                screenshot(page, f"rules-pictures-{game}-{language}-{viewport['width']}")
                for slug in expected:  # each picture on its own, to look at it closely
                    figure = page.locator(f'figure[data-picture="{slug}"]')
                    figure.screenshot(
                        path=str(SHOTS / f"rules-picture-{slug}-{language}-{viewport['width']}.png")
                    )
                found_axe = run_axe(page)["violations"]
                assert count(found_axe) == 0, f"{game} {language}: {report(found_axe)}"
        finally:
            context.close()
