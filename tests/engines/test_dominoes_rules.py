"""Dominoes (rules/dominoes.md): every worked example and every rule, on stacked decks.

Deal order for ``config["deck"]``: seat 0 takes the first tiles, seat 1 the next, and so on;
the rest is the boneyard, top first. Scores are in half-points (score_scale 2).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import dominoes as d
from games.engines.dominoes.config import tiles_per_player
from games.engines.dominoes.rules import round5
from games.engines.dominoes.state import EMPTY_LAYOUT, END_ID, Layout, State
from games.engines.dominoes.tiles import TILE_ID, TILE_NAMES

# ---------------------------------------------------------------- helpers


def stacked(
    players: int, variant: str, hands: list[list[str]], boneyard: list[str] | None = None, **options: Any
) -> State:
    """A game dealt from a stacked deck: each hand starts with the tiles given, then fillers."""
    k = tiles_per_player(variant, players)
    listed = [t for hand in hands for t in hand] + list(boneyard or [])
    assert len(set(listed)) == len(listed)
    rest = [t for t in TILE_NAMES if t not in listed]
    deck: list[str] = []
    for seat in range(players):
        hand = list(hands[seat]) if seat < len(hands) else []
        while len(hand) < k:
            hand.append(rest.pop(0))
        deck.extend(hand)
    deck.extend(boneyard or [])
    deck.extend(rest)
    config = d.validate_config({"players": players, "variant": variant, "deck": deck, "first": 0, **options})
    return d.replay(d.start(config, 7))


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    events = d.decide(state, seat, action)
    for event in events:
        state = d.apply(state, event)
    return state, events


def play(state: State, seat: int, tile: str, end: str) -> tuple[State, list[dict[str, Any]]]:
    return act(state, seat, {"type": "play", "tile": tile, "end": end})


def position(
    players: int,
    variant: str,
    hands: list[list[str]],
    layout: list[tuple[str, str]] = (),  # type: ignore[assignment]
    turn: int = 0,
    scores: tuple[int, ...] | None = None,
    boneyard: list[str] | None = None,
    **options: Any,
) -> State:
    """A crafted position: these hands, this layout (tiles laid in order), this turn."""
    state = stacked(players, variant, [], **options)
    built: Layout = EMPTY_LAYOUT
    for tile, end in layout:
        built = built.place(TILE_ID[tile], END_ID[end], 0, variant == "all_fives")
    return state._replace(
        hands=tuple(tuple(sorted(TILE_ID[t] for t in hand)) for hand in hands),
        boneyard=tuple(TILE_ID[t] for t in boneyard or []),
        layout=built,
        turn=turn,
        scores=scores if scores is not None else state.scores,
    )


def ends(state: State) -> dict[str, tuple[int, int | None]]:
    return {e["end"]: (e["shows"], e["counts"]) for e in d.view(state, None)["layout"]["ends"]}


# ---------------------------------------------------------------- worked examples


def test_example_1_the_spinner_scores_then_stops_counting_and_opens_two_branches():
    state = stacked(2, "all_fives", [["5-5", "5-3"], ["5-0"]])
    state, events = play(state, 0, "5-5", "center")
    assert events[0]["scored"] == 20  # 10 points
    assert d.view(state, None)["layout"]["total"] == 10
    state, events = play(state, 1, "5-0", "left")
    assert events[0]["scored"] == 20  # spinner still counts 10, plus 0
    assert ends(state) == {"left": (0, 0), "right": (5, 10)}
    state, events = play(state, 0, "5-3", "right")
    assert events[0]["scored"] == 0  # 0 + 3 = 3
    assert ends(state) == {"left": (0, 0), "right": (3, 3), "up": (5, 0), "down": (5, 0)}
    layout = d.view(state, None)["layout"]
    assert layout["total"] == 3
    assert layout["spinner"]["branches_open"] is True
    assert layout["spinner"]["counts"] == 0
    assert d.view(state, None)["scores"] == [20, 20]


@pytest.mark.parametrize(("pips", "bonus"), [(12, 10), (13, 15), (10, 10), (0, 0), (17, 15), (18, 20)])
def test_example_2_the_bonus_is_rounded_to_the_nearest_five(pips, bonus):
    assert round5(pips) == bonus


@pytest.mark.parametrize(("opponent", "bonus"), [(["6-6"], 10), (["6-5", "2-0"], 15)])
def test_example_2_going_out_scores_the_rounded_bonus(opponent, bonus):
    state = position(2, "all_fives", [["1-0"], opponent])
    state, events = play(state, 0, "1-0", "center")
    end = next(e for e in events if e["type"] == "round_end")
    assert end["reason"] == "out" and end["went_out"] == 0
    assert end["bonus"] == [2 * bonus, 0]
    assert d.view(state, None)["scores"] == [2 * bonus, 0]


def test_example_3_three_player_block_splits_the_rounded_third_hand_into_halves():
    state = position(3, "all_fives", [["3-1"], ["4-0"], ["6-6", "5-0"]], [("2-2", "center")])
    state, _ = act(state, 0, {"type": "pass"})
    state, _ = act(state, 1, {"type": "pass"})
    state, events = act(state, 2, {"type": "pass"})
    end = events[-1]
    assert end["type"] == "round_end" and end["reason"] == "blocked"
    assert end["pips"] == [4, 4, 17]
    assert end["bonus"] == [15, 15, 0]  # 7.5 points each
    assert end["winners"] == [0, 1]
    assert d.view(state, 2)["scores"] == [15, 15, 0]


def test_example_4_a_sole_leader_at_250_wins_at_once_in_the_middle_of_a_round():
    state = position(2, "all_fives", [["5-5", "6-6"], ["4-4"]], scores=(490, 100))
    state, events = play(state, 0, "5-5", "center")
    assert [e["type"] for e in events] == ["play", "game_over"]
    result = d.outcome(state)
    assert result is not None
    assert result["winners"] == [0]
    assert result["scores"] == [510, 100]
    assert result["score_scale"] == 2
    assert d.to_act(state) == []
    assert d.view(state, 1)["finished"] is True


# ---------------------------------------------------------------- the deal and the lead


@pytest.mark.parametrize(
    ("variant", "players", "each", "boneyard"),
    [
        ("block", 2, 7, 14),
        ("block", 3, 5, 13),
        ("block", 4, 5, 8),
        ("draw", 2, 7, 14),
        ("draw", 4, 5, 8),
        ("all_fives", 2, 9, 10),
        ("all_fives", 3, 7, 7),
        ("all_fives", 4, 5, 8),
    ],
)
def test_each_player_gets_the_tiles_the_page_gives(variant, players, each, boneyard):
    state = d.replay(d.start(d.validate_config({"players": players, "variant": variant}), 3))
    view = d.view(state, None)
    assert view["hand_sizes"] == [each] * players
    assert view["boneyard"] == boneyard
    assert sorted(d.components(state)) == sorted(TILE_NAMES)


def test_a_stacked_deck_deals_seat_by_seat_then_the_boneyard_top_first():
    deck = list(reversed(TILE_NAMES))
    config = d.validate_config({"players": 2, "variant": "draw", "deck": deck, "first": 1})
    state = d.replay(d.start(config, 1))
    assert sorted(d.view(state, 0)["hands"][0]) == sorted(deck[:7])
    assert sorted(d.view(state, 1)["hands"][1]) == sorted(deck[7:14])
    assert d.reveal(state)["boneyard_tiles"] == deck[14:]


def test_the_first_leader_by_choice_is_the_configured_seat():
    config = d.validate_config({"players": 3, "first": 2})
    state = d.replay(d.start(config, 99))
    assert d.to_act(state) == [2]
    assert d.view(state, None)["lead_by"] == "choice"


def test_the_first_leader_by_draw_is_a_seeded_random_seat():
    config = d.default_config(4)
    leaders = {d.replay(d.start(config, seed)).leader for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert d.start(config, 5) == d.start(config, 5)
    assert d.view(d.replay(d.start(config, 5)), None)["lead_by"] == "draw"


def test_the_leader_may_lead_any_tile_no_double_needed():
    state = stacked(2, "block", [["6-5", "3-1", "0-0", "4-2", "6-6", "1-0", "5-5"]])
    legal = d.legal_actions(state, 0)
    assert sorted(a["tile"] for a in legal) == sorted(d.view(state, 0)["hands"][0])
    assert {a["end"] for a in legal} == {"center"}


# ---------------------------------------------------------------- matching and the line


def test_a_tile_goes_only_against_an_end_showing_the_same_number_blank_on_blank():
    state = stacked(2, "block", [["6-0", "5-5"], ["0-0", "6-2", "4-3"]])
    state, _ = play(state, 0, "6-0", "center")  # left shows 6, right shows 0
    legal = d.legal_actions(state, 1)
    assert {"type": "play", "tile": "0-0", "end": "right"} in legal
    assert {"type": "play", "tile": "6-2", "end": "left"} in legal
    assert not any(a["tile"] == "4-3" for a in legal)


def test_block_and_draw_have_two_ends_and_doubles_are_never_spinners():
    for variant in ("block", "draw"):
        state = stacked(2, variant, [["3-3", "6-3"], ["3-1", "6-6"]])
        state, _ = play(state, 0, "3-3", "center")
        state, _ = play(state, 1, "3-1", "left")
        state, _ = play(state, 0, "6-3", "right")
        state, _ = play(state, 1, "6-6", "right")
        layout = d.view(state, None)["layout"]
        assert layout["spinner"] is None
        assert [e["end"] for e in layout["ends"]] == ["left", "right"]
        assert all(e["counts"] is None for e in layout["ends"]) and layout["total"] is None
        assert [t["double"] for t in layout["tiles"]] == [True, False, False, True]  # doubles crosswise


def test_only_the_first_double_is_the_spinner_and_a_later_one_is_ordinary():
    state = stacked(2, "all_fives", [["4-2", "4-4", "6-2"], ["4-1", "2-2", "6-6"]])
    state, _ = play(state, 0, "4-2", "center")  # 4 | 2 : 6
    state, events = play(state, 1, "2-2", "right")  # the first double: the spinner, at the end of a line
    assert ends(state) == {"left": (4, 4), "right": (2, 4)}
    assert events[0]["scored"] == 0  # 4 + 4 = 8
    spinner = d.view(state, None)["layout"]["spinner"]
    assert spinner["tile"] == "2-2" and spinner["arm"] == "right" and spinner["index"] == 0
    assert spinner["sides_played"] == 1 and not spinner["branches_open"]
    state, events = play(state, 0, "4-4", "left")  # a second double: ordinary, counts both halves at an end
    assert ends(state) == {"left": (4, 8), "right": (2, 4)}
    assert d.view(state, None)["layout"]["spinner"]["tile"] == "2-2"
    state, events = play(state, 1, "4-1", "left")  # 1 + 4 = 5
    assert events[0]["scored"] == 10
    state, events = play(state, 0, "6-2", "right")  # the spinner's other side: branches open at 0
    assert ends(state) == {"left": (1, 1), "right": (6, 6), "up": (2, 0), "down": (2, 0)}
    assert events[0]["scored"] == 0
    legal = d.legal_actions(state, 1)
    assert {"type": "play", "tile": "6-6", "end": "right"} in legal
    assert {"type": "play", "tile": "2-2", "end": "up"} not in legal  # already laid


def test_a_branch_counts_once_a_tile_is_laid_on_it():
    state = position(
        2,
        "all_fives",
        [["2-1"], ["6-6"]],
        [("2-2", "center"), ("2-0", "left"), ("3-2", "right")],
    )
    assert ends(state) == {"left": (0, 0), "right": (3, 3), "up": (2, 0), "down": (2, 0)}
    state, events = play(state, 0, "2-1", "up")
    assert ends(state)["up"] == (1, 1)
    assert events[0]["scored"] == 0  # 0 + 3 + 1 + 0 = 4


def test_an_open_double_at_the_end_of_a_line_counts_both_halves():
    state = position(2, "all_fives", [["4-4", "6-6"], ["3-3"]], [("4-1", "center")])
    state, events = play(state, 0, "4-4", "left")  # 8 + 1 = 9
    assert ends(state) == {"left": (4, 8), "right": (1, 1)}
    assert events[0]["scored"] == 0


def test_scoring_in_play_is_automatic_for_a_positive_multiple_of_five():
    state = position(2, "all_fives", [["5-0", "6-6"], ["3-3"]])
    state, events = play(state, 0, "5-0", "center")
    assert events[0]["scored"] == 10 and d.view(state, None)["scores"] == [10, 0]
    state = position(2, "all_fives", [["0-0", "6-6"], ["3-3"]])
    state, events = play(state, 0, "0-0", "center")
    assert events[0]["scored"] == 0  # zero is not a positive multiple of five


# ---------------------------------------------------------------- passing, drawing, blocking


def test_no_pass_while_you_can_play():
    state = stacked(2, "block", [["6-0"], ["1-0"]])
    state, _ = play(state, 0, "6-0", "center")
    legal = d.legal_actions(state, 1)
    assert {"type": "play", "tile": "1-0", "end": "right"} in legal
    assert all(a["type"] == "play" for a in legal)
    with pytest.raises(d.IllegalAction) as info:
        d.decide(state, 1, {"type": "pass"})
    assert info.value.code == "must_play"


def test_block_has_no_drawing_you_pass_when_you_cannot_play():
    state = position(2, "block", [["6-6"], ["1-1"]], [("3-2", "center")], boneyard=["5-5"])
    assert d.legal_actions(state, 0) == [{"type": "pass"}]
    state, events = act(state, 0, {"type": "pass"})
    assert events == [{"type": "pass", "seat": 0}]
    assert d.to_act(state) == [1]


def test_draw_one_at_a_time_until_a_playable_tile_which_must_be_played():
    for variant in ("draw", "all_fives"):
        state = position(
            2, variant, [["6-6", "5-5"], ["1-1"]], [("3-2", "center")], boneyard=["4-4", "3-0", "1-0"]
        )
        assert d.legal_actions(state, 0) == [{"type": "draw"}]
        state, events = act(state, 0, {"type": "draw"})
        assert events == [{"type": "draw", "seat": 0, "tile": "4-4"}]
        assert d.legal_actions(state, 0) == [{"type": "draw"}]  # still nothing to play
        state, _ = act(state, 0, {"type": "draw"})
        assert d.legal_actions(state, 0) == [{"type": "play", "tile": "3-0", "end": "left"}]  # the drawn tile
        with pytest.raises(d.IllegalAction) as info:
            d.decide(state, 0, {"type": "draw"})
        assert info.value.code == "must_play"
        assert d.view(state, None)["boneyard"] == 1


def test_with_the_boneyard_empty_a_player_who_cannot_play_passes():
    state = position(2, "draw", [["6-6"], ["1-1"]], [("3-2", "center")], boneyard=[])
    assert d.legal_actions(state, 0) == [{"type": "pass"}]


def test_every_player_passing_in_succession_blocks_the_round():
    state = position(3, "block", [["6-6"], ["5-5", "1-0"], ["4-4"]], [("3-2", "center")])
    state, events = act(state, 0, {"type": "pass"})
    state, events = act(state, 1, {"type": "pass"})
    assert d.to_act(state) == [2]
    state, events = act(state, 2, {"type": "pass"})
    end = events[-1]
    assert end["reason"] == "blocked"
    assert end["pips"] == [12, 11, 8]
    assert end["winners"] == [2] and end["bonus"] == [0, 0, 2 * (12 + 11)]


def test_a_play_between_passes_resets_the_count():
    state = position(2, "block", [["6-6", "2-0"], ["5-5", "1-1"]], [("3-2", "center")])
    state, _ = act(state, 0, {"type": "play", "tile": "2-0", "end": "right"})
    state, _ = act(state, 1, {"type": "pass"})
    assert d.view(state, None)["passes"] == 1
    assert d.view(state, None)["phase"] == "play"


# ---------------------------------------------------------------- Block and Draw scoring


def test_block_the_winner_scores_the_pips_left_in_the_opponents_hands():
    state = position(3, "block", [["1-0"], ["6-6"], ["5-4", "2-2"]])
    state, events = play(state, 0, "1-0", "center")
    end = events[-1]
    assert end["reason"] == "out" and end["bonus"] == [2 * (12 + 9 + 4), 0, 0]  # not rounded in Block


def test_blocked_round_the_lowest_hand_wins_and_scores_the_others():
    state = position(2, "block", [["6-6"], ["5-4"]], [("3-2", "center")])
    state, _ = act(state, 0, {"type": "pass"})
    state, events = act(state, 1, {"type": "pass"})
    end = events[-1]
    assert end["winners"] == [1] and end["bonus"] == [0, 24]


def test_a_blocked_round_with_a_tie_for_lowest_scores_nothing():
    for variant in ("block", "draw", "all_fives"):
        state = position(2, variant, [["6-0"], ["5-1"]], [("3-2", "center")])
        state, _ = act(state, 0, {"type": "pass"})
        state, events = act(state, 1, {"type": "pass"})
        assert events[-1]["bonus"] == [0, 0] and events[-1]["winners"] == []


def test_four_individual_players_tied_for_lowest_get_no_bonus_in_all_fives():
    state = position(4, "all_fives", [["6-0"], ["5-1"], ["6-6"], ["5-5"]], [("3-2", "center")])
    for seat in range(4):
        state, events = act(state, seat, {"type": "pass"})
    assert events[-1]["bonus"] == [0, 0, 0, 0]


def test_three_players_all_tied_in_a_block_get_no_bonus():
    state = position(3, "all_fives", [["6-0"], ["5-1"], ["4-2"]], [("3-3", "center")])
    for seat in range(3):
        state, events = act(state, seat, {"type": "pass"})
    assert events[-1]["bonus"] == [0, 0, 0]


def test_partners_tiles_never_count_and_the_opponents_hands_are_added():
    state = position(4, "block", [["1-0"], ["6-6"], ["5-5"], ["4-3"]], partnerships=True)
    state, events = play(state, 0, "1-0", "center")
    end = events[-1]
    assert end["bonus"] == [2 * (12 + 7), 0, 2 * (12 + 7), 0]  # partner's 5-5 not counted
    assert d.view(state, None)["scores"] == [38, 0, 38, 0]  # partners share a score


def test_partnership_block_compares_team_totals():
    state = position(4, "block", [["6-4"], ["1-0"], ["0-0"], ["6-5"]], [("3-2", "center")], partnerships=True)
    for seat in range(4):
        state, events = act(state, seat, {"type": "pass"})
    end = events[-1]
    assert end["winners"] == [0, 2]  # 10 + 0 against 1 + 11
    assert end["bonus"] == [2 * 12, 0, 2 * 12, 0]  # the team's bonus, shown on both partners' seats
    assert d.view(state, None)["scores"] == [24, 0, 24, 0]


def test_all_fives_individual_losers_pips_are_added_then_rounded_once():
    state = position(4, "all_fives", [["1-0"], ["1-1"], ["2-0"], ["2-1"]])
    state, events = play(state, 0, "1-0", "center")
    assert events[0]["scored"] == 0
    assert events[-1]["bonus"] == [2 * 5, 0, 0, 0]  # 2 + 2 + 3 = 7 rounds to 5


def test_block_and_draw_games_end_at_the_end_of_a_round_at_the_target():
    state = position(2, "draw", [["1-0"], ["6-6"]], scores=(190, 180))
    state, events = play(state, 0, "1-0", "center")
    assert [e["type"] for e in events] == ["play", "round_end", "game_over"]
    result = d.outcome(state)
    assert result is not None and result["winners"] == [0] and result["scores"] == [214, 180]
    assert result["places"] == [1, 2]


def test_a_tie_at_the_top_plays_another_round():
    state = position(2, "block", [["1-0"], ["6-6"]], scores=(176, 200))
    state, events = play(state, 0, "1-0", "center")  # 176 + 24 = 200: tied with 200 at the top
    assert [e["type"] for e in events] == ["play", "round_end"]
    assert d.outcome(state) is None
    assert d.to_act(state) == [0, 1]


def test_all_fives_tie_at_the_top_plays_on_until_a_sole_leader():
    state = position(2, "all_fives", [["5-0", "6-6"], ["3-3"]], scores=(490, 500))
    state, events = play(state, 0, "5-0", "center")  # 250 against 250
    assert [e["type"] for e in events] == ["play"]
    assert d.outcome(state) is None


# ---------------------------------------------------------------- between rounds


def test_the_count_waits_for_every_player_then_deals_the_next_round():
    state = position(3, "block", [["1-0"], ["6-6"], ["5-5"]])
    state, _ = play(state, 0, "1-0", "center")
    assert d.view(state, None)["phase"] == "count"
    assert d.to_act(state) == [0, 1, 2]
    state, events = act(state, 2, {"type": "next_round"})
    assert d.to_act(state) == [0, 1] and len(events) == 1
    state, _ = act(state, 0, {"type": "next_round"})
    state, events = act(state, 1, {"type": "next_round"})
    assert [e["type"] for e in events] == ["next_round", "deal"]
    assert events[1]["hand"] == 2
    assert d.view(state, None)["hand"] == 2


def test_the_player_who_went_out_leads_the_next_round():
    state = position(3, "block", [["6-6"], ["1-0"], ["5-5"]], turn=1)
    state, _ = play(state, 1, "1-0", "center")
    for seat in range(3):
        state, events = act(state, seat, {"type": "next_round"})
    assert events[-1]["leader"] == 1 and events[-1]["lead_by"] == "out"
    assert d.to_act(state) == [1]


def test_after_a_block_the_next_lead_is_drawn_again():
    state = position(2, "block", [["6-6"], ["5-4"]], [("3-2", "center")])
    state, _ = act(state, 0, {"type": "pass"})
    state, _ = act(state, 1, {"type": "pass"})
    state, _ = act(state, 0, {"type": "next_round"})
    state, events = act(state, 1, {"type": "next_round"})
    assert events[-1]["lead_by"] == "draw"
    assert d.view(state, None)["last_round"]["reason"] == "blocked"


def test_every_hand_is_shown_to_everyone_at_the_final_count():
    state = position(3, "block", [["1-0"], ["6-6"], ["5-5", "4-4"]])
    assert d.view(state, 0)["hands"][1] is None
    state, _ = play(state, 0, "1-0", "center")
    for who in (None, 0, 1, 2):
        assert d.view(state, who)["hands"] == [[], ["6-6"], ["4-4", "5-5"]]
    assert d.view(state, None)["last_round"]["pips"] == [0, 12, 18]


def test_scores_are_exact_half_points_never_floats():
    state = position(3, "all_fives", [["3-1"], ["4-0"], ["6-6", "5-0"]], [("2-2", "center")])
    for seat in range(3):
        state, _ = act(state, seat, {"type": "pass"})
    scores = d.view(state, None)["scores"]
    assert all(type(s) is int for s in scores) and d.view(state, None)["score_scale"] == 2


def test_the_lead_is_laid_high_half_on_the_left():
    state = stacked(2, "block", [["6-2"]])
    state, _ = play(state, 0, "6-2", "center")
    tile = d.view(state, None)["layout"]["tiles"][0]
    assert tile == {
        "tile": "6-2",
        "arm": "center",
        "by": 0,
        "order": 0,
        "index": 0,
        "left": 6,
        "right": 2,
        "double": False,
        "spinner": False,
    }
    assert ends(state) == {"left": (6, None), "right": (2, None)}
