"""Skyjo rules on stacked decks: every worked example of rules/skyjo.md, each rule and [decision].

Cells are numbered row by row: cell = 4 * row + column; column c holds cells c, c+4, c+8.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from games.engines import IllegalAction, get
from games.engines.skyjo.rules import first_player, places, round_points
from games.engines.skyjo.state import FULL_DECK

skyjo = get("skyjo")

# Two grids with no column of three equal cards; each adds up to 12.
TWELVE_A = [5, 4, 1, 2, -1, 0, 1, 0, 0, 1, -1, 0]
TWELVE_B = [3, 2, 1, 1, 0, 1, 2, 0, -1, 2, 0, 1]


def stacked(grids: list[list[int]], discard: int, draw: list[int] | None = None) -> list[int]:
    """A full deck dealing ``grids`` (seat by seat, cell order), then ``discard``, then ``draw`` on top."""
    draw = draw or []
    used = [card for grid in grids for card in grid] + [discard] + draw
    assert all(len(grid) == 12 for grid in grids)
    rest = Counter(FULL_DECK) - Counter(used)
    assert sum(rest.values()) == len(FULL_DECK) - len(used), "the stacked cards are not in the deck"
    return used + list(rest.elements())


class Table:
    """A game driven through the public contract, for scripted tests."""

    def __init__(
        self,
        grids: list[list[int]],
        discard: int = 0,
        draw: list[int] | None = None,
        target: int = 100,
        seed: int = 7,
    ) -> None:
        config = skyjo.validate_config(
            {"players": len(grids), "target": target, "deck": stacked(grids, discard, draw)}
        )
        self.events = skyjo.start(config, seed)
        self.state = skyjo.replay(self.events)

    def act(self, seat: int, kind: str, cell: int | None = None) -> list[dict[str, Any]]:
        action: dict[str, Any] = {"type": kind} if cell is None else {"type": kind, "cell": cell}
        events = skyjo.decide(self.state, seat, action)
        for event in events:
            self.state = skyjo.apply(self.state, event)
        self.events.extend(events)
        return events

    def open(self, *cells: tuple[int, int]) -> list[dict[str, Any]]:
        """Each seat in turn reveals its two opening cells."""
        events = []
        for seat, pair in enumerate(cells):
            for cell in pair:
                events += self.act(seat, "reveal", cell)
        return events

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return skyjo.view(self.state, seat)

    def refused(self, seat: int, kind: str, cell: int | None = None) -> str:
        action: dict[str, Any] = {"type": kind} if cell is None else {"type": kind, "cell": cell}
        with pytest.raises(IllegalAction) as info:
            skyjo.decide(self.state, seat, action)
        return info.value.code

    def turn_until_round_ends(self) -> dict[str, Any]:
        """Every seat turns its first hidden card, in turn, until the round is scored."""
        hand = self.state.hand
        while True:
            seat = skyjo.to_act(self.state)[0]
            hidden = [i for i, cell in enumerate(self.view()["grids"][seat]) if cell["status"] == "hidden"]
            for event in self.act(seat, "turn", hidden[0]):
                if event["type"] == "round_ended":
                    assert event["hand"] == hand
                    return event


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


# ---------------------------------------------------------------- worked examples


def test_worked_example_1_a_seven_placed_between_two_sevens_wipes_the_column():
    grid = [7, 3, 4, 5, 9, 6, 8, 10, 7, 11, 12, 2]  # column 0 reads 7 / 9 / 7
    table = Table([grid, TWELVE_B], discard=7)
    table.open((0, 8), (1, 2))  # seat 0 shows 7 + 7 and starts
    assert table.state.turn == 0
    events = table.act(0, "take_discard", 4)
    assert types(events) == ["took_discard", "wiped", "next_turn"]
    assert events[1] == {"type": "wiped", "seat": 0, "column": 0, "cards": [7, 7, 7]}
    view = table.view()
    assert view["discard"][:4] == [7, 7, 7, 9], "the swapped-out 9 goes first, the three 7s on top of it"
    assert [view["grids"][0][cell]["status"] for cell in (0, 4, 8)] == ["wiped"] * 3
    live_columns = {cell % 4 for cell, c in enumerate(view["grids"][0]) if c["status"] != "wiped"}
    assert live_columns == {1, 2, 3}, "the grid has three columns left"


@pytest.mark.parametrize(
    ("closer_total", "other_total", "scored"),
    [(12, 12, 24), (-3, -5, -3), (0, -1, 0)],
    ids=["tie-doubles", "negative-never-doubled", "zero-never-doubled"],
)
def test_worked_example_2_the_closer_is_doubled_unless_strictly_lowest(closer_total, other_total, scored):
    points, _doubled = round_points([closer_total, other_total], closer=0)
    assert points == [scored, other_total]


def test_worked_example_2_a_closer_tied_at_twelve_scores_twenty_four_in_play():
    table = Table([TWELVE_A, TWELVE_B])
    table.open((0, 1), (0, 1))  # 5 + 4 against 3 + 2: seat 0 starts
    ended = table.turn_until_round_ends()
    assert ended["closer"] == 0
    assert ended["totals"] == [12, 12]
    assert ended["doubled"] is True
    assert ended["points"] == [24, 12]
    assert table.view()["scores"] == [24, 12]


def test_worked_example_3_on_equal_totals_the_highest_single_card_starts():
    grid_b = [9, 0, 1, 2, 3, 4, 5, 6, 8, 10, 11, 12]
    table = Table([TWELVE_A, grid_b])
    events = table.open((0, 1), (0, 1))  # A: 5 + 4 = 9, B: 9 + 0 = 9
    assert events[-1] == {"type": "round_started", "hand": 1, "seat": 1}
    assert table.state.turn == 1 and skyjo.to_act(table.state) == [1]


# ---------------------------------------------------------------- set-up and deal


def test_the_deck_has_150_cards_in_the_rule_page_counts():
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 150
    assert counts[-2] == 5 and counts[-1] == 10 and counts[0] == 15
    assert all(counts[value] == 10 for value in range(1, 13))


def test_a_stacked_deck_deals_twelve_cards_per_seat_in_cell_order_then_the_discard_then_the_draw_pile():
    deck = sorted(FULL_DECK, reverse=True)
    events = skyjo.start({"players": 3, "deck": deck}, 1)
    deal = events[1]
    assert deal["grids"] == [deck[0:12], deck[12:24], deck[24:36]]
    assert deal["discard"] == deck[36]
    assert deal["draw_pile"] == deck[37:]
    state = skyjo.replay(events)
    assert skyjo.view(state, None)["discard"] == [deck[36]]
    assert skyjo.view(state, None)["draw_pile"] == 150 - 37


def test_the_first_event_carries_the_config_and_the_seed():
    events = skyjo.start({"players": 2}, 424242)
    assert events[0] == {"type": "setup", "config": {"players": 2, "target": 100}, "seed": 424242}


def test_later_deals_come_from_the_seed_not_the_stacked_deck():
    def second_deal(seed: int) -> dict[str, Any]:
        table = Table([TWELVE_A, TWELVE_B], seed=seed)
        table.open((0, 1), (0, 1))
        table.turn_until_round_ends()
        return table.events[-1]

    first, again, other = second_deal(5), second_deal(5), second_deal(6)
    assert first["type"] == "dealt" and first["hand"] == 2
    assert first == again, "the same seed deals the same next round"
    assert first != other, "another seed deals another next round"
    assert Counter(c for grid in first["grids"] for c in grid) + Counter(
        first["draw_pile"] + [first["discard"]]
    ) == (Counter(FULL_DECK))


def test_without_a_deck_the_seed_decides_the_first_deal():
    assert skyjo.start({"players": 2}, 3) == skyjo.start({"players": 2}, 3)
    assert skyjo.start({"players": 2}, 3)[1] != skyjo.start({"players": 2}, 4)[1]


# ---------------------------------------------------------------- configs


def test_the_default_config_has_a_target_of_100():
    assert skyjo.default_config(4) == {"players": 4, "target": 100}


def test_two_to_eight_players_may_play():
    for players in range(2, 9):
        assert skyjo.validate_config({"players": players})["players"] == players
    for players in (1, 9, True, "3", None):
        with pytest.raises(IllegalAction) as info:
            skyjo.validate_config({"players": players})
        assert info.value.code == "bad_players"


def test_a_table_may_choose_another_target():
    assert skyjo.validate_config({"players": 2, "target": 50}) == {"players": 2, "target": 50}
    for target in (0, -5, 2.5, "100", True):
        with pytest.raises(IllegalAction) as info:
            skyjo.validate_config({"players": 2, "target": target})
        assert info.value.code == "bad_target"


@pytest.mark.parametrize(
    "deck",
    [
        list(range(150)),
        sorted(FULL_DECK)[:-1],
        [*sorted(FULL_DECK)[:-1], 13],
        "cards",
        [*sorted(FULL_DECK)[:-1], 12.0],
    ],
)
def test_a_stacked_deck_must_hold_exactly_the_150_cards(deck):
    with pytest.raises(IllegalAction) as info:
        skyjo.validate_config({"players": 2, "deck": deck})
    assert info.value.code == "bad_deck"


def test_unknown_options_are_refused_by_name():
    with pytest.raises(IllegalAction) as info:
        skyjo.validate_config({"players": 2, "jokers": True})
    assert info.value.code == "unknown_option"
    assert "jokers" in info.value.text


# ---------------------------------------------------------------- the opening


def test_every_seat_chooses_its_opening_cards_independently_and_in_any_order():
    table = Table([TWELVE_A, TWELVE_B, sorted(TWELVE_A)])
    assert skyjo.to_act(table.state) == [0, 1, 2]
    assert table.state.phase == "opening"
    table.act(2, "reveal", 11)
    table.act(1, "reveal", 0)
    table.act(2, "reveal", 5)
    assert skyjo.to_act(table.state) == [0, 1], "seat 2 has chosen both cards"
    assert table.refused(2, "reveal", 3) == "already_opened"
    table.act(0, "reveal", 3)
    table.act(1, "reveal", 1)
    events = table.act(0, "reveal", 4)
    assert types(events) == ["revealed", "round_started"]
    assert table.state.phase == "play"


def test_an_opening_card_is_public_as_soon_as_it_is_turned():
    table = Table([TWELVE_A, TWELVE_B])
    table.act(0, "reveal", 0)
    for who in (None, 0, 1):
        assert table.view(who)["grids"][0][0] == {"status": "up", "card": 5}


def test_only_reveals_are_allowed_during_the_opening_and_not_the_same_cell_twice():
    table = Table([TWELVE_A, TWELVE_B])
    assert table.refused(0, "take_discard", 0) == "opening"
    assert table.refused(0, "draw") == "opening"
    assert table.refused(0, "turn", 0) == "opening"
    table.act(0, "reveal", 0)
    assert table.refused(0, "reveal", 0) == "cell_face_up"
    assert skyjo.legal_actions(table.state, 0) == [{"type": "reveal", "cell": c} for c in range(1, 12)]


def test_the_highest_opening_total_starts():
    assert first_player([[5, 4], [9, 1], [3, 3]]) == 1


def test_on_equal_totals_and_equal_highest_cards_the_lowest_seat_starts():
    assert first_player([[1, 1], [6, 4], [10, 0], [6, 4]]) == 2
    assert first_player([[1, 1], [6, 4], [4, 6]]) == 1
    table = Table([TWELVE_A, [5, 4, *TWELVE_B[2:]]])
    events = table.open((0, 1), (0, 1))
    assert events[-1]["seat"] == 0


def test_every_round_opens_with_a_new_choice_of_two_cards():
    table = Table([TWELVE_A, TWELVE_B])
    table.open((0, 1), (0, 1))
    table.turn_until_round_ends()
    view = table.view()
    assert view["hand"] == 2 and view["phase"] == "opening"
    assert view["to_act"] == [0, 1]
    assert all(cell["status"] == "hidden" for grid in view["grids"] for cell in grid)
    assert view["starter"] is None and view["closer"] is None


def test_play_goes_around_in_seat_order_from_the_starter():
    grids = [TWELVE_B, [0, 1, 6, 7, 8, 9, 10, 11, 12, 6, 7, 8], TWELVE_A]
    table = Table(grids)
    table.open((0, 1), (0, 1), (0, 1))  # totals 5, 1, 9: seat 2 starts
    order = []
    for _ in range(5):
        seat = skyjo.to_act(table.state)[0]
        order.append(seat)
        hidden = next(i for i, c in enumerate(table.view()["grids"][seat]) if c["status"] == "hidden")
        table.act(seat, "turn", hidden)
    assert order == [2, 0, 1, 2, 0]


# ---------------------------------------------------------------- a turn


def opened_pair() -> Table:
    table = Table([TWELVE_A, TWELVE_B], discard=11, draw=[-2, 6, 9])
    table.open((0, 1), (0, 1))  # seat 0 starts
    return table


def test_option_a_takes_the_top_discard_onto_a_hidden_cell_and_discards_what_was_there_face_up():
    table = opened_pair()
    events = table.act(0, "take_discard", 6)
    assert events[0] == {"type": "took_discard", "seat": 0, "cell": 6, "card": 11, "replaced": 1}
    view = table.view()
    assert view["grids"][0][6] == {"status": "up", "card": 11}
    assert view["discard"][0] == 1
    assert view["turn"] == 1


def test_option_a_may_replace_a_face_up_card():
    table = opened_pair()
    table.act(0, "take_discard", 0)
    assert table.view()["grids"][0][0] == {"status": "up", "card": 11}
    assert table.view()["discard"][0] == 5


def test_option_b1_places_the_drawn_card_and_discards_the_replaced_one():
    table = opened_pair()
    assert table.act(0, "draw") == [{"type": "drew", "seat": 0, "card": -2}]
    assert skyjo.to_act(table.state) == [0]
    assert table.refused(0, "take_discard", 3) == "must_use_drawn"
    assert table.refused(0, "draw") == "must_use_drawn"
    assert table.refused(0, "turn", 3) == "must_use_drawn"
    events = table.act(0, "place", 3)
    assert events[0] == {"type": "placed", "seat": 0, "cell": 3, "card": -2, "replaced": 2}
    assert table.view()["grids"][0][3] == {"status": "up", "card": -2}
    assert table.view()["discard"][:2] == [2, 11]
    assert table.view()["drawn"] is None


def test_option_b2_discards_the_drawn_card_and_then_turns_a_hidden_card():
    table = opened_pair()
    table.act(0, "draw")
    assert table.refused(0, "discard", 0) == "cell_face_up", "the card to turn must be hidden"
    events = table.act(0, "discard", 5)
    assert types(events) == ["discarded", "turned", "next_turn"]
    view = table.view()
    assert view["discard"][:2] == [-2, 11]
    assert view["grids"][0][5] == {"status": "up", "card": 0}


def test_option_c_just_turns_a_hidden_card_and_ends_the_turn():
    table = opened_pair()
    events = table.act(0, "turn", 2)
    assert types(events) == ["turned", "next_turn"]
    assert table.view()["grids"][0][2] == {"status": "up", "card": 1}
    assert table.view()["discard"] == [11]
    assert table.refused(1, "turn", 0) == "cell_face_up"


def test_place_and_discard_need_a_drawn_card():
    table = opened_pair()
    assert table.refused(0, "place", 3) == "nothing_drawn"
    assert table.refused(0, "discard", 3) == "nothing_drawn"


def test_the_legal_actions_of_a_turn_are_take_discard_draw_or_turn():
    table = opened_pair()
    legal = skyjo.legal_actions(table.state, 0)
    assert [a for a in legal if a["type"] == "take_discard"] == [
        {"type": "take_discard", "cell": c} for c in range(12)
    ]
    assert {"type": "draw"} in legal
    assert [a["cell"] for a in legal if a["type"] == "turn"] == list(range(2, 12))
    assert skyjo.legal_actions(table.state, 1) == []


# ---------------------------------------------------------------- columns


def test_a_wipe_after_a_drawn_card_is_discarded_puts_the_column_on_top_of_it():
    grid = [3, 4, 5, 6, 3, 7, 8, 9, 3, 10, 11, 12]  # column 0: 3 / 3 / 3
    table = Table([grid, TWELVE_B], draw=[-2])
    table.open((0, 4), (0, 1))
    table.act(0, "draw")
    events = table.act(0, "discard", 8)
    assert types(events) == ["discarded", "turned", "wiped", "next_turn"]
    assert table.view()["discard"][:4] == [3, 3, 3, -2]


def test_a_column_is_wiped_when_its_last_card_is_just_turned():
    grid = [3, 4, 5, 6, 3, 7, 8, 9, 3, 10, 11, 12]
    table = Table([grid, TWELVE_B])
    table.open((0, 4), (0, 1))
    events = table.act(0, "turn", 8)
    assert types(events) == ["turned", "wiped", "next_turn"]


def test_a_placed_card_on_a_face_up_cell_can_complete_a_column():
    grid = [3, 4, 5, 6, 3, 7, 8, 9, 2, 10, 11, 12]  # column 0: 3 / 3 / 2
    table = Table([grid, TWELVE_B], discard=3)
    table.open((0, 4), (0, 1))
    table.act(0, "turn", 8)
    table.act(1, "turn", 2)
    events = table.act(0, "take_discard", 8)
    assert types(events) == ["took_discard", "wiped", "next_turn"]
    assert table.view()["discard"][:4] == [3, 3, 3, 2]


def test_a_wiped_column_takes_no_more_cards_and_its_cells_no_longer_count():
    grid = [3, 4, 5, 6, 3, 7, 8, 9, 3, 10, 11, 12]
    table = Table([grid, TWELVE_B])
    table.open((0, 4), (0, 1))
    table.act(0, "turn", 8)
    table.act(1, "turn", 2)
    for kind in ("take_discard", "turn"):
        assert table.refused(0, kind, 4) == "cell_wiped"
    assert all(a.get("cell") not in (0, 4, 8) for a in skyjo.legal_actions(table.state, 0))
    assert table.view()["showing"][0] == 0


def test_columns_are_wiped_at_the_final_reveal_and_do_not_count():
    grid_a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    grid_b = [12, 0, 0, 0, 12, 1, 1, 1, 12, 2, 2, 3]  # column 0: 12 / 12 / 12, revealed only at the end
    table = Table([grid_a, grid_b], discard=0, target=1000)
    table.open((10, 11), (1, 2))  # seat 0 shows 23 and starts
    for cell in range(10):
        table.act(0, "turn", cell)  # seat 0 turns its whole grid and closes on cell 9
        events = table.act(1, "take_discard", 1)  # seat 1 swaps a 0 for a 0 and keeps its grid hidden
    kinds = types(events)
    assert kinds == ["took_discard", "final_reveal", "wiped", "round_ended", "dealt"]
    assert events[1] == {
        "type": "final_reveal",
        "seat": 1,
        "cells": [0, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        "cards": [12, 0, 12, 1, 1, 1, 12, 2, 2, 3],
    }
    assert events[2] == {"type": "wiped", "seat": 1, "column": 0, "cards": [12, 12, 12]}
    ended = events[3]
    assert [ended["grids"][1][cell] for cell in (0, 4, 8)] == [None, None, None]
    assert ended["totals"] == [78, 10]
    assert ended["points"] == [156, 10]


# ---------------------------------------------------------------- the draw pile


def test_when_the_draw_pile_runs_out_all_discards_but_the_top_one_are_reshuffled():
    table = opened_pair()
    before = Counter(skyjo.components(table.state))
    draws = table.view()["draw_pile"]
    for step in range(draws):
        seat = skyjo.to_act(table.state)[0]
        events = table.act(seat, "draw")
        if step < draws - 1:
            assert types(events) == ["drew"]
            table.act(seat, "place", 0)  # always the face-up cell 0, so nothing else turns
    assert types(events) == ["drew", "reshuffled"]
    view = table.view(seat)
    discard_before = [e for e in table.events if e["type"] == "placed"][-1]  # its replaced card was on top
    assert view["discard"] == [discard_before["replaced"]], "only the top discard stays"
    assert view["draw_pile"] == len(events[1]["draw_pile"]) > 50
    assert view["reshuffles"] == 1
    assert Counter(skyjo.components(table.state)) == before
    table.act(seat, "place", 1)
    assert table.view()["discard"][1] == discard_before["replaced"]


# ---------------------------------------------------------------- closing and scoring


def test_after_the_close_every_other_player_has_exactly_one_more_turn():
    grids = [TWELVE_B, TWELVE_A, [-1, -2, 6, 7, 8, 9, 10, 11, 12, 6, 7, 8]]
    table = Table(grids, target=1000)
    table.open((0, 1), (0, 1), (0, 1))  # 5, 9, -3: seat 1 starts, then 2, then 0
    for cell in range(2, 12):
        table.act(1, "turn", cell)  # seat 1 turns its grid
        if cell == 11:
            break
        table.act(2, "turn", cell)
        table.act(0, "turn", cell)
    assert table.state.closer == 1 and table.events[-2]["type"] == "closed"
    assert skyjo.to_act(table.state) == [2]
    table.act(2, "turn", 11)  # seat 2 turns its last card: it does not close, seat 1 already has
    assert table.state.closer == 1
    assert skyjo.to_act(table.state) == [0]
    events = table.act(0, "turn", 11)
    assert "round_ended" in types(events), "the round ends before the closer plays again"


def test_the_closer_is_not_doubled_when_strictly_lowest():
    points, doubled = round_points([10, 11, 30], closer=0)
    assert (points, doubled) == ([10, 11, 30], False)


def test_a_single_tie_with_the_closer_doubles_the_closers_total():
    assert round_points([30, 10, 10, 40], closer=1) == ([30, 20, 10, 40], True)


def test_a_closer_beaten_by_another_player_is_doubled():
    assert round_points([8, 3], closer=0) == ([16, 3], True)


def test_a_negative_closer_is_never_doubled():
    assert round_points([-1, -9], closer=0) == ([-1, -9], False)


def test_the_closer_strictly_lowest_in_play_keeps_their_total():
    low = [0, 1, -1, 2, -1, 0, 1, -2, 0, 1, -1, 0]  # total 0
    table = Table([TWELVE_A, low])
    table.open((0, 1), (0, 1))
    ended = table.turn_until_round_ends()
    assert ended["closer"] == 0 and ended["totals"] == [12, 0]
    assert ended["points"] == [24, 0]
    table = Table([low, TWELVE_A])
    table.open((0, 3), (10, 11))  # 0 + 2 against -1 + 0: seat 0 starts and closes with 0
    ended = table.turn_until_round_ends()
    assert ended["closer"] == 0 and ended["points"] == [0, 12] and ended["doubled"] is False


# ---------------------------------------------------------------- end of the game


def test_the_game_ends_after_the_round_in_which_someone_reaches_the_target():
    table = Table([TWELVE_A, TWELVE_B], target=24)
    table.open((0, 1), (0, 1))
    table.turn_until_round_ends()
    assert table.events[-1] == {"type": "game_ended", "scores": [24, 12], "winners": [1], "places": [2, 1]}
    assert skyjo.to_act(table.state) == []
    outcome = skyjo.outcome(table.state)
    assert outcome is not None
    assert outcome["winners"] == [1] and outcome["places"] == [2, 1] and outcome["scores"] == [24, 12]
    assert table.view()["finished"] is True
    assert table.refused(0, "turn", 0) == "game_over"


def test_below_the_target_a_new_round_is_dealt():
    table = Table([TWELVE_A, TWELVE_B], target=25)
    table.open((0, 1), (0, 1))
    table.turn_until_round_ends()
    assert table.events[-1]["type"] == "dealt"
    assert skyjo.outcome(table.state) is None


def test_equal_lowest_totals_share_the_win():
    table = Table([TWELVE_A, TWELVE_B], target=30)
    table.state = replace(table.state, scores=(6, 18))  # as if after earlier rounds
    table.open((0, 1), (0, 1))
    table.turn_until_round_ends()  # +24 and +12
    outcome = skyjo.outcome(table.state)
    assert outcome is not None
    assert outcome["scores"] == [30, 30]
    assert outcome["winners"] == [0, 1]
    assert outcome["places"] == [1, 1]


def test_places_share_ties_and_skip_after_them():
    assert places([10, 5, 10, 20]) == [2, 1, 2, 4]


# ---------------------------------------------------------------- bad input


def test_bad_input_of_any_shape_is_refused_with_a_stable_code():
    table = opened_pair()
    cases: list[tuple[Any, Any, str]] = [
        (0, None, "bad_action"),
        (0, "turn", "bad_action"),
        (0, {"type": 3}, "bad_action"),
        (0, {"type": "fly"}, "unknown_action"),
        (0, {"type": "turn"}, "missing_cell"),
        (0, {"type": "turn", "cell": 12}, "bad_cell"),
        (0, {"type": "turn", "cell": -1}, "bad_cell"),
        (0, {"type": "turn", "cell": "3"}, "bad_cell"),
        (0, {"type": "turn", "cell": True}, "bad_cell"),
        (0, {"type": "turn", "cell": 3.0}, "bad_cell"),
        (0, {"type": "turn", "cell": 3, "row": 1}, "unexpected_field"),
        (0, {"type": "draw", "cell": 3}, "unexpected_field"),
        (0, {"type": "reveal", "cell": 3}, "not_opening"),
        (1, {"type": "turn", "cell": 3}, "not_your_turn"),
        (2, {"type": "turn", "cell": 3}, "no_such_seat"),
        (-1, {"type": "turn", "cell": 3}, "no_such_seat"),
        ("0", {"type": "turn", "cell": 3}, "no_such_seat"),
    ]
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as info:
            skyjo.decide(table.state, seat, action)
        assert info.value.code == code, (seat, action)
        assert info.value.text and "{" not in info.value.text


def test_a_view_for_a_seat_that_does_not_exist_is_refused():
    table = opened_pair()
    for seat in (2, -1, "0", True):
        with pytest.raises(IllegalAction):
            skyjo.view(table.state, seat)
