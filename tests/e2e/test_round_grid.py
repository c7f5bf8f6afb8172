"""#30: the organiser enters a whole real-card round in one grid, on a phone (390 px) and a laptop
(1280 px): a table that does not add up is refused at its row with what was typed kept and nothing
stored; corrected, every table is recorded at once. Nothing waits for a fixed time."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments import projection, service

from .conftest import PASSWORD, screenshot, sign_in
from .test_tournament_console import DESKTOP, PHONE, context

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def real_card_round(name: str):  # type: ignore[no-untyped-def]
    td = get_user_model().objects.create_user(name, password=PASSWORD)
    row = service.create(
        "Card Night", "kazino", "swiss", {"game_config": {"match": "single"}, "rounds": 2}, by=td
    )
    for player in ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay"):
        service.register(row, player, by=td)
    service.set_over_the_board(row, True, by=td)
    service.start(row, by=td)
    return row


@pytest.mark.parametrize(("size", "width"), [(PHONE, 390), (DESKTOP, 1280)])
def test_the_organiser_enters_a_whole_round_in_one_grid(browser, server, size, width):  # type: ignore[no-untyped-def]
    row = real_card_round(f"grid_td_{width}")
    tables = projection.load(row.stream_id).current.tables
    made = context(browser, server, size)
    page = made.new_page()
    sign_in(page, f"grid_td_{width}")
    page.goto(f"/tournaments/{row.pk}/")
    with page.expect_navigation():
        page.click("#console-round-grid")
    assert page.locator("section.grid-table").count() == 3

    def fill(table, first: int, second: int) -> None:  # type: ignore[no-untyped-def]
        a, b = table.entrants
        section = page.locator(f"#grid-{table.key}")
        section.locator(f"input[name$='-h0-cards-{a}']").fill(str(first))
        section.locator(f"input[name$='-h0-cards-{b}']").fill(str(second))

    fill(tables[0], 30, 22)
    fill(tables[1], 30, 20)  # 50 cards: refused
    fill(tables[2], 26, 26)
    with page.expect_navigation():
        page.click("#grid-send")
    error = page.locator(f"#grid-{tables[1].key}-error")
    assert "add up to 50, not 52" in error.inner_text()
    assert page.locator("p.error[role=alert]").first.inner_text().startswith("Nothing was stored")
    a, b = tables[1].entrants
    assert page.locator(f"#grid-{tables[1].key} input[name$='-h0-cards-{b}']").input_value() == "20"
    assert all(tb.result is None for tb in projection.load(row.stream_id).current.tables)
    assert page.evaluate(f"document.documentElement.scrollWidth <= {width}"), "the grid fits the screen"
    screenshot(page, f"round-grid-refused-{width}")

    fill(tables[1], 32, 20)
    with page.expect_navigation():
        page.click("#grid-send")
    page.wait_for_selector("p.done[role=status]:has-text('3 tables recorded.')")
    t = projection.load(row.stream_id)
    assert all(tb.result is not None for tb in t.rounds[0].tables)
    screenshot(page, f"round-grid-recorded-{width}")
    made.close()
