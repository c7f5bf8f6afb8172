"""Dominoes: bad input of any shape is refused with a stable code; configs are validated."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import IllegalAction
from games.engines import dominoes as d

from .test_dominoes_rules import act, play, position, stacked


def code_of(state: Any, seat: Any, action: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        d.decide(state, seat, action)
    assert info.value.text and "{" not in info.value.text
    return info.value.code


@pytest.fixture
def led() -> Any:
    state = stacked(2, "draw", [["6-0", "5-5"], ["0-0", "4-3"]])
    state, _ = play(state, 0, "6-0", "center")
    return state


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (2, {"type": "pass"}, "bad_seat"),
        (-1, {"type": "pass"}, "bad_seat"),
        (True, {"type": "pass"}, "bad_seat"),
        ("1", {"type": "pass"}, "bad_seat"),
        (1, None, "bad_action"),
        (1, "play", "bad_action"),
        (1, {}, "unknown_action"),
        (1, {"type": "resign"}, "unknown_action"),
        (1, {"type": 3}, "unknown_action"),
        (1, {"type": "pass", "tile": "0-0"}, "unexpected_field"),
        (1, {"type": "play", "tile": "0-0"}, "missing_field"),
        (0, {"type": "play", "tile": "5-5", "end": "left"}, "not_your_turn"),
        (1, {"type": "play", "tile": "0-7", "end": "right"}, "bad_tile"),
        (1, {"type": "play", "tile": "3-4", "end": "left"}, "bad_tile"),
        (1, {"type": "play", "tile": ["0-0"], "end": "right"}, "bad_tile"),
        (1, {"type": "play", "tile": "6-6", "end": "left"}, "tile_not_in_hand"),
        (1, {"type": "play", "tile": "0-0", "end": "north"}, "bad_end"),
        (1, {"type": "play", "tile": "0-0", "end": None}, "bad_end"),
        (1, {"type": "play", "tile": "0-0", "end": "center"}, "bad_end"),
        (1, {"type": "play", "tile": "0-0", "end": "up"}, "end_closed"),
        (1, {"type": "play", "tile": "0-0", "end": "left"}, "tile_does_not_match"),
        (1, {"type": "pass"}, "must_play"),
        (1, {"type": "draw"}, "must_play"),
        (1, {"type": "next_round"}, "round_in_progress"),
    ],
)
def test_bad_actions_are_refused_with_a_stable_code(led, seat, action, code):
    assert code_of(led, seat, action) == code


def test_the_lead_goes_in_the_center():
    state = stacked(2, "block", [["6-0"]])
    assert code_of(state, 0, {"type": "play", "tile": "6-0", "end": "left"}) == "lead_goes_center"


def test_drawing_is_refused_in_block_and_with_an_empty_boneyard():
    block = position(2, "block", [["6-6"], ["1-1"]], [("3-2", "center")], boneyard=["5-5"])
    assert code_of(block, 0, {"type": "draw"}) == "no_drawing"
    empty = position(2, "draw", [["6-6"], ["1-1"]], [("3-2", "center")], boneyard=[])
    assert code_of(empty, 0, {"type": "draw"}) == "boneyard_empty"


def test_passing_is_refused_while_you_can_draw():
    state = position(2, "draw", [["6-6"], ["1-1"]], [("3-2", "center")], boneyard=["5-5"])
    assert code_of(state, 0, {"type": "pass"}) == "must_draw"


def test_between_rounds_only_next_round_is_accepted_once_per_seat():
    state = position(2, "block", [["1-0"], ["6-6"]])
    state, _ = play(state, 0, "1-0", "center")
    assert code_of(state, 1, {"type": "pass"}) == "round_over"
    state, _ = act(state, 1, {"type": "next_round"})
    assert code_of(state, 1, {"type": "next_round"}) == "already_ready"
    assert d.legal_actions(state, 1) == []


def test_nothing_is_accepted_after_the_game_is_over():
    state = position(2, "all_fives", [["5-5", "6-6"], ["4-4"]], scores=(490, 0))
    state, _ = play(state, 0, "5-5", "center")
    assert code_of(state, 1, {"type": "pass"}) == "game_over"
    assert d.legal_actions(state, 0) == [] and d.legal_actions(state, 1) == []


def test_a_refused_action_leaves_the_state_unchanged(led):
    before = led
    code_of(led, 1, {"type": "play", "tile": "6-6", "end": "left"})
    assert led == before


# ---------------------------------------------------------------- configs


def test_defaults_come_from_the_rules_page():
    assert d.default_config(2) == {
        "players": 2,
        "variant": "block",
        "partnerships": False,
        "first": None,
        "target": 100,
        "deck": None,
    }
    assert d.validate_config({"players": 2, "variant": "all_fives"})["target"] == 250
    assert d.validate_config({"players": 3, "variant": "all_fives"})["target"] == 200
    assert d.validate_config({"players": 4, "variant": "all_fives", "partnerships": True})["target"] == 200
    assert d.validate_config({"players": 4, "variant": "draw"})["target"] == 100


@pytest.mark.parametrize(
    ("config", "code"),
    [
        (None, "bad_config"),
        ({}, "missing_players"),
        ({"players": 5}, "bad_players"),
        ({"players": True}, "bad_players"),
        ({"players": 2, "variant": "muggins"}, "bad_variant"),
        ({"players": 2, "partnerships": True}, "partnerships_need_four"),
        ({"players": 4, "partnerships": "yes"}, "bad_partnerships"),
        ({"players": 3, "first": 3}, "bad_first"),
        ({"players": 3, "first": False}, "bad_first"),
        ({"players": 2, "target": 0}, "bad_target"),
        ({"players": 2, "target": 2.5}, "bad_target"),
        ({"players": 2, "deck": ["6-6"] * 28}, "bad_deck"),
        ({"players": 2, "deck": ["6-6"]}, "bad_deck"),
        ({"players": 2, "colour": "red"}, "unknown_option"),
    ],
)
def test_bad_configs_are_refused_with_a_stable_code(config, code):
    with pytest.raises(IllegalAction) as info:
        d.validate_config(config)
    assert info.value.code == code


def test_validate_config_is_idempotent_over_the_sample_configs():
    for config in d.sample_configs():
        assert d.validate_config(config) == config
    variants = {(c["variant"], c["players"], c["partnerships"]) for c in d.sample_configs()}
    for variant in ("block", "draw", "all_fives"):
        assert {(variant, 2, False), (variant, 3, False), (variant, 4, False), (variant, 4, True)} <= variants
