"""#30: the organiser undoes a mistaken swap from the console on a phone — the button names the swap,
asks, then the round's tables are as they were; the swap and its undo both stay in the log."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.eventlog import streams
from tournaments import projection, service, undo

from .conftest import PASSWORD, screenshot, sign_in
from .test_tournament_console import PHONE, context

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_organiser_undoes_a_mistaken_swap(browser, server):  # type: ignore[no-untyped-def]
    td = get_user_model().objects.create_user("undo_td", password=PASSWORD)
    row = service.create(
        "Undo Night", "kazino", "swiss", {"game_config": {"match": "single"}, "auto_start": False}, by=td
    )
    for name in ("Ana", "Ben", "Cy", "Dee"):
        service.register(row, name, by=td)
    service.start(row, by=td)
    paired = [list(tb.entrants) for tb in projection.load(row.stream_id).rounds[0].tables]
    names = {1: "Ana", 2: "Ben", 3: "Cy", 4: "Dee"}
    a, b = paired[0][0], paired[1][0]

    made = context(browser, server, PHONE)
    page = made.new_page()
    sign_in(page, "undo_td")
    page.goto(f"/tournaments/{row.pk}/")
    form = page.locator("form[data-form=edit-pairing]")
    form.locator("select[name=edit]").select_option("swap")
    form.locator("select[name=a]").select_option(str(a))
    form.locator("select[name=b]").select_option(str(b))
    form.locator("input[name=reason]").fill("seating")
    with page.expect_navigation():
        form.locator("button[value=edit_pairing]").click()
    if page.locator("form[data-form=confirm-change]").count():  # the swap's warnings, answered yes
        with page.expect_navigation():
            page.click("form[data-form=confirm-change] button[value=confirm]")
    swapped = f"{names[a]} and {names[b]} swapped places."
    page.wait_for_selector(f"p.done:has-text('{swapped}')")
    assert [list(tb.entrants) for tb in projection.load(row.stream_id).rounds[0].tables] != paired

    button = page.locator("form[data-form=undo] button[value=undo]")
    assert button.inner_text().strip() == f"Undo: {swapped}"
    with page.expect_navigation():
        button.click()
    confirm = page.locator("form[data-form=confirm-change]")
    assert f"Undo this action? {swapped}" in confirm.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= 390"), "the question fits a phone"
    screenshot(page, "console-undo-ask-390")
    with page.expect_navigation():
        confirm.locator("button[value=confirm]").click()
    page.wait_for_selector(f"p.done:has-text('Undone: {swapped}')")
    assert [list(tb.entrants) for tb in projection.load(row.stream_id).rounds[0].tables] == paired
    types = [e.type for e in streams.read(row.stream_id)]
    assert types[-2:] == ["round.edited", undo.UNDONE], "the swap is kept in the log, revoked"
    screenshot(page, "console-undone-390")
    made.close()
