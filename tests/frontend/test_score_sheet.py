"""The real-card entry form is laid out, read and checked from the engine's descriptor alone: a game the
front end has never heard of (tests/frontend/sheet_engine.py) gets its form, its rows and its checks."""

from __future__ import annotations

import pytest

from frontend.score_sheet import as_form, form_rows, parse_hands, row_name
from games import engines
from games.engines.base import IllegalAction
from tests.engines.contract import check_score_sheet
from tournaments import board

engines.register("tinysheet", "tests.frontend.sheet_engine")
CONFIG = {"players": 2, "goal": 5}
SIDES = [{"number": 1, "name": "Ana"}, {"number": 2, "name": "Ben"}]


def test_a_new_game_s_descriptor_keeps_the_contract():
    check_score_sheet(engines.get("tinysheet"), CONFIG)


def test_its_form_has_a_number_per_player_and_its_answers_per_row():
    rows = form_rows("tinysheet", CONFIG, SIDES, 2, {"h1-tricks-2": "4", "h1-dealer": "1"})
    assert [r["label"] for r in rows] == ["Deal 1", "Deal 2"]
    assert [[f["name"] for f in p["inputs"]] for p in rows[1]["players"]] == [
        ["h1-tricks-1"],
        ["h1-tricks-2"],
    ]
    assert rows[1]["players"][1]["inputs"][0]["value"] == "4"
    dealer = rows[1]["choices"][0]
    assert dealer["name"] == "h1-dealer" and dealer["value"] == "1"
    assert dealer["options"] == [("", "–"), ("1", "Ana"), ("2", "Ben")]
    assert row_name(engines.get("tinysheet").score_sheet(CONFIG), 3) == "Deal 3"


def test_what_is_typed_is_read_checked_scored_and_shown_again():
    post = {"count": "3", "h0-tricks-1": "3", "h0-tricks-2": "1", "h0-dealer": "2"}
    post |= {"h1-tricks-1": "2", "h1-tricks-2": "2", "h1-dealer": "1"}  # the third row left blank
    hands = parse_hands("tinysheet", CONFIG, [1, 2], post)
    assert hands == [
        {"tricks": {"1": 3, "2": 1}, "dealer": 2},
        {"tricks": {"1": 2, "2": 2}, "dealer": 1},
    ]
    sheet = board.score("tinysheet", CONFIG, [1, 2], hands)
    assert sheet.totals == {1: 5, 2: 3} and sheet.places == {1: 1, 2: 2}
    again = as_form("tinysheet", CONFIG, hands)
    assert again == {**post, "count": "2"}  # the rows entered, without the blank one
    with pytest.raises(IllegalAction) as refused:
        board.score("tinysheet", CONFIG, [1, 2], hands[:1])
    assert refused.value.code == "not_over"


def test_a_game_without_a_score_sheet_cannot_be_played_with_real_cards():
    assert board.playable("tinysheet") and board.playable("pitch")
    assert not board.playable("tiny") and not board.playable("chess")
    with pytest.raises(IllegalAction) as refused:
        board.score("tiny", {"players": 2}, [1, 2], [{}])
    assert refused.value.code == "no_board_game"
