"""#33 defect 2: the score history stays. A page opened late (a reload, a spectator arriving) shows every
hand or round played so far, from the view, not only what the page itself saw; a Kazino game's end
says what its cards were worth before the next game is dealt."""

from __future__ import annotations

from typing import Any

import pytest

from tests.replay.play import new_game, play

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sheet(page: Any) -> list[list[str]]:
    page.click("#show-scores")
    page.wait_for_selector("#score-table tr")
    return page.eval_on_selector_all(
        "#score-table tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )


def test_a_late_spectator_sees_every_pitch_hand(page: Any) -> None:
    game = new_game("pitch", 3, options={"max_hands": 4})
    play(game)
    page.goto(f"/tables/{game.pk}/")
    page.wait_for_selector(".pt-result")
    rows = sheet(page)
    text = " ".join(" ".join(r) for r in rows)
    assert "played before this page was opened" not in text
    assert [r[0] for r in rows[1:5]] == ["1", "2", "3", "4"], rows


def test_a_late_spectator_sees_every_dominoes_round(page: Any) -> None:
    # No round scores more than the set's 168 pips, so a target above that always takes two rounds or more
    # (at 60, one deal in a few ended the game in its first round and the test had nothing to show).
    game = new_game("dominoes", 2, options={"variant": "draw", "target": 170})
    play(game)
    page.goto(f"/tables/{game.pk}/")
    page.wait_for_function("() => document.querySelector('#turn').textContent.includes('over')")
    rows = sheet(page)
    from replay import frames

    rounds = sum(1 for e in frames.load(game.pk).events if e["type"] == "round_end")
    assert rounds >= 2
    assert [r[0] for r in rows[1 : rounds + 1]] == [f"Round {n}" for n in range(1, rounds + 1)], rows


def test_a_kazino_games_end_says_what_its_cards_were_worth(page: Any) -> None:
    game = new_game("kazino", 2, options={"match": "single"})
    play(game)
    page.goto(f"/games/{game.pk}/replay/?at=999999")
    page.wait_for_selector("#moments .moment")
    moves = page.eval_on_selector_all("#moments .moment", "els => els.map(e => e.textContent)")
    assert any("cards →" in m and "points" in m for m in moves), moves[-3:]
