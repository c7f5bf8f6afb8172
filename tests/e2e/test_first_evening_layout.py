"""What a player meets around the table (#23.5): a favicon on every page, a move log whose numbers fit
and count up, badges that keep to one line, the pass-and-play curtain, and Skyjo's own grid within
the first screen of a laptop during the opening. Screenshots at 1280×800 and 390×844."""

from __future__ import annotations

import pytest

from .conftest import new_table, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def new_context(browser, server, size, language="en"):  # type: ignore[no-untyped-def]
    context = browser.new_context(
        viewport=size, base_url=server, extra_http_headers={"Accept-Language": language}
    )
    return context, context.new_page()


# A numbered list's numbers: the room its padding leaves them, and the width "120." needs in its font.
NUMBERING = """(selector) => {
    const list = document.querySelector(selector);
    const probe = Object.assign(document.createElement('span'), {textContent: '120.'});
    probe.style.font = getComputedStyle(list).font;
    document.body.append(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    return {reversed: list.reversed, numbers: [...list.children].map((item) => item.value),
            room: parseFloat(getComputedStyle(list).paddingLeft), needed};
}"""


def skyjo_table(page, players: int, seats: list[str]) -> None:  # type: ignore[no-untyped-def]
    new_table(page, "skyjo", tuple(seats), ready=".sk-table", players=str(players))


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_skyjo_own_grid_is_on_the_first_screen_during_the_opening(browser, server, size, language):
    context, page = new_context(browser, server, size, language)
    try:
        skyjo_table(page, 4, ["me", "bot:greedy", "bot:greedy", "bot:greedy"])
        page.wait_for_selector(".sk-mine [data-cell]")
        screenshot(page, f"skyjo-opening-{language}-{size['width']}")
        # Read in one step inside the page: the computers' opening moves redraw the board, and a
        # locator's box can fall between the old grid and the new one.
        box = page.evaluate(
            "() => { const r = document.querySelector('.sk-mine').getBoundingClientRect();"
            " return {y: r.y + window.scrollY, height: r.height}; }"
        )
        assert box["height"] > 0, box
        if size is LAPTOP:
            assert box["y"] + box["height"] <= size["height"], box
    finally:
        context.close()


def test_no_page_asks_for_a_missing_file(browser, server):
    """Every page asked for /favicon.ico and got a 404: the pages name an icon, and the old address
    leads to it."""
    context, page = new_context(browser, server, LAPTOP)
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    try:
        for url in ("/", "/new/", "/rules/skyjo/", "/tournaments/"):
            page.goto(url)
            page.wait_for_load_state("networkidle")
            assert page.locator("link[rel=icon]").count() == 1, url
        icon = page.request.get("/favicon.ico")
        assert icon.ok and "svg" in icon.headers["content-type"]
        assert missing == []
    finally:
        context.close()


def test_the_move_log_counts_up_and_has_room_for_three_digits(browser, server):
    """The move log is newest first: its numbers count the moves (the newest has the highest), and a
    number of three digits fits in the margin (it was clipped to "l0.")."""
    context, page = new_context(browser, server, LAPTOP)
    try:
        skyjo_table(page, 2, ["me", "bot:greedy"])
        page.locator(".sk-mine button.sk-cell.sk-back").first.click()
        page.click("#confirm")
        page.wait_for_function("document.querySelectorAll('#log-list li').length >= 1")
        numbering = page.evaluate(NUMBERING, "#log-list")
        # The numbers shown, newest first, count down. Each item carries its move's number (the list's
        # start attribute is not set: it read 1 once a second move had come, and failed under load).
        numbers = numbering["numbers"]
        assert numbering["reversed"] and numbers == sorted(set(numbers), reverse=True) and numbers[-1] >= 1, (
            numbers
        )
        assert numbering["room"] >= numbering["needed"] + 4, numbering
    finally:
        context.close()


@pytest.mark.parametrize(
    ("engine", "badge"), [("dominoes", ".dom-to-play"), ("skyjo", ".sk-badge.sk-acting")]
)
def test_the_to_play_badge_keeps_to_one_line_for_a_four_player_spectator(browser, server, engine, badge):
    from games.commands.create import SeatSpec, create_game
    from tests.replay.play import new_game, play

    if engine == "dominoes":
        seats = [SeatSpec.computer(n + 1, "greedy") for n in range(4)]
        game = create_game("dominoes", {"players": 4, "variant": "all_fives"}, seats)
    else:
        game = new_game("skyjo", 4)
        play(game, moves=9)  # the openings, and one turn: someone is "to play"
    for size in (LAPTOP, PHONE):
        context, page = new_context(browser, server, size)
        try:
            page.goto(f"/tables/{game.pk}/")
            page.wait_for_selector(badge)
            screenshot(page, f"{engine}-spectator-four-{size['width']}")
            found = page.evaluate(
                """(selector) => [...document.querySelectorAll(selector)].map(b => ({
                    text: b.textContent, lines: b.getClientRects().length, height: b.getBoundingClientRect().height,
                    font: parseFloat(getComputedStyle(b).fontSize),
                    inside: b.getBoundingClientRect().right <= b.closest('section, div').getBoundingClientRect().right + 0.5,
                }))""",
                badge,
            )
            assert found and all(
                b["lines"] == 1 and b["height"] < 2.2 * b["font"] and b["inside"] for b in found
            ), (
                size,
                found,
            )
        finally:
            context.close()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_pass_and_play_curtain_keeps_the_scores_and_names_both_players_alike(browser, server, size):
    context, page = new_context(browser, server, size)
    try:
        skyjo_table(page, 2, ["me", "local"])
        for _ in range(2):  # the first player's opening: two cards face up
            page.locator(".sk-mine button.sk-cell.sk-back").first.click()
            page.wait_for_selector("#preview:not([hidden])")
            page.click("#confirm")
            page.wait_for_function("document.querySelector('#preview').hidden")
        page.wait_for_selector("#curtain:not([hidden])")
        screenshot(page, f"pass-and-play-curtain-{size['width']}")
        assert page.locator("#board").is_hidden()  # no bare felt above the curtain
        assert page.locator("#scores li").all_inner_texts() == ["Player 1: 0", "Player 2: 0"]
        assert "Pass the device to Player 2." in page.locator("#curtain-text").inner_text()
        page.click("#curtain-show")
        page.wait_for_selector("#board .sk-table")
        assert page.locator("#board").is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_replay_move_list_has_room_for_its_numbers(browser, server, size):
    """The replay's move list clipped two-digit numbers ("l0.")."""
    from tests.replay.play import new_game, play

    game = new_game("dominoes", 2, options={"variant": "block", "target": 10})
    play(game)
    context, page = new_context(browser, server, size)
    try:
        page.goto(f"/games/{game.pk}/replay/")
        page.wait_for_function(
            "document.querySelectorAll('#moments li').length >= 2"
        )  # the probe measures "120."
        assert "undefined" not in page.locator("#replay").inner_text()
        screenshot(page, f"replay-moves-{size['width']}")
        numbering = page.evaluate(NUMBERING, "#moments")
        assert numbering["room"] >= numbering["needed"] + 4, numbering
    finally:
        context.close()
