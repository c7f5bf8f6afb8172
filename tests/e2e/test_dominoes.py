"""Dominoes in a real browser: a whole game through select → preview → confirm, and pass-and-play."""

from __future__ import annotations

import pytest

from .conftest import WAIT, actions_sent, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What the page is waiting for: the game is over, or it is this page's turn, or the curtain is down.
READY = """() => {
  const turn = document.querySelector('#turn');
  if (!turn || !document.querySelector('.dom-table') && document.querySelector('#curtain').hidden) return false;
  return turn.textContent.includes('The game is over.') || turn.classList.contains('mine')
    || !document.querySelector('#curtain').hidden;
}"""
MAX_TURNS = 200  # turns of ours in a game: a bound on the loop, not on the machine's speed
SEQ = "() => Number((document.querySelector('.dom-table') || {dataset: {}}).dataset.seq || 0)"


# Counts the server's acks and errors, so that a test waits for the ack of its move before choosing the next one:
# the page clears the previewed move when an ack arrives, whichever move it was for.
COUNT_ACKS = """
window.__acks = 0;
window.__errors = 0;
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      try {
        const type = JSON.parse(event.data).type;
        if (type === "ack") window.__acks += 1;
        if (type === "error") window.__errors += 1;
      } catch (e) {}
    });
  }
};
"""


def new_table(page, *, variant: str, seats: list[str], target: str = "") -> None:
    page.add_init_script(COUNT_ACKS)
    page.goto("/new/dominoes/")
    page.select_option("select[name=players]", str(len(seats)))
    page.select_option("select[name=variant]", variant)
    page.fill("input[name=target]", target)
    for n, choice in enumerate(seats):
        page.select_option(f"select[name=seat{n}]", choice)
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#status[data-status=open]")


def hand(page) -> list[str]:
    return page.eval_on_selector_all(".dom-hand [data-tile]", "els => els.map(e => e.dataset.tile)")


def press(page, selector_or_locator, touch: bool = False) -> None:
    """A click with the mouse, or a tap on a touch screen."""
    target = (
        page.locator(selector_or_locator) if isinstance(selector_or_locator, str) else selector_or_locator
    )
    target = target.first
    if touch:
        target.tap()
    else:
        target.click()


def preview_a_move(page, touch: bool = False) -> str:
    """Choose one legal move the way a player does; returns what kind it was. Nothing is played yet."""
    if page.locator("[data-action=next_round]").count():
        press(page, "[data-action=next_round]", touch)
        return "next_round"
    playable = page.locator(".dom-hand [data-tile]:not([aria-disabled=true])")
    if playable.count():
        press(page, playable, touch)  # a tap only selects
        assert page.locator("#preview").is_hidden()
        page.wait_for_selector(".dom-ends [data-end]")
        ends = page.locator(".dom-ends [data-end]")
        if ends.count() == 1:
            press(page, ".dom-hand [data-tile].selected", touch)  # fits one end only: tap it again
        else:
            press(page, ends.last, touch)
        page.wait_for_selector("[data-ghost]")  # the tile is shown where it would go
        return "play"
    for name in ("draw", "pass"):
        if page.locator(f"[data-action={name}]").count():
            press(page, f"[data-action={name}]", touch)
            return name
    raise AssertionError("my turn, but no move on the page")


def confirm(page, sent: int, touch: bool = False) -> None:
    """Confirm the previewed move and wait until it is played (the server's ack and the new state).
    ``sent``: the actions the page had sent before the move was chosen."""
    page.wait_for_selector("#preview:not([hidden])")
    assert actions_sent(page) == sent, "nothing is played before Confirm"
    for _attempt in range(3):
        before = page.evaluate(SEQ)
        acks, errors = page.evaluate("[window.__acks, window.__errors]")
        press(page, "#confirm", touch)
        played = (
            f"({SEQ})() > {before} && window.__acks > {acks} && document.querySelector('#preview').hidden"
        )
        try:
            page.wait_for_function(f"() => ({played}) || window.__errors > {errors}")
        except Exception as exc:
            raise AssertionError(f"the move was not played: {diagnose(page)}") from exc
        if page.evaluate(f"() => {played}"):
            return
        # Refused as stale: a computer player moved first (both confirm the next round at once). The
        # page keeps the preview while the move is still legal; a player would press Confirm again.
        page.wait_for_function(f"() => ({SEQ})() > {before}")
        if page.locator("#preview").is_hidden():
            return
    raise AssertionError(f"the move was refused three times: {diagnose(page)}")


def diagnose(page) -> dict:
    return page.evaluate(
        f"""() => ({{seq: ({SEQ})(), acks: window.__acks, errors: window.__errors,
        preview: !document.querySelector('#preview').hidden, error: document.querySelector('#error').textContent,
        turn: document.querySelector('#turn').textContent, status: document.querySelector('#status').dataset.status}})"""
    )


def play_to_the_end(page, touch: bool = False, shot: str | None = None) -> int:
    """Play every turn of this page's seat until the game is over; returns the number of moves."""
    taken = None
    moves = 0
    for _turn in range(MAX_TURNS):
        page.wait_for_function(READY, timeout=WAIT)
        if "The game is over." in page.inner_text("#turn"):
            return moves
        before, sent = page.evaluate(SEQ), actions_sent(page)
        kind = preview_a_move(page, touch)
        # A computer player may act first (both may start the next round): the page then shows the new
        # position and drops the preview, and the player looks again, as a person would.
        page.wait_for_function(f"() => !document.querySelector('#preview').hidden || ({SEQ})() > {before}")
        if page.locator("#preview").is_hidden():
            continue
        # The most telling picture: a spinner with open branches, else a spinner, else any table.
        branches = page.locator("[data-end-spot=up], [data-ghost-end=up]").count() > 0
        level = 2 if branches else int(page.locator("[data-spinner=true]").count() > 0)
        if shot and kind == "play" and (taken is None or level > taken):
            screenshot(page, shot)  # mid-game, with the preview showing
            taken = level
        confirm(page, sent, touch)
        moves += 1
    raise AssertionError(f"the game did not end in time ({moves} moves)")


def test_a_human_plays_all_fives_to_the_end_against_the_computer(page):
    new_table(page, variant="all_fives", seats=["me", "bot:greedy"], target="60")
    moves = play_to_the_end(page, shot="dominoes-table")
    assert moves > 3
    page.wait_for_selector(".dom-result .dom-winner")
    # After the game every hand is shown, with its count.
    for seat in page.eval_on_selector_all(".dom-seat", "els => els.map(e => e.dataset.count)"):
        assert seat is not None
    screenshot(page, "dominoes-finished")
    page.click("#show-scores")
    assert page.locator("#score-table tr").count() >= 3
    assert page.locator("#log-list li").count() > 0


def test_pass_and_play_hides_one_players_tiles_from_the_next(page):
    new_table(page, variant="block", seats=["me", "local"])
    page.wait_for_function(READY)
    if page.locator("#curtain").is_visible():  # the other player leads: let them show their tiles
        page.click("#curtain-show")
        page.wait_for_function(READY)
    for _turn in range(2):
        first = page.get_attribute(".dom-hand", "data-hand")
        mine = hand(page)
        assert len(mine) == 7 or _turn
        kind = preview_a_move(page)
        played = page.get_attribute(".dom-hand [data-tile].pending", "data-tile") if kind == "play" else None
        page.click("#confirm")
        # The curtain comes down: no tile of either hand is in the page.
        page.wait_for_selector("#curtain:not([hidden])")
        assert page.evaluate("document.querySelector('#board').children.length") == 0
        assert page.locator("[data-tile], [data-shown]").count() == 0
        html = page.content()
        for tile in mine:
            assert f'data-tile="{tile}"' not in html
        assert "Show my tiles" in page.inner_text("#curtain")
        # The next player asks for their tiles: theirs are shown, not the previous player's.
        page.click("#curtain-show")
        page.wait_for_function(READY)
        page.wait_for_selector(".dom-hand [data-tile]")
        second = page.get_attribute(".dom-hand", "data-hand")
        assert second != first
        theirs = hand(page)
        left = [t for t in mine if t != played]
        assert theirs and not set(theirs) & set(left)
        shown = set(
            page.eval_on_selector_all(
                "[data-tile], [data-shown]", "els => els.map(e => e.dataset.tile || e.dataset.shown)"
            )
        )
        assert not shown & set(left)
        # The previous player's hand is face down, with its count.
        other = page.locator(f'.dom-seat[data-seat="{first}"]')
        assert other.get_attribute("data-count") == str(len(left))
        assert other.locator(".dom-back").count() == len(left)
    screenshot(page, "dominoes-pass-and-play")


def test_a_phone_plays_block_to_the_end_by_touch(phone):
    new_table(phone, variant="block", seats=["me", "bot:random"], target="10")
    moves = play_to_the_end(phone, touch=True, shot="dominoes-phone")
    assert moves >= 1
    phone.wait_for_selector(".dom-result .dom-winner")
    screenshot(phone, "dominoes-phone-finished")
