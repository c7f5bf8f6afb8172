"""#33.5: on a 1280×800 laptop the third row of your own Skyjo grid was below the fold. At the table,
in the opening and on your first turn, your whole grid is on the first screen of
a laptop (two and four players, three languages); on a 390 px phone nothing is wider than the screen.
Screenshots in /tmp/review-shots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_skyjo import MY_TURN_OR_OVER, confirm, open_cell

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/review-shots")

# Read in one step inside the page: a computer's move may redraw the board between two reads.
GRID = """() => {
  const cells = [...document.querySelectorAll('.sk-mine [data-cell]')].map(c => c.getBoundingClientRect());
  return {
    cells: cells.length,
    top: Math.min(...cells.map(r => r.top + window.scrollY)),
    bottom: Math.max(...cells.map(r => r.bottom + window.scrollY)),
    rows: new Set([...document.querySelectorAll('.sk-mine [data-cell]')].map(c => c.offsetTop)).size,
    width: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  };
}"""


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function(
        "document.getAnimations().every(a => a.animationName !== 'sk-arrive' || a.playState !== 'running')"
    )
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def check(page: Any, size: dict[str, int], name: str) -> None:
    shoot(page, name)
    grid = page.evaluate(GRID)
    assert grid["cells"] == 12 and grid["rows"] == 3, grid
    assert grid["width"] <= grid["viewport"], f"wider than the screen: {grid}"
    if size is LAPTOP:
        assert grid["bottom"] <= size["height"], f"{name}: the last row ends below the fold: {grid}"


@pytest.mark.parametrize(
    ("size", "players", "language"),
    [(LAPTOP, 2, "tl"), (LAPTOP, 4, "en"), (PHONE, 4, "ht")],
    ids=["laptop-2-tl", "laptop-4-en", "phone-4-ht"],
)
def test_your_whole_grid_is_on_the_first_screen(
    browser: Any, server: str, size: dict[str, int], players: int, language: str
) -> None:
    context = browser.new_context(
        viewport=size, base_url=server, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    tag = f"skyjo-{size['width']}-{players}-{language}"
    try:
        page.goto("/new/skyjo/")
        page.select_option("#players", str(players))
        page.select_option("select[name=seat0]", "me")
        for n in range(1, players):
            page.select_option(f"select[name=seat{n}]", "bot:greedy")
        page.click("#new-table button[type=submit]")
        page.wait_for_url("**/tables/*/")
        page.wait_for_selector("#status[data-status=open]")
        page.wait_for_selector(".sk-mine [data-cell]")
        check(page, size, f"{tag}-opening")
        for _ in range(2):
            page.wait_for_function(MY_TURN_OR_OVER)
            open_cell(page, "hidden").click()
            confirm(page)
        page.wait_for_selector(".sk-table:not([data-phase=opening]) button[data-action=draw]")
        check(page, size, f"{tag}-turn")
    finally:
        context.close()
