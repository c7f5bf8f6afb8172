"""Pitch in a real browser: a whole game against the computer through preview and confirm (pitching
at 4 included), a hint that only previews, and the computer players pausing while the score sheet is
open."""

from __future__ import annotations

import pytest

from games import engines
from games.computers import autoplay
from games.eventlog import store

from .conftest import WAIT, actions_sent, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 400  # turns of ours in a game to 7: a bound on the loop, not on the machine's speed

MY_TURN_OR_OVER = """() => {
  const turn = document.querySelector('#turn');
  return turn.classList.contains('mine') || turn.textContent.includes('The game is over.');
}"""


def start_table(page, players: int = 2, bots: str = "bot:greedy", partnerships: bool = False) -> str:
    """Create a table through the form: me in seat 1, computers elsewhere, to 7. Returns its path."""
    page.goto("/new/pitch/")
    page.select_option("#players", str(players))
    page.select_option("select[name=target]", "7")
    if partnerships:
        page.check("input[name=partnerships]")
    page.select_option("select[name=seat0]", "me")
    for seat in range(1, players):
        page.select_option(f"select[name=seat{seat}]", bots)
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#status[data-status=open]")
    page.wait_for_selector(".pt[data-seq]")
    return page.url


def game_of(page) -> int:
    """The table's game id, from the page's address (/tables/ID/)."""
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def seq(page) -> int:
    return int(page.get_attribute(".pt", "data-seq"))


def phase(page) -> str:
    return page.get_attribute(".pt", "data-phase")


def my_turn(page) -> bool:
    """Wait until it is my turn (True) or the game is over (False)."""
    page.wait_for_function(MY_TURN_OR_OVER, timeout=WAIT)
    return page.locator(".pt[data-finished='1']").count() == 0


def press(page, selector: str, touch: bool = False) -> None:
    target = page.locator(selector).first
    if touch:
        target.tap()
    else:
        target.click()


def confirm(page, sent: int, touch: bool = False) -> None:
    """The preview is up and nothing has been played (``sent``: the actions the page had sent before
    the move was chosen); confirm and wait for the move to land."""
    page.wait_for_selector("#preview:not([hidden])")
    before = seq(page)
    assert actions_sent(page) == sent, "nothing is played before Confirm"
    press(page, "#confirm", touch)
    page.wait_for_function(f"Number(document.querySelector('.pt').dataset.seq) > {before}", timeout=WAIT)


def bid(page, pitch_first: bool, touch: bool = False, shot: str | None = None) -> str:
    """My one bid: pitch a card at 4 (through the "bid 4" button), or the cheapest bid allowed."""
    before, sent = seq(page), actions_sent(page)
    if pitch_first:
        press(page, "[data-bid='4']", touch)
        assert page.locator("#preview").is_hidden(), "choosing to pitch only asks for the card"
        assert page.locator(".pt-hand.pt-pitching").count() == 1
        press(page, ".pt-hand-card[data-action=pitch]", touch)
        sentence = page.inner_text("#preview-text")
        assert sentence.startswith("Bid 4 by pitching "), sentence
        assert "will be trump" in sentence
        if shot:
            screenshot(page, shot)
    else:
        for choice in ("0", "1", "2", "3"):
            if page.locator(f"[data-bid='{choice}']:not([disabled])").count():
                press(page, f"[data-bid='{choice}']", touch)
                break
        sentence = page.inner_text("#preview-text")
        assert sentence in {"Pass", "Bid 1", "Bid 2", "Bid 3"} or sentence.endswith("steal the bid")
    assert seq(page) == before, "a tap on a bid only selects it"
    confirm(page, sent, touch)
    return sentence


def play_card(page, touch: bool = False) -> str:
    before, sent = seq(page), actions_sent(page)
    press(page, ".pt-hand-card:not([aria-disabled=true])", touch)
    sentence = page.inner_text("#preview-text")
    assert sentence.startswith("Play "), sentence
    assert seq(page) == before, "a tap on a card only selects it"
    confirm(page, sent, touch)
    return sentence


def test_a_whole_game_against_the_computer_by_preview_and_confirm(page):
    start_table(page, players=2)
    assert page.locator(".pt-hand [data-card]").count() == 6
    turns = 0
    moves = bids = 0
    pitched = shot = False
    shots = {"bidding": False}
    while my_turn(page):
        turns += 1
        assert turns <= MAX_TURNS, "the game took too long"
        if phase(page) == "bidding":
            if pitched and not shots["bidding"] and page.locator(".pt-last-hand").count():
                screenshot(page, "pitch-bidding")
                shots["bidding"] = True
            sentence = bid(page, pitch_first=not pitched, shot="pitch-pitching")
            pitched = pitched or sentence.startswith("Bid 4")
            bids += 1
        else:
            if not shot and page.locator(".pt-trick [data-played-by]").count():
                screenshot(page, "pitch-table")
                shot = True
            play_card(page)
        moves += 1
    assert pitched, "the human pitched a card at 4 once"
    assert bids >= 1 and moves > 6
    page.wait_for_function("document.querySelector('#turn').textContent.includes('The game is over.')")
    assert page.locator(".pt-result").is_visible()
    assert page.locator("#log-list li").count() >= min(moves, 50)  # the log shows the last 50 moves
    screenshot(page, "pitch-finished")
    page.click("#show-scores")
    assert page.locator("#score-table tr").count() >= 3  # the head, a hand, the final scores
    screenshot(page, "pitch-score-sheet")
    page.keyboard.press("Escape")
    page.click("#show-rules")
    page.wait_for_selector("#rules-body #pitch-rules")
    assert "Pitching at 4." in page.inner_text("#rules-body")
    page.keyboard.press("Escape")


def test_a_hint_previews_the_strong_computers_choice_and_plays_nothing_until_confirmed(phone):
    start_table(phone, players=3)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, "nothing sticks out sideways"
    assert my_turn(phone)
    size = phone.locator(".pt-hand-card").first.bounding_box()
    assert size["width"] >= 44 and size["height"] >= 44, "cards are big enough to tap"
    before, sent = phone.evaluate("window.tableClient.snap.seq"), actions_sent(phone)
    phone.locator("#hint").tap()
    phone.wait_for_selector("#preview:not([hidden])")
    sentence = phone.inner_text("#preview-text")
    assert sentence.startswith("Hint: ") and len(sentence) > len("Hint: ")
    screenshot(phone, "pitch-phone-hint")
    # The hint is answered before its preview shows: a move it made would be stored by now.
    assert store.head(game_of(phone))[0] == before and actions_sent(phone) == sent, "a hint plays nothing"
    assert phone.locator("#preview").is_visible(), "the preview stays up"
    phone.locator("#confirm").tap()
    phone.wait_for_function(f"window.tableClient.snap.seq > {before}")
    # The phone plays on by touch, cards and bids, until it has bid again (or the game ends).
    turns = 0
    cancelled = False
    while not cancelled and my_turn(phone):
        turns += 1
        assert turns <= MAX_TURNS, "the phone never got to bid again"
        if phase(phone) == "bidding":
            # A tap on a card while bidding selects "bid 4 by pitching it"; Cancel forgets it.
            before = seq(phone)
            phone.locator(".pt-hand-card[data-action=pitch]").first.tap()
            assert phone.inner_text("#preview-text").startswith("Bid 4 by pitching ")
            phone.locator("#cancel").tap()
            assert phone.locator("#preview").is_hidden()
            assert phone.locator(".pt-hand-card.pt-selected").count() == 0
            assert seq(phone) == before
            bid(phone, pitch_first=False, touch=True)
            cancelled = True
        else:
            if phone.locator(".pt-trick[data-trick=current] [data-played-by]").count():
                screenshot(phone, "pitch-phone")
            play_card(phone, touch=True)


def test_opening_the_score_sheet_pauses_the_computer_players(page):
    start_table(page, players=4, partnerships=True)
    assert page.locator(".pt-teams [data-team]").count() == 2, "partnerships are shown as teams"
    # Play on until my next card is not the last of its trick: after it, a computer is to act.
    while True:
        assert my_turn(page)
        if (
            phase(page) == "play"
            and page.locator(".pt-trick[data-trick=current] [data-played-by]").count() < 3
        ):
            break
        if phase(page) == "bidding":
            bid(page, pitch_first=False)
        else:
            play_card(page)
    screenshot(page, "pitch-teams")
    # Select my card (the preview is up), then open the score sheet before confirming it.
    press(page, ".pt-hand-card:not([aria-disabled=true])")
    page.wait_for_selector("#preview:not([hidden])")
    page.click("#show-scores")
    page.wait_for_function("window.tableClient.snap.paused === true")
    assert page.locator("#score-dialog[open]").count() == 1
    # My card goes in while I read (the page behind the modal sheet is inert, so it is sent through
    # the table's connection, exactly as Confirm sends it): now the computers are to act, and wait.
    mine = page.evaluate("window.tableClient.snap.seq")
    card = page.get_attribute(".pt-hand-card.pt-selected", "data-card")
    page.evaluate(
        """(card) => {
            const c = window.tableClient.connection;
            const action = c.snap.legal_actions.find((a) => a.card === card);
            c.command("action", {action});
        }""",
        card,
    )
    page.wait_for_function(f"window.tableClient.snap.seq > {mine}")
    paused_at = page.evaluate("window.tableClient.snap.seq")
    to_act = page.evaluate("window.tableClient.snap.to_act")
    assert to_act and 0 not in to_act, "the computer players are to act"
    # The computer's turn, played now as the worker would play it, plays nothing while paused.
    for seat in to_act:
        assert autoplay.play_bot_turn(game_of(page), paused_at, seat) == "idle"
    assert store.head(game_of(page))[0] == paused_at, "no computer move while the sheet is open"
    assert page.evaluate("window.tableClient.snap.seq") == paused_at
    assert page.evaluate("window.tableClient.snap.paused") is True
    page.keyboard.press("Escape")
    page.wait_for_function("window.tableClient.snap.paused === false")
    # The resume is one event; the computers' moves come after it.
    page.wait_for_function(f"window.tableClient.snap.seq > {paused_at + 1}", timeout=WAIT)
    assert page.locator("#score-dialog[open]").count() == 0


SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def test_a_spectator_sees_the_moves_live_and_never_a_card_of_my_hand(browser, server, page):
    path = start_table(page, players=2)
    watcher_context = browser.new_context(base_url=server)
    try:
        watcher = watcher_context.new_page()
        watcher.goto(path)
        watcher.wait_for_selector(".pt[data-seat=spectator]")
        assert watcher.locator(".pt-hand").count() == 0, "a spectator has no hand"
        for _ in range(4):
            assert my_turn(page)
            head = seq(page)
            watcher.wait_for_function(f"Number(document.querySelector('.pt').dataset.seq) === {head}")
            html = watcher.content()
            for card in page.eval_on_selector_all(
                ".pt-hand [data-card]", "els => els.map(e => e.dataset.card)"
            ):
                assert f'data-card="{card}"' not in html
                assert card[:-1] + SUITS[card[-1]] not in html, (
                    f"{card} is in my hand and shows to a spectator"
                )
            if phase(page) == "bidding":
                bid(page, pitch_first=False)
            else:
                play_card(page)
        screenshot(watcher, "pitch-spectator")
    finally:
        watcher_context.close()


def test_the_end_panel_says_why_the_pitcher_on_their_own_bid_won(browser, server):
    """#33: a player on 13 lost to one on 12 and the end panel only listed scores. The panel now says
    that only a pitcher reaching the target on their own bid wins, and names them."""
    from games.commands.create import SeatSpec, create_game
    from games.models import Game
    from tests.replay.play import play

    for seed in range(1, 9):
        config = engines.compose("pitch", {"target": 7}, 2)
        seats = [SeatSpec(f"Bot {n}", bot_level="greedy") for n in range(2)]
        game: Game = create_game("pitch", config, seats, seed=seed)
        table = play(game)
        last = table.state.last_hand
        if last and last["scores"][last["pitcher"]] >= 7:
            break
    else:
        pytest.fail("no seed ended by the target")
    context = browser.new_context(base_url=server)
    try:
        watcher = context.new_page()
        watcher.goto(f"/tables/{game.pk}/")
        watcher.wait_for_selector(".pt-result .pt-why")
        why = watcher.inner_text(".pt-result .pt-why")
        assert "on their own bid wins" in why and "7" in why
        assert f"Computer {last['pitcher'] + 1} " in why, why
    finally:
        context.close()
