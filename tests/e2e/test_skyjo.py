"""Skyjo in a real browser: a whole game against the computer through preview and confirm, and undo
taking back the computer's reply."""

from __future__ import annotations

import pytest

from .conftest import new_table, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# (At a pass-and-play table the curtain may come down instead: then the next player is to act.)
MY_TURN_OR_OVER = """() => {
  const turn = document.querySelector('#turn');
  if (!document.querySelector('#curtain').hidden) return true;
  return turn.classList.contains('mine') || turn.textContent.includes('The game is over.');
}"""

# What the table shows of my grid and the discard pile, to compare positions.
POSITION = """() => ({
  grid: [...document.querySelectorAll('.sk-mine [data-cell]')].map(c => c.dataset.status + ':' + (c.dataset.card ?? '')),
  others: [...document.querySelectorAll('.sk-other [data-cell]')].map(c => c.dataset.status + ':' + (c.dataset.card ?? '')),
  discard: [...document.querySelectorAll('.sk-history-list li')].map(li => li.dataset.card),
})"""


def start_table(page, target: int | None = None) -> None:
    fill = {"target": str(target)} if target is not None else None
    new_table(page, "skyjo", ready=".sk-table", fill=fill, players="2")


def shot(page, name: str) -> None:
    """A screenshot once the cards have stopped moving."""
    page.wait_for_function(
        "document.getAnimations().every(a => a.animationName !== 'sk-arrive' || a.playState !== 'running')"
    )
    screenshot(page, name)


def seq(page) -> int:
    return int(page.get_attribute(".sk-table", "data-seq"))


def confirm(page) -> None:
    """The preview is up; confirm it and wait until the move is on the table and it is my turn again."""
    page.wait_for_selector("#preview:not([hidden])")
    before = seq(page)
    page.click("#confirm")
    page.wait_for_function(
        f"!document.querySelector('#curtain').hidden"
        f" || Number(document.querySelector('.sk-table').dataset.seq) > {before}"
    )
    page.wait_for_function(MY_TURN_OR_OVER)


def open_cell(page, status: str | None = None):
    """One of my cells that may be chosen now (optionally a face-down one)."""
    cells = page.locator(".sk-mine button.sk-target[data-cell]")
    if status:
        cells = page.locator(f".sk-mine button.sk-target[data-cell][data-status={status}]")
    return cells.first


def play_opening(page) -> None:
    for _ in range(2):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator(".sk-table[data-phase=opening] .sk-mine button.sk-target").count() == 0:
            return
        open_cell(page, "hidden").click()
        assert "Turn face up" in page.text_content("#preview-text")
        confirm(page)


def play_turn(page, turn: int) -> None:
    """One whole turn, varied so that every kind of move goes through preview and confirm."""
    kind = turn % 4
    if kind == 0:  # A: the discard onto a cell
        page.click("[data-action=take-discard]")
        assert page.locator("[data-pile=discard].sk-selected").count() == 1
        assert page.locator("#preview").is_hidden()  # selecting is not playing
        open_cell(page).click()
        assert "from the discard pile" in page.text_content("#preview-text")
        confirm(page)
    elif kind in (1, 2):  # B: draw, then place it (B1) or throw it away and turn a card (B2)
        page.click("[data-action=draw]")
        assert "Draw" in page.text_content("#preview-text")
        confirm(page)
        assert page.locator("[data-drawn]").get_attribute("data-drawn") != "hidden"
        if kind == 1:
            open_cell(page).click()
            assert "Place the drawn" in page.text_content("#preview-text")
        else:
            page.click("[data-action=throw]")
            open_cell(page, "hidden").click()
            assert "Throw the drawn" in page.text_content("#preview-text")
        confirm(page)
    else:  # C: just turn a card
        open_cell(page, "hidden").click()
        assert "Just turn" in page.text_content("#preview-text")
        confirm(page)


def test_a_human_plays_a_whole_game_against_the_computer(page):
    start_table(page, target=10)
    turns = 0
    while "The game is over." not in page.text_content("#turn"):
        page.wait_for_function(MY_TURN_OR_OVER)
        if "The game is over." in page.text_content("#turn"):
            break
        if page.get_attribute(".sk-table", "data-phase") == "opening":
            play_opening(page)
            continue
        play_turn(page, turns)
        turns += 1
        if turns == 3:
            shot(page, "skyjo-table")
        assert turns < 200, "the game does not end"
    assert "The game is over." in page.text_content("#turn")
    assert page.locator(".sk-results h2").count() == 1
    assert page.locator("#log-list li").count() > 0
    shot(page, "skyjo-finished")
    page.click("#show-scores")
    assert page.locator("#score-table tr").count() >= 3
    shot(page, "skyjo-score-sheet")
    page.click("#score-dialog button")
    page.click("#show-rules")
    page.wait_for_selector("#rules-body #skyjo-rules h2")
    assert "closer" in page.text_content("#rules-body")
    shot(page, "skyjo-rules")


def test_undo_takes_back_the_computers_reply_on_a_phone(phone):
    page = phone
    start_table(page)
    play_opening(page)
    page.wait_for_function("document.querySelector('.sk-table').dataset.phase === 'play'")
    page.wait_for_function(MY_TURN_OR_OVER)
    page.locator(".sk-history summary").click()  # the discard pile, browsable
    assert page.locator(".sk-history-list li").count() >= 1
    before = page.evaluate(POSITION)
    start = seq(page)

    # Just turn a card: one move of mine, then the computer replies and it is my turn again.
    open_cell(page, "hidden").tap()
    shot(page, "skyjo-phone-preview")
    page.tap("#confirm")
    page.wait_for_function(
        f"""() => {{
          return Number(document.querySelector('.sk-table').dataset.seq) > {start} + 1
            && document.querySelector('#turn').classList.contains('mine');
        }}"""
    )
    after = page.evaluate(POSITION)
    assert after["grid"] != before["grid"]
    assert after["others"] != before["others"] or after["discard"] != before["discard"]

    page.wait_for_selector("#undo:not([disabled])")
    undone_at = seq(page)
    page.tap("#undo")
    page.wait_for_function(f"Number(document.querySelector('.sk-table').dataset.seq) > {undone_at}")
    page.wait_for_function(MY_TURN_OR_OVER)
    assert page.evaluate(POSITION) == before  # my move and the computer's reply are both gone

    page.wait_for_selector("#redo:not([disabled])")
    redone_at = seq(page)
    page.tap("#redo")
    page.wait_for_function(f"Number(document.querySelector('.sk-table').dataset.seq) > {redone_at}")
    page.wait_for_function(MY_TURN_OR_OVER)
    assert page.evaluate(POSITION) == after
    shot(page, "skyjo-after-redo")


def test_a_spectator_on_a_phone_sees_the_moves_live_but_no_hidden_card(page, browser):
    page.goto("/new/skyjo/")
    page.select_option("#players", "4")
    page.select_option("select[name=seat0]", "me")
    for n, level in ((1, "bot:greedy"), (2, "bot:random"), (3, "bot:greedy")):
        page.select_option(f"select[name=seat{n}]", level)
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector(".sk-table")

    watcher = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    try:
        spectator = watcher.new_page()
        spectator.goto(page.url)
        spectator.wait_for_selector(".sk-table .sk-spectating")
        assert spectator.locator(".sk-seat").count() == 4
        assert spectator.locator("button[data-cell]").count() == 0  # spectators watch, they cannot play

        play_opening(page)
        page.wait_for_function("document.querySelector('.sk-table').dataset.phase === 'play'")
        page.wait_for_function(MY_TURN_OR_OVER)
        page.click("[data-action=draw]")
        confirm(page)
        drawn = page.get_attribute("[data-drawn]", "data-drawn")
        assert drawn not in (None, "hidden")  # the drawer sees the card
        spectator.wait_for_function(
            f"Number(document.querySelector('.sk-table').dataset.seq) === {seq(page)}"
        )
        assert spectator.get_attribute("[data-drawn]", "data-drawn") == "hidden"  # nobody else does
        hidden = spectator.locator("[data-cell][data-status=hidden]")
        assert hidden.count() > 0
        assert spectator.locator("[data-cell][data-status=hidden][data-card]").count() == 0
        shot(page, "skyjo-four-seats")
        shot(spectator, "skyjo-spectator-phone")
    finally:
        watcher.close()


def test_pass_and_play_hands_the_device_over_behind_a_curtain(page):
    new_table(page, "skyjo", ("me", "local"), ready=".sk-table", players="2")
    play_opening(page)
    # The first player is done: the board leaves the page until the next one asks for it.
    page.wait_for_selector("#curtain:not([hidden])")
    assert page.locator("#board .sk-table").count() == 0
    shot(page, "skyjo-pass-and-play-curtain")
    page.click("#curtain-show")
    page.wait_for_selector(".sk-table")
    play_opening(page)
    for _ in range(2):  # whoever is to play draws: the card is shown to them, then the device goes round
        if page.locator("#curtain:not([hidden])").count():
            page.click("#curtain-show")
        page.wait_for_selector(".sk-table[data-phase=play]")
        page.wait_for_function(MY_TURN_OR_OVER)
        page.click("[data-action=draw]")
        confirm(page)
        assert page.get_attribute("[data-drawn]", "data-drawn") != "hidden"
        open_cell(page).click()
        page.wait_for_selector("#preview:not([hidden])")
        page.click("#confirm")
        page.wait_for_selector("#curtain:not([hidden])")
