"""A whole hand of each game with the keyboard alone (Tab, Shift+Tab, Enter, Escape), against the
computer: the skip link leads to the hand, every selection and every move leaves focus on a card or
tile of the hand or on Confirm (never on the page), another seat's move is said in the live region,
and axe-core finds nothing at the moments a hand goes through (a trick on the table, a card with
several moves, the end of the hand). What is guaranteed: docs/accessibility.md.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PageTimeout

from .axe import report, run_axe
from .conftest import WAIT, new_table, screenshot, server_log, what_the_page_shows

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 200  # turns of ours in a hand: a bound on the loop, not on the machine's speed

WHERE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body || a === document.documentElement) return "body";
  if (a.id) return "#" + a.id;
  return a.dataset.key ? "key:" + a.dataset.key : a.tagName.toLowerCase();
}"""
IN_HAND = "() => !!document.activeElement.dataset.key && !!document.activeElement.closest('[data-hand-area]')"
PLAYABLE = """(status) => {
  const a = document.activeElement;
  return !!a.dataset.key && !!a.closest('[data-hand-area]') && a.getAttribute('aria-disabled') !== 'true'
    && (!status || a.dataset.status === status);
}"""
ON_CONFIRM_OR_OPTION = (
    "() => document.activeElement.id === 'confirm' || !!document.activeElement.closest('[data-options]')"
)
HAND_IS_EMPTY = "() => !document.querySelector('[data-hand-area] [data-key]')"
SNAP = "() => window.tableClient && window.tableClient.snap"


def where(page: Any) -> str:
    return str(page.evaluate(WHERE))


FOCUS = f"() => ({{place: ({WHERE})(), inHand: ({IN_HAND})(), handEmpty: ({HAND_IS_EMPTY})()}})"


def focus_kept(page: Any, moment: str) -> None:
    """Focus is on a card or tile of the hand, or on Confirm; the board itself only while the hand is
    empty (between two deals); never on the page. Read in one look: the next deal's picture may come
    between two (focus then moves on to its first card), and would pair the old focus with the new hand."""
    seen = page.evaluate(FOCUS)
    place = seen["place"]
    assert place != "body", f"focus fell back to the page {moment}"
    if seen["inHand"] or place == "#confirm":
        return
    assert place == "#board" and seen["handEmpty"], f"focus is on {place} {moment}"


def press(page: Any, key: str) -> None:
    page.keyboard.press(key)
    assert where(page) != "body", f"{key} sent focus to the page"


def tab_until(page: Any, test: str, arg: Any = None, key: str = "Tab", limit: int = 40) -> None:
    for _ in range(limit):
        if page.evaluate(test, arg):
            return
        press(page, key)
    raise AssertionError(f"{key} never reached {test} (focus on {where(page)})")


def to_confirm(page: Any) -> None:
    """Enter on the focused card: focus goes to Confirm, or to the card's first move (Enter takes
    that one, and focus goes to Confirm)."""
    page.keyboard.press("Enter")
    page.wait_for_function(ON_CONFIRM_OR_OPTION)
    if where(page) != "#confirm":
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.id === 'confirm'")


def to_playable(page: Any, status: str | None = None) -> bool:
    """Focus a card or tile of the hand that can be played (with this Skyjo status, if given); False
    when there is none."""
    if page.evaluate(PLAYABLE, status):
        return True
    if not page.evaluate(
        """(status) => [...document.querySelectorAll('[data-hand-area] [data-key]')].some((n) =>
             n.getAttribute('aria-disabled') !== 'true' && (!status || n.dataset.status === status))""",
        status,
    ):
        return False
    if not page.evaluate(IN_HAND):
        tab_until(page, IN_HAND)
    while page.evaluate(IN_HAND):  # back to the start of the hand…
        press(page, "Shift+Tab")
    press(page, "Tab")
    for _ in range(20):  # …then along it
        if page.evaluate(PLAYABLE, status):
            return True
        press(page, "Tab")
        assert page.evaluate(IN_HAND), "Tab left the hand before a card that can be played"
    raise AssertionError("no card of the hand could be reached")


def start(page: Any, game: str, options: dict[str, str]) -> None:
    new_table(page, game, players="2", **options)
    page.wait_for_function("() => !!document.querySelector('#board').firstElementChild")
    # The first Tab reaches the skip link; Enter goes straight to the hand.
    page.keyboard.press("Tab")
    assert where(page) == "#skip-link"
    assert page.inner_text("#skip-link") == "Skip to your hand"
    page.keyboard.press("Enter")
    assert page.evaluate(IN_HAND), f"the skip link led to {where(page)}"


def wait_turn_or(page: Any, ended: str) -> bool:
    """True at my turn, False once the hand is over (``ended``: a test on the table's picture)."""
    page.wait_for_function(
        f"""() => {{ const snap = ({SNAP})(); if (!snap) return false;
            return snap.finished || ({ended})(snap) || (snap.legal_actions || []).length > 0
              && document.querySelector('#turn').classList.contains('mine'); }}""",
        timeout=WAIT,
    )
    return not page.evaluate(f"() => {{ const snap = ({SNAP})(); return snap.finished || ({ended})(snap); }}")


def select_and_confirm(page: Any, first_option: bool = True) -> None:
    """Enter on the focused card (or button): it is previewed, or its choices are offered with focus
    on the first; Enter on a choice previews it; Enter on Confirm plays it."""
    before = page.evaluate(f"() => ({SNAP})().seq")
    page.keyboard.press("Enter")
    page.wait_for_function(ON_CONFIRM_OR_OPTION)
    if where(page) != "#confirm":
        assert first_option, "a choice is offered"
        no_violation(page, "a card's choices")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.id === 'confirm'")
    assert page.is_visible("#preview") and page.inner_text("#preview-text")
    page.keyboard.press("Enter")
    try:
        page.wait_for_function(
            f"() => ({SNAP})().seq > {before} && document.querySelector('#preview').hidden"
            " && document.activeElement.id !== 'confirm'"
        )
    except PageTimeout:
        raise AssertionError(
            f"Confirm did not play the move (seq {before}, focus on {where(page)}): {what_the_page_shows(page)}"
            f"\nthe server's last lines:\n{server_log(page)}"
        ) from None
    focus_kept(page, "after a move")


def no_violation(page: Any, moment: str) -> None:
    results = run_axe(page)
    assert not results["violations"], f"axe at {moment}:\n{report(results['violations'])}"


def play_hand(page: Any, ended: str, move: Any, check_at: set[int]) -> int:
    """Play my moves until ``ended``; axe runs after the moves numbered in ``check_at``."""
    moves = 0
    turns = 0
    while wait_turn_or(page, ended):
        turns += 1
        assert turns <= MAX_TURNS, "the hand took too long"
        focus_kept(page, "at my turn")
        move(page, moves)
        moves += 1
        if moves in check_at:
            no_violation(page, f"move {moves}")
    return moves


def said_aloud(page: Any, name: str) -> None:
    """The other seat's moves come in the live region, in the move log's words."""
    page.wait_for_function("() => document.querySelector('#announce').textContent.length > 0")
    text = page.inner_text("#announce")
    assert text.startswith(name) and text in page.inner_text("#log-list")


def test_a_kazino_deal_with_the_keyboard_alone(page):
    start(page, "kazino", {"match": "single"})
    # A card's name starts with what it shows, then says it in words: "A♠, ace of spades".
    shown, words = page.get_attribute(".kz-hand-card", "aria-label").split(", ")
    assert shown == page.inner_text(".kz-hand-card .kz-corner") and " of " in words

    def move(page: Any, n: int) -> None:
        assert to_playable(page)
        # Escape once: the preview is cancelled and focus comes back to the card.
        if n == 0:
            key = page.evaluate("() => document.activeElement.dataset.key")
            to_confirm(page)
            page.keyboard.press("Escape")
            page.wait_for_function("() => document.querySelector('#preview').hidden")
            assert where(page) in (f"key:{key}", "key:option:0"), (
                "Escape goes back to where the move was chosen"
            )
            if where(page) != f"key:{key}":
                press(page, "Escape")
                tab_until(page, IN_HAND, key="Shift+Tab")
            assert to_playable(page)
        select_and_confirm(page)

    deal = page.evaluate(f"() => ({SNAP})().view.deal")
    moves = play_hand(page, f"(snap) => snap.view.deal > {deal}", move, {1, 3})
    assert moves == 4, "a deal is four cards each"
    said_aloud(page, "Computer 2")
    assert page.get_attribute(".kz-seat[aria-current=true] .kz-to-play", "class"), "the acting seat says so"
    page.wait_for_function("() => document.querySelectorAll('[data-hand-area] [data-key]').length === 4")
    focus_kept(page, "after the new deal")
    assert page.evaluate(IN_HAND), "the new deal's first card has focus"
    no_violation(page, "the next deal")
    screenshot(page, "keyboard-kazino")


def test_a_pitch_hand_with_the_keyboard_alone(page):
    start(page, "pitch", {"target": "7"})
    tricks_read: list[str] = []

    def move(page: Any, n: int) -> None:
        view = page.evaluate(f"() => ({SNAP})().view")
        if view["phase"] == "bidding":
            # The bids sit above the hand: back to the first bid that is not a pitch.
            tab_until(
                page,
                "() => !!document.activeElement.closest('.pt-bids') && !document.activeElement.matches('.pt-bid-pitch')",
                key="Shift+Tab",
            )
        else:
            # The cards on the table, in words: "six of hearts, played by …, winning the trick".
            tricks_read.extend(page.locator(".pt-trick li .sr-only").all_inner_texts())
            assert to_playable(page)
        select_and_confirm(page)

    hand = page.evaluate(f"() => ({SNAP})().view.hand")
    play_hand(page, f"(snap) => snap.view.hand > {hand}", move, {2, 4})
    said_aloud(page, "Computer 2")
    focus_kept(page, "after the hand")
    # The hand's last trick stays on the felt beside the result, its winner said in words.
    tricks_read.extend(page.locator(".pt-trick[data-trick=previous-hand] li .sr-only").all_inner_texts())
    assert tricks_read and all(" of " in t and ", played by " in t for t in tricks_read), tricks_read
    assert any(t.endswith(("winning the trick", "won the trick")) for t in tricks_read), tricks_read
    screenshot(page, "keyboard-pitch")


def test_a_dominoes_round_with_the_keyboard_alone(page):
    start(page, "dominoes", {"variant": "draw"})
    assert page.evaluate(
        "() => [...document.querySelectorAll('.dom-placed[role=img]')].every((t) => t.getAttribute('aria-label'))"
    )

    def move(page: Any, n: int) -> None:
        if to_playable(page):
            select_and_confirm(page)  # Enter on a tile: focus on its first end, Enter, Confirm
            return
        # Nothing fits: draw or pass, the buttons just above the hand.
        while page.evaluate(IN_HAND):
            press(page, "Shift+Tab")
        assert page.evaluate("() => !!document.activeElement.closest('.dom-actions')"), where(page)
        select_and_confirm(page)

    hand = page.evaluate(f"() => ({SNAP})().view.hand")
    play_hand(page, f"(snap) => snap.view.phase !== 'play' || snap.view.hand > {hand}", move, {2, 5})
    said_aloud(page, "Computer 2")
    tiles = page.eval_on_selector_all(
        ".dom-placed[role=img]", "els => els.map((e) => e.getAttribute('aria-label'))"
    )
    assert tiles and all("played by" in t for t in tiles), "every tile of the line is read one by one"
    no_violation(page, "the end of the round")
    screenshot(page, "keyboard-dominoes")


def test_a_skyjo_round_with_the_keyboard_alone(page):
    start(page, "skyjo", {})

    def move(page: Any, n: int) -> None:
        view = page.evaluate(f"() => ({SNAP})().view")
        legal = {a["type"] for a in page.evaluate(f"() => ({SNAP})().legal_actions")}
        if view["phase"] == "opening" or legal <= {"reveal", "turn"}:
            assert to_playable(page, "hidden") or to_playable(page)
            select_and_confirm(page)
            return
        if n % 2 and "draw" in legal:
            # Draw (the draw pile sits above the grid), then throw it away and turn a hidden card.
            tab_until(page, "() => document.activeElement.dataset.key === 'pile:draw'", key="Shift+Tab")
            select_and_confirm(page)
            tab_until(page, "() => document.activeElement.dataset.key === 'pile:discard'", key="Shift+Tab")
            page.keyboard.press("Enter")  # "throw": now a face-down card
            page.wait_for_function("() => document.activeElement.dataset.key === 'pile:discard'")
        else:
            # Take the discard, then put it on a card of the grid.
            tab_until(page, "() => document.activeElement.dataset.key === 'pile:discard'", key="Shift+Tab")
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.activeElement.dataset.key === 'pile:discard'")
        tab_until(page, IN_HAND)
        assert to_playable(page, "hidden") or to_playable(page)
        select_and_confirm(page)

    hand = page.evaluate(f"() => ({SNAP})().view.hand")
    play_hand(page, f"(snap) => snap.view.hand > {hand} || snap.view.phase === 'over'", move, {2, 6})
    said_aloud(page, "Computer 2")
    focus_kept(page, "after the round")
    no_violation(page, "the end of the round")
    screenshot(page, "keyboard-skyjo")


def test_pass_and_play_hands_over_with_the_keyboard(page):
    """Two players on one device: after a move the curtain's button has focus; Enter shows the next
    player's hand with focus on its first card."""
    new_table(page, "kazino", ("me", "local"), match="single")
    page.wait_for_function(
        "() => !!document.querySelector('#board').firstElementChild || !document.querySelector('#curtain').hidden"
    )
    page.keyboard.press("Tab")
    assert where(page) == "#skip-link"
    page.keyboard.press("Enter")
    for turn in range(3):
        if where(page) == "#curtain-show":
            page.keyboard.press("Enter")
            page.wait_for_function(IN_HAND)
        assert to_playable(page), f"turn {turn}"
        before = page.evaluate(f"() => ({SNAP})().seq")
        to_confirm(page)
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => ({SNAP})().seq > {before}")
        page.wait_for_function("() => document.activeElement.id === 'curtain-show'")
        assert page.is_visible("#curtain")
    no_violation(page, "the curtain")


def test_skyjo_focus_moves_on_from_a_card_turned_up_and_a_refused_enter_is_said(page):
    """#33 defect 4: after Enter turned a card, focus stayed on that face-up card (aria-disabled) and
    Enter then did nothing, silently."""
    start(page, "skyjo", {})
    page.wait_for_function(f"() => ({SNAP})() && ({SNAP})().view.phase === 'opening'")
    assert to_playable(page, "hidden")
    turned = page.evaluate("() => document.activeElement.dataset.key")
    select_and_confirm(page)
    # The opening turns two cards: on with the next hidden one, not left on the card just turned.
    page.wait_for_function(PLAYABLE, arg="hidden")
    assert page.evaluate("() => document.activeElement.dataset.key") != turned
    # Enter on the card turned up says why nothing happens.
    page.evaluate(f"() => document.querySelector('[data-key=\"{turned}\"]').focus()")
    assert page.get_attribute(f'[data-key="{turned}"]', "aria-disabled") == "true"
    page.keyboard.press("Enter")
    # The live region also says the computer's moves: wait for the sentence, whichever comes first.
    page.wait_for_function(
        """() => ['This cannot be played now: choose another.', 'Wait for your turn.']
             .includes(document.querySelector('#announce').textContent.trim())"""
    )
