"""Kazino rules (rules/kazino.md): every worked example and each rule and [decision], on stacked decks.

Stacked decks follow docs/games/kazino.md: the first 4 cards go to the table, the next 4 to the
non-dealer (who plays first), the next 4 to the dealer. These tests make seat 1 the dealer, so
seat 0 holds ``first`` and plays first; seat 1 holds ``second``.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import IllegalAction, get
from games.engines.kazino.cards import DECK
from games.engines.kazino.state import State

kazino = get("kazino")


def stacked(
    table: list[str], first: list[str], second: list[str], later: list[str] | None = None
) -> list[str]:
    front = table + first + second + (later or [])
    return front + [c for c in DECK if c not in front]


def new_game(table: list[str], first: list[str], second: list[str], **options: Any) -> State:
    later = options.pop("later", None)
    config = {"players": 2, "dealer": 1, "deck": stacked(table, first, second, later), **options}
    state: State = kazino.replay(kazino.start(config, 7))
    return state


def play(state: State, seat: int, action: dict[str, Any]) -> State:
    for event in kazino.decide(state, seat, action):
        state = kazino.apply(state, event)
    return state


def refused(state: State, seat: int, action: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        kazino.decide(state, seat, action)
    assert info.value.text
    return info.value.code


def captures(state: State, seat: int, card: str, value: int | None = None) -> list[dict[str, Any]]:
    return [
        a
        for a in kazino.legal_actions(state, seat)
        if a["type"] == "capture" and a["card"] == card and (value is None or a["value"] == value)
    ]


def table_of(state: State) -> list[dict[str, Any]]:
    return kazino.view(state, None)["table"]


# Worked example 1 ---------------------------------------------------------------------------------


def test_an_ace_as_14_takes_10_plus_4_and_queen_plus_2_five_cards_with_the_ace():
    state = new_game(["10H", "4S", "QC", "2D"], ["AS", "3C", "5C", "6C"], ["7D", "8D", "9D", "JD"])
    expected = {"type": "capture", "card": "AS", "value": 14, "groups": [["2D", "QC"], ["4S", "10H"]]}
    assert captures(state, 0, "AS", 14) == [expected]
    after = play(state, 0, expected)
    assert kazino.view(after, None)["captured_counts"] == [5, 0]
    assert table_of(after) == []
    assert kazino.view(after, None)["last_capturer"] == 0


def test_the_ace_as_14_may_not_take_only_one_of_the_two_groups():
    state = new_game(["10H", "4S", "QC", "2D"], ["AS", "3C", "5C", "6C"], ["7D", "8D", "9D", "JD"])
    action = {"type": "capture", "card": "AS", "value": 14, "groups": [["4S", "10H"]]}
    assert refused(state, 0, action) == "must_capture_most"


def test_trailing_the_ace_is_also_legal_in_the_first_example():
    state = new_game(["10H", "4S", "QC", "2D"], ["AS", "3C", "5C", "6C"], ["7D", "8D", "9D", "JD"])
    assert {"type": "trail", "card": "AS"} in kazino.legal_actions(state, 0)
    after = play(state, 0, {"type": "trail", "card": "AS"})
    assert [p["cards"] for p in table_of(after)][-1] == ["AS"]


# Worked example 2 ---------------------------------------------------------------------------------


def test_five_on_eight_builds_13_when_you_hold_a_king():
    state = new_game(["8S", "2C", "3D", "4H"], ["5H", "KC", "9C", "10C"], ["7D", "8D", "9D", "JD"])
    build = {"type": "build", "card": "5H", "on": "8S", "value": 13}
    assert build in kazino.legal_actions(state, 0)
    after = play(state, 0, build)
    assert {"cards": ["8S", "5H"], "kind": "build", "value": 13, "owner": 0} in table_of(after)


def test_five_on_eight_is_refused_without_a_king():
    state = new_game(["8S", "2C", "3D", "4H"], ["5H", "QC", "9C", "10C"], ["7D", "8D", "9D", "JD"])
    build = {"type": "build", "card": "5H", "on": "8S", "value": 13}
    assert build not in kazino.legal_actions(state, 0)
    assert refused(state, 0, build) == "must_hold_capturer"


# Worked example 3 ---------------------------------------------------------------------------------


def tripe_of_sevens() -> State:
    state = new_game(["7S", "3C", "4D", "JH"], ["7H", "7D", "9C", "10C"], ["AS", "2C", "6D", "KD"])
    return play(state, 0, {"type": "tripe", "card": "7H", "on": "7S"})


def test_seven_on_seven_makes_a_tripe_when_you_hold_another_seven():
    state = tripe_of_sevens()
    assert {"cards": ["7S", "7H"], "kind": "tripe", "value": 7, "owner": 0} in table_of(state)


def test_an_ace_as_14_cannot_take_a_tripe_of_sevens():
    state = tripe_of_sevens()
    for action in captures(state, 1, "AS"):
        assert "7S" not in [c for g in action["groups"] for c in g]
    sevens = {"type": "capture", "card": "AS", "value": 14, "groups": [["7S", "7H"]]}
    assert refused(state, 1, sevens) == "cannot_take_pile"


def test_nobody_may_add_a_two_to_a_tripe_of_sevens():
    state = tripe_of_sevens()
    assert not [a for a in kazino.legal_actions(state, 1) if a.get("on") == "7S"]
    assert refused(state, 1, {"type": "build", "card": "2C", "on": "7S", "value": 16}) == "tripe_locked"


def test_a_tripe_needs_another_card_of_the_rank_in_hand():
    state = new_game(["7S", "3C", "4D", "JH"], ["7H", "8D", "9C", "10C"], ["AS", "2C", "6D", "KD"])
    assert refused(state, 0, {"type": "tripe", "card": "7H", "on": "7S"}) == "must_hold_rank"


def test_only_a_card_of_the_rank_captures_a_tripe():
    state = play(tripe_of_sevens(), 1, {"type": "trail", "card": "2C"})
    take = captures(state, 0, "7D")
    assert take == [{"type": "capture", "card": "7D", "value": 7, "groups": [["3C", "4D"], ["7S", "7H"]]}]


def test_an_opponent_holding_one_seven_may_not_add_it_to_the_tripe():
    state = new_game(["7S", "3C", "4D", "JH"], ["7H", "7D", "9C", "10C"], ["7C", "2C", "6D", "KD"])
    state = play(state, 0, {"type": "tripe", "card": "7H", "on": "7S"})
    assert {"type": "tripe", "card": "7C", "on": "7S"} not in kazino.legal_actions(state, 1)
    assert refused(state, 1, {"type": "tripe", "card": "7C", "on": "7S"}) == "must_hold_rank"


def test_a_player_holding_two_more_of_the_rank_adds_one_and_the_tripe_holds_three_cards():
    state = new_game(["7S", "3C", "4D", "JH"], ["7H", "7D", "7C", "10C"], ["AS", "2C", "6D", "KD"])
    state = play(state, 0, {"type": "tripe", "card": "7H", "on": "7S"})
    state = play(state, 1, {"type": "trail", "card": "2C"})
    state = play(state, 0, {"type": "tripe", "card": "7D", "on": "7S"})
    assert {"cards": ["7S", "7H", "7D"], "kind": "tripe", "value": 7, "owner": 0} in table_of(state)
    state = play(state, 1, {"type": "trail", "card": "6D"})
    assert refused(state, 0, {"type": "tripe", "card": "7C", "on": "7S"}) == "must_hold_rank"


# Worked example 4 ---------------------------------------------------------------------------------


def owner_of_a_13_build() -> State:
    state = new_game(["8S", "2C", "4D", "JH"], ["5H", "KC", "3C", "10C"], ["7D", "8D", "9D", "QD"])
    state = play(state, 0, {"type": "build", "card": "5H", "on": "8S", "value": 13})
    return play(state, 1, {"type": "trail", "card": "9D"})


def test_the_owner_of_a_build_of_13_may_not_trail_a_three():
    state = owner_of_a_13_build()
    assert not [a for a in kazino.legal_actions(state, 0) if a["type"] == "trail"]
    assert refused(state, 0, {"type": "trail", "card": "3C"}) == "must_not_trail"


def test_the_owner_of_a_build_of_13_may_capture_it_with_the_king():
    state = owner_of_a_13_build()
    groups = [["2C", "JH"], ["4D", "9D"], ["5H", "8S"]]
    take = {"type": "capture", "card": "KC", "value": 13, "groups": groups}
    assert captures(state, 0, "KC") == [take]
    after = play(state, 0, take)
    assert kazino.view(after, None)["captured_counts"] == [7, 0]


# Worked example 5 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [(30, 10), (26, 0), (48, 30), (0, 0), (27, 10), (32, 10), (33, 15), (35, 15), (36, 20), (39, 20)]
    + [(40, 25), (47, 25), (52, 30)],
)
def test_cards_captured_score_by_band(cards, points):
    from games.engines.kazino.cards import card_points

    assert card_points(cards) == points
