"""The review to look at (#33): a finished, reviewed All Fives game's replay on a 390×844 phone in
Kreyòl and on a 1280×800 laptop in Tagalog. The graph is there, in the reader's language, and fits
the screen; a mark on it goes to its moment; "Show the better move" draws the board with the better
tile played on the position before the move, and the move played named; stepping returns to the
game. Screenshots in /tmp/review-shots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replay import access, frames, graph, review
from tests.replay.play import new_game, play

from .axe import report, run_axe

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/review-shots")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
ENGLISH_TITLE = "Points lost over the game, player by player"

FITS = """() => {
  const svg = document.querySelector('#review-graph > svg').getBoundingClientRect();
  return {page: document.documentElement.scrollWidth, screen: window.innerWidth,
          left: svg.left, right: svg.right, height: svg.height};
}"""


def reviewed_game() -> Any:
    game = new_game("dominoes", 2, options={"variant": "all_fives", "target": 60}, seed=21)
    play(game)
    review.request(game.pk, queue=False)
    # A real review, with fewer samples than the default (the figures are noisier, the mechanics the same).
    assert review.run(game.pk, overrides={"samples": 16, "measure": 24, "batches": 3}) == "done"
    return game


@pytest.mark.parametrize(("size", "language"), [(PHONE, "ht"), (LAPTOP, "tl")], ids=["phone-ht", "laptop-tl"])
def test_the_review_graph_and_the_better_move_on_the_board(
    browser: Any, server: str, size: dict[str, int], language: str
) -> None:
    game = reviewed_game()
    replay = frames.load(game.pk)
    decisions = review.timeline(game.pk)
    flagged = [d for d in decisions if d["label"] and d["best"] != d["played"]]
    assert flagged, "random play makes mistakes the review flags"
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        viewport=size,
        base_url=server,
        extra_http_headers={"Accept-Language": language},
        is_mobile=size is PHONE,
        has_touch=size is PHONE,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    tag = f"{size['width']}-{language}"
    try:
        page.goto(f"/games/{game.pk}/replay/")
        page.wait_for_selector("#review-body[data-status=done] .review-summary li")
        page.wait_for_selector("#review-graph [role=img]")
        page.wait_for_function(
            "() => { const r = document.querySelector('#replay'); return r.dataset.index && !r.dataset.loading; }"
        )
        # In the reader's language, with the figures for screen readers.
        title = page.text_content("#review-graph-title")
        assert title and title != ENGLISH_TITLE, title
        assert page.text_content("#review-graph-desc")
        assert page.locator("#review-graph .graph-table tbody tr").count() == len(decisions)
        marks = page.locator("#review-graph a.graph-mark")
        assert marks.count() == sum(1 for d in decisions if d["label"])
        fits = page.evaluate(FITS)
        assert fits["page"] <= fits["screen"], f"the page is wider than the screen: {fits}"
        assert fits["left"] >= 0 and fits["right"] <= fits["screen"] and fits["height"] > 80, fits
        page.locator("#review-graph").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"review-graph-{tag}.png"), full_page=True)
        page.locator("#review-graph").screenshot(path=str(SHOTS / f"review-graph-only-{tag}.png"))
        found = run_axe(page)["violations"]
        assert not found, report(found)

        # A mark goes to its moment: the move made by the flagged decision.
        decision = flagged[len(flagged) // 2]
        mark = page.locator(f"#review-graph a.graph-mark[data-seq='{decision['seq']}']")
        target = graph.command_end(replay, decision["seq"])
        assert mark.get_attribute("data-index") == str(target)
        mark.locator("circle.graph-dot").click()
        page.wait_for_function(
            "i => { const r = document.querySelector('#replay'); return r.dataset.index === i && !r.dataset.loading; }",
            arg=str(target),
        )
        page.wait_for_selector("#review-graph a.graph-mark.current")
        assert page.get_attribute("#review-graph a.graph-mark.current", "data-seq") == str(decision["seq"])
        page.wait_for_selector("#review-body .review-here")
        played_tile, best_tile = decision["played"]["tile"], decision["best"]["tile"]
        assert page.locator(f"#board [data-placed='{played_tile}']").count() == 1, (
            "the move played is on the board"
        )

        # The better move on the board: the position before, with the better tile on it.
        page.click("#better-toggle")
        page.wait_for_selector(f"#board[data-better='{decision['seq']}']")
        page.wait_for_selector("#better-note:not([hidden]) mark.better-played")
        assert page.locator(f"#board [data-placed='{best_tile}']").count() == 1
        assert page.locator(f"#board [data-placed='{played_tile}']").count() == 0
        first_index = replay.index_of(decision["seq"])
        hand_start = next(
            first for _n, first, last in access.hand_spans(replay) if first <= first_index <= last
        )
        plays_before = sum(1 for e in replay.events[hand_start:first_index] if e["type"] == "play")
        assert page.locator("#board [data-placed]").count() == plays_before + 1
        note = page.text_content("#better-note") or ""
        assert "Played instead" not in note and "better move" not in note, note  # in the reader's language
        page.screenshot(path=str(SHOTS / f"review-better-{tag}.png"), full_page=True)
        page.locator("#board").screenshot(path=str(SHOTS / f"review-better-board-{tag}.png"))
        fits = page.evaluate(FITS)
        assert fits["page"] <= fits["screen"], fits

        # Back to the game: the button, or any step.
        page.click("#better-toggle")
        page.wait_for_selector("#board:not([data-better])")
        assert page.locator(f"#board [data-placed='{played_tile}']").count() == 1
        page.click("#better-toggle")
        page.wait_for_selector("#board[data-better]")
        page.click("#forward")
        page.wait_for_selector("#board:not([data-better])")
        assert page.is_hidden("#better-note")

        # The table's links, for a keyboard: the first flagged decision.
        first = next(d for d in decisions if d["label"])
        page.click("#review-graph .graph-figures summary")
        link = page.locator(f"#review-graph a.graph-link[data-seq='{first['seq']}']")
        link.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "i => document.querySelector('#replay').dataset.index === i",
            arg=str(graph.command_end(replay, first["seq"])),
        )
        assert not errors, errors
    finally:
        context.close()
