"""Kazino captures, builds and ownership, rule by rule (rules/kazino.md), on stacked decks."""

from __future__ import annotations

from .test_kazino_rules import captures, kazino, new_game, play, refused, table_of

OTHERS = ["7D", "8D", "9D", "JD"]


def test_face_cards_are_worth_11_12_and_13():
    state = new_game(["5S", "6S", "10H", "2H"], ["JC", "QC", "KC", "3C"], OTHERS)
    assert captures(state, 0, "JC")[0]["groups"] == [["5S", "6S"]]
    assert captures(state, 0, "QC")[0]["groups"] == [["2H", "10H"]]
    assert captures(state, 0, "KC")[0]["groups"] == [["2H", "5S", "6S"]]


def test_a_card_takes_equal_cards_and_every_disjoint_group_adding_to_its_value():
    state = new_game(["5S", "2H", "3H", "4S"], ["5C", "KC", "QC", "JC"], ["AS", "8D", "9D", "10D"])
    state = play(state, 0, {"type": "trail", "card": "KC"})
    state = play(state, 1, {"type": "trail", "card": "AS"})
    assert captures(state, 0, "5C") == [
        {"type": "capture", "card": "5C", "value": 5, "groups": [["AS", "4S"], ["2H", "3H"], ["5S"]]}
    ]


def test_equally_large_capture_sets_are_each_listed_for_the_player_to_choose():
    state = new_game(["2H", "3S", "3D", "9C"], ["5C", "KC", "QC", "JC"], OTHERS)
    assert captures(state, 0, "5C") == [
        {"type": "capture", "card": "5C", "value": 5, "groups": [["2H", "3S"]]},
        {"type": "capture", "card": "5C", "value": 5, "groups": [["2H", "3D"]]},
    ]


def test_capturing_is_never_obliged():
    state = new_game(["5S", "2H", "3H", "9C"], ["5C", "KC", "QC", "JC"], OTHERS)
    assert {"type": "trail", "card": "5C"} in kazino.legal_actions(state, 0)


def test_the_groups_of_a_capture_must_be_named_as_listed():
    state = new_game(["2H", "3S", "4D", "AC"], ["5C", "KC", "QC", "JC"], OTHERS)
    listed = captures(state, 0, "5C")
    assert listed == [{"type": "capture", "card": "5C", "value": 5, "groups": [["AC", "4D"], ["2H", "3S"]]}]
    other_order = {"type": "capture", "card": "5C", "value": 5, "groups": [["2H", "3S"], ["AC", "4D"]]}
    assert refused(state, 0, other_order) == "use_listed_groups"


def test_an_ace_is_played_as_1_or_14_and_both_are_listed():
    state = new_game(["AH", "KS", "3D", "9C"], ["AC", "5C", "QC", "JC"], OTHERS)
    assert captures(state, 0, "AC", 1) == [{"type": "capture", "card": "AC", "value": 1, "groups": [["AH"]]}]
    assert captures(state, 0, "AC", 14) == [
        {"type": "capture", "card": "AC", "value": 14, "groups": [["AH", "KS"]]}
    ]
    assert (
        refused(state, 0, {"type": "capture", "card": "AC", "value": 7, "groups": [["AH"]]}) == "wrong_value"
    )


def test_a_loose_ace_counts_1_inside_a_sum():
    state = new_game(["AH", "3S", "QD", "8C"], ["4C", "5C", "KC", "JC"], OTHERS)
    assert captures(state, 0, "4C") == [
        {"type": "capture", "card": "4C", "value": 4, "groups": [["AH", "3S"]]}
    ]
    assert captures(state, 0, "KC") == [
        {"type": "capture", "card": "KC", "value": 13, "groups": [["AH", "QD"]]}
    ]


def test_a_capture_takes_the_builds_of_its_value_whole():
    state = new_game(["8S", "5D", "3H", "2C"], ["5H", "KC", "QC", "JC"], ["KD", "8D", "9D", "10D"])
    state = play(state, 0, {"type": "build", "card": "5H", "on": "8S", "value": 13})
    assert captures(state, 1, "KD") == [
        {"type": "capture", "card": "KD", "value": 13, "groups": [["5H", "8S"]]}
    ]


def test_a_build_cannot_be_split_or_used_inside_a_sum():
    state = new_game(["5S", "3D", "2C", "9H"], ["3H", "8C", "10C", "JC"], ["10D", "8D", "9D", "QD"])
    state = play(state, 0, {"type": "build", "card": "3H", "on": "5S", "value": 8})
    # A 10 could take 8-build + 2 if builds were summed, or 5S + 3D + 2C if it were split.
    for action in captures(state, 1, "10D"):
        assert "5S" not in [c for g in action["groups"] for c in g]
    split = {"type": "capture", "card": "10D", "value": 10, "groups": [["2C", "3H", "5S"]]}
    assert refused(state, 1, split) == "cannot_take_pile"


def test_an_ace_as_14_captures_a_build_of_14():
    state = new_game(["KS", "5D", "3H", "2C"], ["AH", "AC", "QC", "JC"], ["AD", "8D", "9D", "10D"])
    state = play(state, 0, {"type": "build", "card": "AH", "on": "KS", "value": 14})
    assert {"cards": ["KS", "AH"], "kind": "build", "value": 14, "owner": 0} in table_of(state)
    take = captures(state, 1, "AD", 14)
    assert take == [{"type": "capture", "card": "AD", "value": 14, "groups": [["AH", "KS"]]}]
    assert captures(state, 1, "AD", 1) == []


def test_a_build_above_14_is_refused():
    state = new_game(["QS", "5D", "3H", "2C"], ["5H", "KC", "QC", "JC"], OTHERS)
    assert refused(state, 0, {"type": "build", "card": "5H", "on": "QS", "value": 17}) == "build_too_high"
    assert not [a for a in kazino.legal_actions(state, 0) if a.get("on") == "QS" and a["type"] == "build"]


def test_the_opponent_may_raise_a_build_and_it_becomes_theirs():
    state = new_game(["8S", "4D", "6H", "2C"], ["5H", "KC", "10C", "JC"], ["AS", "AD", "9D", "10D"])
    state = play(state, 0, {"type": "build", "card": "5H", "on": "8S", "value": 13})
    raise_ = {"type": "build", "card": "AS", "on": "8S", "value": 14}
    assert raise_ in kazino.legal_actions(state, 1)
    state = play(state, 1, raise_)
    assert {"cards": ["8S", "5H", "AS"], "kind": "build", "value": 14, "owner": 1} in table_of(state)
    # Seat 0 no longer owns a build: trailing is allowed again.
    assert {"type": "trail", "card": "10C"} in kazino.legal_actions(state, 0)


def test_raising_needs_a_card_of_the_new_value():
    state = new_game(["8S", "4D", "6H", "2C"], ["5H", "KC", "10C", "JC"], ["AS", "QD", "9D", "10D"])
    state = play(state, 0, {"type": "build", "card": "5H", "on": "8S", "value": 13})
    assert refused(state, 1, {"type": "build", "card": "AS", "on": "8S", "value": 14}) == "must_hold_capturer"


def test_the_owner_raises_their_own_build_when_they_hold_the_new_value():
    state = new_game(["6S", "4D", "5H", "9S"], ["2H", "8C", "AC", "9C"], ["AS", "QD", "9D", "10D"])
    state = play(state, 0, {"type": "build", "card": "2H", "on": "6S", "value": 8})
    state = play(state, 1, {"type": "trail", "card": "QD"})
    raise_ = {"type": "build", "card": "AC", "on": "6S", "value": 9}
    assert raise_ in kazino.legal_actions(state, 0)
    state = play(state, 0, raise_)
    assert {"cards": ["6S", "2H", "AC"], "kind": "build", "value": 9, "owner": 0} in table_of(state)


def test_no_move_may_leave_an_owned_tripe_without_a_card_of_its_rank():
    state = new_game(["7S", "4D", "5H", "9S"], ["7H", "7D", "JC", "2C"], ["AS", "QD", "9D", "10D"])
    state = play(state, 0, {"type": "tripe", "card": "7H", "on": "7S"})
    state = play(state, 1, {"type": "trail", "card": "QD"})
    # 7D on 4D would build 11 (JC in hand) but leave the tripe of 7s without a 7.
    assert refused(state, 0, {"type": "build", "card": "7D", "on": "4D", "value": 11}) == "must_keep_capturer"
    assert {"type": "build", "card": "2C", "on": "9S", "value": 11} in kazino.legal_actions(state, 0)


def test_capturing_your_build_with_your_last_capturing_card_is_allowed():
    state = new_game(["8S", "4D", "6H", "2C"], ["5H", "KC", "10C", "JC"], ["AS", "QD", "9D", "10D"])
    state = play(state, 0, {"type": "build", "card": "5H", "on": "8S", "value": 13})
    state = play(state, 1, {"type": "trail", "card": "QD"})
    assert captures(state, 0, "KC")
    assert not [a for a in kazino.legal_actions(state, 0) if a["card"] == "KC" and a["type"] != "capture"]
