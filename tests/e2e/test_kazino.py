"""Kazino in a real browser: a whole game by preview and confirm, on a desktop and on a phone, and a
spectator who sees every move live but never a card of either hand."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import TimeoutError as PageTimeout

from .conftest import WAIT, actions_sent, new_table, screenshot, sign_in, what_the_page_shows

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 100  # a game is 24 moves of ours: a bound on the loop, not on the machine's speed


def start_table(page, match: str = "single") -> str:
    """Create a table through the form: me against the easy computer. Returns the table's path."""
    return new_table(page, "kazino", ready=".kz[data-seq]", match=match)


COUNT_RESIZES = "window.__resizes = 0; addEventListener('resize', () => { window.__resizes += 1; });"
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
# The page has stopped moving: no scroll position (the page's, the hand's) changed over ten frames. A
# swipe can start a fling, and a tap during a fling only stops it (no click), as on a real phone: a
# person waits for the page to stand still before tapping Confirm, and so does the test.
STILL = """() => new Promise((done) => {
    const where = () => [document.scrollingElement, ...document.querySelectorAll('*')]
        .filter((e) => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth)
        .map((e) => `${e.scrollLeft},${e.scrollTop}`).join(' ');
    let last = where(), same = 0;
    const tick = () => {
        const now = where();
        same = now === last ? same + 1 : 0;
        last = now;
        if (same >= 10) done(); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
})"""


def seq(page) -> int:
    return int(page.get_attribute(".kz", "data-seq"))


def wait_my_turn_or_end(page) -> bool:
    """True when it is my turn, False when the game is over."""
    page.wait_for_function(
        """() => {
            const t = document.querySelector('#turn').textContent;
            return t.includes('The game is over.')
                || document.querySelector('.kz-hand-card:not([aria-disabled=true])') !== null;
        }""",
        timeout=WAIT,
    )
    return page.locator(".kz[data-finished='1']").count() == 0


def hand(page) -> list[str]:
    return page.eval_on_selector_all(".kz-hand [data-card]", "els => els.map(e => e.dataset.card)")


def press(page, selector: str, touch: bool) -> None:
    if touch:
        page.locator(selector).first.tap()
    else:
        page.locator(selector).first.click()


def play_one_move(
    page, turn: int, touch: bool = False, shots: dict | None = None, before_confirm=None
) -> str:
    """Select a card, pick among its moves if asked, check the preview, confirm. Returns the sentence."""
    before, sent = seq(page), actions_sent(page)
    cards = page.locator(".kz-hand-card:not([aria-disabled=true])")
    # Vary the card, and take a capture whenever one is offered, so every kind of move shows up.
    index = turn % cards.count()
    press(page, f".kz-hand-card:not([aria-disabled=true]) >> nth={index}", touch)
    assert seq(page) == before, "a tap on a card must only select it"
    if page.locator("#preview").is_hidden():
        page.wait_for_selector(".kz-options [data-option]")
        options = page.locator(".kz-options [data-kind]")
        kinds = [options.nth(i).get_attribute("data-kind") for i in range(options.count())]
        pick = kinds.index("capture") if "capture" in kinds else turn % len(kinds)
        if shots is not None and "choices" in shots:
            screenshot(page, shots.pop("choices"))
        press(page, f".kz-options [data-kind] >> nth={pick}", touch)
    page.wait_for_selector("#preview:not([hidden])")
    if shots is not None and "preview" in shots and page.locator(".kz-taken, .kz-onto").count():
        screenshot(page, shots.pop("preview"))
    sentence = page.inner_text("#preview-text")
    assert sentence, "the preview says what will be played"
    assert seq(page) == before and actions_sent(page) == sent, "nothing is played before Confirm"
    if before_confirm:
        before_confirm(page, sentence)
    press(page, "#confirm", touch)
    try:
        page.wait_for_function(f"Number(document.querySelector('.kz').dataset.seq) > {before}", timeout=WAIT)
    except PageTimeout:
        raise AssertionError(f"the move was not played: {what_the_page_shows(page)}") from None
    return sentence


def play_to_the_end(page, touch: bool = False, each_move=None, shots: dict | None = None) -> int:
    moves = 0
    turns = 0
    while wait_my_turn_or_end(page):
        turns += 1
        assert turns <= MAX_TURNS, "the game took too long"
        play_one_move(page, moves, touch, shots)
        moves += 1
        if each_move:
            each_move(moves)
    return moves


def test_a_whole_single_game_against_the_computer_by_preview_and_confirm(page):
    start_table(page)
    assert page.locator(".kz-hand [data-card]").count() == 4
    assert page.get_attribute(".kz-deck", "data-deck") == "40"
    shots = {"choices": "kazino-choices", "preview": "kazino-preview"}
    moves = 0
    turns = 0
    while wait_my_turn_or_end(page):
        turns += 1
        assert turns <= MAX_TURNS, "the game took too long"
        play_one_move(page, moves, shots=shots)
        moves += 1
        if moves == 6:
            screenshot(page, "kazino-table")
    assert moves == 24, "the human seat plays its 24 cards"
    page.wait_for_function("document.querySelector('#turn').textContent.includes('The game is over.')")
    assert page.locator(".kz-result").is_visible()
    assert page.locator("#log-list li").count() >= 40
    screenshot(page, "kazino-finished")
    page.click("#show-scores")
    rows = page.locator("#score-table tr")
    assert rows.count() >= 3  # head, the game, the total
    screenshot(page, "kazino-score-sheet")
    page.keyboard.press("Escape")
    page.click("#show-rules")
    page.wait_for_selector("#kazino-rules")
    assert "Tripe" in page.inner_text("#rules-body")


def test_a_phone_held_upright_plays_a_whole_game_by_touch(phone):
    start_table(phone)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing sticks out sideways on a phone"
    size = phone.locator(".kz-hand-card").first.bounding_box()
    assert size["width"] >= 44 and size["height"] >= 44, "hand cards are big enough to tap"
    assert wait_my_turn_or_end(phone)
    play_one_move(phone, 0, touch=True, before_confirm=swipe_and_rotate)
    shots = {"choices": "kazino-phone-choices", "preview": "kazino-phone-preview"}
    moves = 1 + play_to_the_end(phone, touch=True, shots=shots)
    assert moves == 24
    phone.wait_for_function("document.querySelector('#turn').textContent.includes('The game is over.')")
    screenshot(phone, "kazino-phone")


def swipe_and_rotate(page, sentence: str) -> None:
    """A swipe across the cards and turning the phone neither play nor lose the preview."""
    before, sent = seq(page), actions_sent(page)
    card = page.locator(".kz-hand-card").first.bounding_box()
    x, y = card["x"] + card["width"] / 2, card["y"] + card["height"] / 2
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        point = {"x": x - 12 * step, "y": y - 25 * step}
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()
    page.evaluate(STILL)
    page.evaluate(COUNT_RESIZES)
    for width, height in ((844, 390), (390, 844)):
        resizes = page.evaluate("window.__resizes")
        page.set_viewport_size({"width": width, "height": height})
        # The page has laid itself out again once it was told of the resize and drew two frames since.
        page.wait_for_function(f"window.__resizes > {resizes}")
        page.evaluate(TWO_FRAMES)
        assert page.is_visible("#preview") and page.inner_text("#preview-text") == sentence
    page.evaluate(STILL)
    assert seq(page) == before and actions_sent(page) == sent


def test_a_spectator_sees_every_move_live_and_no_hidden_card(browser, server, page):
    path = start_table(page)
    watcher_context = browser.new_context(base_url=server)
    try:
        watcher = watcher_context.new_page()
        frames: list[str] = []
        watcher.on(
            "websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload)))
        )
        watcher.goto(path)
        watcher.wait_for_selector(".kz[data-seat=spectator]")
        assert watcher.locator(".kz-hand").count() == 0, "a spectator has no hand"

        def same_table_as_the_player(moves: int) -> None:
            # Once the computer has answered, the table waits for me: both pages must show that moment.
            wait_my_turn_or_end(page)
            head = seq(page)
            watcher.wait_for_function(
                f"Number(document.querySelector('.kz').dataset.seq) === {head}", timeout=WAIT
            )
            assert piles(watcher) == piles(page)
            assert counts(watcher) == counts(page)
            seen = log(watcher)
            assert len(seen) >= moves
            assert seen == log(page)[: len(seen)], "the same moves, in the same words"
            if moves == 8:
                screenshot(watcher, "kazino-spectator-live")
            html = watcher.content()
            for card in hand(page):
                assert f'data-card="{card}"' not in html
                assert label(card) not in html, f"{card} is in my hand and shows on the spectator's page"

        moves = play_to_the_end(page, each_move=same_table_as_the_player)
        assert moves == 24
        watcher.wait_for_function("document.querySelector('#turn').textContent.includes('The game is over.')")
        assert watcher.locator(".kz-result").is_visible()
        screenshot(watcher, "kazino-spectator")
        # Every picture the spectator was sent is the public one.
        views = [json.loads(f) for f in frames if f.startswith("{")]
        assert views
        for message in views:
            if "view" in message:
                assert message["seat"] is None
                assert message["view"]["my_cards"] is None
                assert message["legal_actions"] == []
    finally:
        watcher_context.close()


def test_a_signed_in_players_kazino_table_is_rated_without_help_or_pause(page):
    """Kazino's ranking counts online games: the form starts on rated, the table says so, offers no
    hint or takeback, and reading the score sheet does not stop the computer (issue #18)."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("rated-ana", password="pw-rated-ana-1")
    sign_in(page, "rated-ana", "pw-rated-ana-1")
    page.goto("/new/kazino/")
    assert page.is_checked("input[name=kind][value=rated]")
    page.select_option("select[name=match]", "single")
    page.select_option("select[name=seat1]", "bot:greedy")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector(".kz[data-seq]")
    assert page.inner_text("#kind") == "Rated" and page.get_attribute("#kind", "data-kind") == "rated"
    for tool in ("hint", "undo", "redo", "restart", "new-game"):
        assert page.locator(f"#{tool}").count() == 0, f"no {tool} at a rated table"
    assert wait_my_turn_or_end(page)
    # My card goes in while I read the score sheet (the page behind the sheet is inert: it is sent
    # through the table's connection, as Confirm sends it); the computer answers all the same.
    page.click("#show-scores")
    assert page.locator("#score-dialog[open]").count() == 1
    mine = page.evaluate("window.tableClient.snap.seq")
    page.evaluate(
        """() => {
            const c = window.tableClient.connection;
            c.command("action", {action: c.snap.legal_actions[0]});
        }"""
    )
    page.wait_for_function(
        f"window.tableClient.snap.seq > {mine} && window.tableClient.snap.to_act.includes(0)",
        timeout=WAIT,
    )
    moves = page.eval_on_selector_all("#log-list li", "els => els.map(e => e.textContent)")
    assert not any("paused" in line for line in moves), moves
    assert page.evaluate("window.tableClient.snap.paused") is False
    assert page.locator("#score-dialog[open]").count() == 1
    screenshot(page, "kazino-rated")


SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def label(card: str) -> str:
    return card[:-1] + SUITS[card[-1]]


def piles(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        ".kz-pile[data-pile]",
        "els => els.map(e => [e.dataset.kind, e.dataset.value, e.dataset.owner || '', "
        "...[...e.querySelectorAll('[data-card]')].map(c => c.dataset.card)])",
    )


def counts(page) -> list[str]:
    return page.eval_on_selector_all(".kz-captured", "els => els.map(e => e.dataset.captured)") + [
        page.get_attribute(".kz-deck", "data-deck")
    ]


def log(page) -> list[str]:
    """The move log, with the "(you)" the player's own page adds to its seat's name taken out."""
    lines = page.eval_on_selector_all("#log-list li", "els => els.map(e => e.textContent)")
    return [line.replace(" (you)", "") for line in lines]
