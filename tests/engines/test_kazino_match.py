"""Kazino deals, end of game, scoring, matches, views, configs and bad input (rules/kazino.md)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from games.engines import IllegalAction
from games.engines.kazino.flow import game_end_event, match_winners
from games.engines.kazino.state import State

from .test_kazino_rules import kazino, new_game, play, refused, stacked


def first_legal(state: State) -> dict[str, Any]:
    """A steady policy for scripted games: capture when possible, else the first listed action."""
    seat = kazino.to_act(state)[0]
    legal = kazino.legal_actions(state, seat)
    return next((a for a in legal if a["type"] == "capture"), legal[0])


def play_out(config: dict[str, Any], seed: int) -> tuple[State, list[dict[str, Any]]]:
    events = kazino.start(config, seed)
    state = kazino.replay(events)
    while kazino.to_act(state):
        seat = kazino.to_act(state)[0]
        new = kazino.decide(state, seat, first_legal(state))
        for event in new:
            state = kazino.apply(state, event)
        events += new
    return state, events


# Dealing -------------------------------------------------------------------------------------------


def test_the_deal_puts_4_cards_on_the_table_and_4_in_each_hand_and_the_non_dealer_plays_first():
    deck = stacked(["2S", "3S", "4S", "5S"], ["6S", "7S", "8S", "9S"], ["10S", "JS", "QS", "KS"])
    state = kazino.replay(kazino.start({"players": 2, "dealer": 0, "deck": deck}, 1))
    view = kazino.view(state, None)
    assert [p["cards"] for p in view["table"]] == [["2S"], ["3S"], ["4S"], ["5S"]]
    assert state.hands == (("10S", "JS", "QS", "KS"), ("6S", "7S", "8S", "9S"))
    assert view["to_act"] == [1]
    assert view["deck_count"] == 40
    assert view["hand"] == 1 and view["deal"] == 1


def test_later_deals_give_4_more_each_and_nothing_to_the_table_six_deals_in_all():
    config = {"players": 2, "match": "single"}
    events = kazino.start(config, 3)
    state = kazino.replay(events)
    deals = 1
    while kazino.to_act(state):
        seat = kazino.to_act(state)[0]
        for event in kazino.decide(state, seat, first_legal(state)):
            if event["type"] == "deal":
                deals += 1
                assert event["table"] == []
                assert [len(h) for h in event["hands"]] == [4, 4]
            state = kazino.apply(state, event)
    assert deals == 6


def test_the_dealer_alternates_from_game_to_game():
    state, events = play_out({"players": 2, "target": 60, "dealer": 1}, 5)
    dealers = [e["dealer"] for e in events if e["type"] == "game_start"]
    assert len(dealers) >= 2
    assert dealers == [(1 + i) % 2 for i in range(len(dealers))]


def test_the_same_seed_gives_the_same_events():
    assert kazino.start(kazino.default_config(2), 11) == kazino.start(kazino.default_config(2), 11)
    assert kazino.start(kazino.default_config(2), 11) != kazino.start(kazino.default_config(2), 12)


# End of a game ------------------------------------------------------------------------------------


def test_the_cards_left_on_the_table_go_to_the_last_capturer():
    for seed in range(5):
        _state, events = play_out({"players": 2, "match": "single"}, seed)
        end = next(e for e in events if e["type"] == "game_end")
        last = [e["seat"] for e in events if e["type"] == "capture"][-1]
        assert end["to"] == last
        assert sum(end["captured"]) == 52


def test_the_table_stays_put_when_nobody_ever_captured():
    state = replace(
        State(config=kazino.default_config(2)), game=1, table=(), captured=((), ()), last_capturer=None
    )
    end = game_end_event(state)
    assert end["to"] is None and end["points"] == [0, 0]


def test_points_follow_the_bands_and_the_four_kings_four_aces_bonus():
    kings_and_aces = ["KS", "KH", "KD", "KC", "AS", "AH", "AD", "AC"]
    rest = [f"{r}{s}" for r in ("2", "3", "4", "5", "6", "7") for s in "SHDC"]
    base = State(config=kazino.validate_config({"players": 2, "kings_aces_bonus": True}), game=1)
    state = replace(base, captured=(tuple(kings_and_aces + rest[:22]), tuple(rest[22:])), last_capturer=0)
    assert game_end_event(state)["points"] == [10 + 20, 0]
    plain = replace(state, config=kazino.default_config(2))
    assert game_end_event(plain)["points"] == [10, 0]


# Matches ------------------------------------------------------------------------------------------


def after_game(totals: tuple[int, int], **options: Any) -> State:
    return replace(State(config=kazino.validate_config({"players": 2, **options})), totals=totals)


def test_the_first_to_reach_the_target_at_the_end_of_a_game_wins_the_match():
    assert match_winners(after_game((150, 140))) is None
    assert match_winners(after_game((160, 140))) == [0]
    assert match_winners(after_game((170, 185))) == [1]


def test_equal_totals_at_or_above_the_target_play_another_game():
    assert match_winners(after_game((165, 165))) is None


def test_a_single_game_match_goes_to_the_higher_score_and_equal_scores_draw():
    assert match_winners(after_game((10, 0), match="single")) == [0]
    assert match_winners(after_game((0, 0), match="single")) == [0, 1]


def test_a_target_match_plays_games_until_someone_reaches_the_target():
    state, events = play_out({"players": 2, "target": 60}, 9)
    result = kazino.outcome(state)
    assert result is not None
    assert max(result["scores"]) >= 60
    assert result["winners"] == [result["scores"].index(max(result["scores"]))]
    assert len(result["games"]) == sum(1 for e in events if e["type"] == "game_end")
    assert kazino.view(state, None)["hand"] == len(result["games"])


def test_a_single_match_is_one_game_and_a_rematch_is_a_new_game_with_the_other_dealer():
    state, events = play_out({"players": 2, "match": "single"}, 4)
    assert sum(1 for e in events if e["type"] == "game_end") == 1
    result = kazino.outcome(state)
    assert result is not None and len(result["games"]) == 1
    rematch = kazino.replay(kazino.start({"players": 2, "match": "single", "dealer": 1}, 5))
    assert kazino.to_act(rematch) == [0]


def test_a_drawn_single_game_has_both_players_first():
    state = replace(after_game((0, 0), match="single"), finished=True, winners=(0, 1), game=1)
    result = kazino.outcome(state)
    assert result is not None and result["winners"] == [0, 1] and result["places"] == [1, 1]


# Views --------------------------------------------------------------------------------------------


def test_the_view_shows_builds_with_cards_value_and_owner_and_public_counts():
    state = new_game(["8S", "2C", "3D", "4H"], ["5H", "KC", "9C", "10C"], ["7D", "8D", "9D", "JD"])
    state = play(state, 0, {"type": "build", "card": "5H", "on": "8S", "value": 13})
    state = play(state, 1, {"type": "capture", "card": "7D", "value": 7, "groups": [["3D", "4H"]]})
    view = kazino.view(state, 1)
    assert view["table"] == [
        {"cards": ["8S", "5H"], "kind": "build", "value": 13, "owner": 0},
        {"cards": ["2C"], "kind": "card", "value": 2, "owner": None},
    ]
    assert view["captured_counts"] == [0, 3]
    assert view["captured"] == [[], ["3D", "4H", "7D"]]
    assert view["last_capturer"] == 1
    assert view["deck_count"] == 40
    assert view["hand_counts"] == [3, 3]
    assert view["my_cards"] == ["8D", "9D", "JD"]
    assert view["seat"] == 1 and view["game"] == "kazino" and view["players"] == 2


def test_no_view_shows_the_other_hand_the_deck_or_the_stacked_deck():
    state = new_game(["8S", "2C", "3D", "4H"], ["5H", "KC", "9C", "10C"], ["7D", "8D", "9D", "JD"])
    for seat, hidden in ((0, ["7D", "JD"]), (1, ["5H", "KC"]), (None, ["5H", "JD"])):
        text = json.dumps(kazino.view(state, seat))
        for card in hidden + list(state.deck):
            assert f'"{card}"' not in text
        assert "deck" not in kazino.view(state, seat)["config"]
    assert kazino.view(state, None)["my_cards"] is None


def test_determinize_keeps_the_view_and_deals_the_unseen_cards():
    state = new_game(["8S", "2C", "3D", "4H"], ["5H", "KC", "9C", "10C"], ["7D", "8D", "9D", "JD"])
    view = json.loads(json.dumps(kazino.view(state, 0)))
    sample = kazino.determinize(view, random.Random(3))
    assert kazino.view(sample, 0) == view
    assert sorted(sample.hands[1] + sample.deck) == sorted(state.hands[1] + state.deck)


# Configs and bad input ----------------------------------------------------------------------------


def test_the_default_config_follows_the_rules_page():
    assert kazino.default_config(2) == {
        "players": 2,
        "match": "target",
        "target": 160,
        "kings_aces_bonus": False,
        "dealer": 0,
    }


@pytest.mark.parametrize(
    ("config", "code"),
    [
        ({"players": 3}, "bad_players"),
        ({"players": 2, "match": "online"}, "bad_match"),
        ({"players": 2, "target": 0}, "bad_target"),
        ({"players": 2, "kings_aces_bonus": 1}, "bad_option"),
        ({"players": 2, "dealer": 2}, "bad_dealer"),
        ({"players": 2, "deck": ["AS"] * 52}, "bad_deck"),
        ({"players": 2, "jokers": True}, "unknown_option"),
        ("kazino", "bad_config"),
    ],
)
def test_bad_configs_are_refused_with_a_clear_code(config, code):
    with pytest.raises(IllegalAction) as info:
        kazino.validate_config(config)
    assert info.value.code == code


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "trail", "card": "7D"}, "not_your_turn"),
        (2, {"type": "trail", "card": "5H"}, "bad_seat"),
        (0, "trail", "bad_action"),
        (0, {"type": "fish", "card": "5H"}, "unknown_action"),
        (0, {"type": "trail", "card": "5H", "value": 5}, "bad_fields"),
        (0, {"type": "trail"}, "bad_fields"),
        (0, {"type": "trail", "card": "1Z"}, "bad_card"),
        (0, {"type": "trail", "card": "7D"}, "card_not_in_hand"),
        (0, {"type": "build", "card": "5H", "on": "QH", "value": 13}, "no_such_pile"),
        (0, {"type": "build", "card": "5H", "on": "8S", "value": True}, "bad_value"),
        (0, {"type": "capture", "card": "KC", "value": 13, "groups": "8S"}, "bad_groups"),
        (0, {"type": "capture", "card": "KC", "value": 13, "groups": [["QH"]]}, "not_on_table"),
        (0, {"type": "capture", "card": "9C", "value": 9, "groups": [["8S"]]}, "must_capture_most"),
    ],
)
def test_bad_actions_are_refused_with_stable_codes(seat, action, code):
    state = new_game(["8S", "2C", "3D", "4H"], ["5H", "KC", "9C", "10C"], ["7D", "8D", "9D", "JD"])
    assert refused(state, seat, action) == code


def test_a_capture_that_takes_nothing_is_refused():
    state = new_game(["QS", "JS", "10S", "KH"], ["2C", "3C", "4C", "5C"], ["7D", "8D", "9D", "JD"])
    action = {"type": "capture", "card": "2C", "value": 2, "groups": [["QS"]]}
    assert refused(state, 0, action) == "nothing_to_capture"


def test_nothing_is_accepted_once_the_match_is_over():
    state, _events = play_out({"players": 2, "match": "single"}, 2)
    assert kazino.to_act(state) == [] and kazino.outcome(state) is not None
    assert kazino.legal_actions(state, 0) == []
    assert refused(state, 0, {"type": "trail", "card": "5H"}) == "game_over"


def test_a_rematch_gives_the_deal_to_the_other_player():
    from games.engines import kazino

    config = kazino.validate_config({"players": 2, "match": "single", "dealer": 0})
    assert kazino.rematch_config(config)["dealer"] == 1
    assert kazino.rematch_config(kazino.rematch_config(config))["dealer"] == 0
