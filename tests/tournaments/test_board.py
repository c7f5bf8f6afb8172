"""The checks of a result entered over the board (tournaments/board.py), one per rule of record
(../shared/rules/*.md): a valid entry of each game and an invalid one for each check."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games import engines
from games.engines.base import IllegalAction
from tournaments import board

A, B, C, D = 1, 2, 3, 4


def config(game: str, players: int, **options) -> dict:
    return engines.compose(game, options, players)


def refused(code: str, game: str, cfg: dict, sides: list[int], hands) -> IllegalAction:
    with pytest.raises(IllegalAction) as exc:
        board.score(game, cfg, sides, hands)
    assert exc.value.code == code, exc.value.text
    return exc.value


def per(values: list, sides: list[int]) -> dict:
    return {str(s): v for s, v in zip(sides, values, strict=True)}


# --- Skyjo ---------------------------------------------------------------------------------------

SKYJO = config("skyjo", 3, target=50)


def skyjo(totals: list[int], closer: int, sides=(A, B, C)) -> dict:
    return {"totals": per(totals, list(sides)), "closer": closer}


def test_skyjo_a_whole_game_with_the_closer_doubled_and_not_doubled():
    hands = [skyjo([12, 12, 20], A), skyjo([-3, -5, 10], A), skyjo([0, -1, 25], A)]
    sheet = board.score("skyjo", SKYJO, [A, B, C], hands)
    # Worked example 2 of the rules page: 12 against 12 doubles; −3 and 0 are never doubled.
    assert sheet.rows[0] == {A: 24, B: 12, C: 20} and sheet.marks[0]["doubled"] == A
    assert sheet.rows[1][A] == -3 and sheet.marks[1]["doubled"] is None
    assert sheet.rows[2][A] == 0
    assert sheet.totals == {A: 21, B: 6, C: 55}
    assert sheet.places == {B: 1, A: 2, C: 3}  # lowest wins


def test_skyjo_every_player_needs_a_round_total():
    refused("missing_number", "skyjo", SKYJO, [A, B, C], [{"totals": {str(A): 3, str(B): 4}, "closer": A}])


def test_skyjo_a_round_total_is_a_whole_number_a_grid_can_count():
    refused("not_a_number", "skyjo", SKYJO, [A, B, C], [skyjo([3, "x", 60], A)])
    refused("bad_total", "skyjo", SKYJO, [A, B, C], [skyjo([3, 141, 60], A)])
    refused("bad_total", "skyjo", SKYJO, [A, B, C], [skyjo([-18, 4, 60], A)])


def test_skyjo_someone_closed_the_round():
    refused("no_closer", "skyjo", SKYJO, [A, B, C], [skyjo([3, 4, 60], 99)])
    refused("no_closer", "skyjo", SKYJO, [A, B, C], [{"totals": per([3, 4, 60], [A, B, C])}])


def test_skyjo_the_game_ends_after_the_round_someone_reaches_the_target():
    refused("not_over", "skyjo", SKYJO, [A, B, C], [skyjo([3, 4, 20], A)])
    error = refused("after_the_end", "skyjo", SKYJO, [A, B, C], [skyjo([3, 4, 60], A), skyjo([1, 2, 3], B)])
    assert error.params == {"round": 1, "target": 50}


# --- Dominoes ------------------------------------------------------------------------------------

BLOCK2 = config("dominoes", 2, variant="block", target=50)
DRAW2 = config("dominoes", 2, variant="draw", target=50)
FIVES2 = config("dominoes", 2, variant="all_fives", target=50)
FIVES3 = config("dominoes", 3, variant="all_fives", target=30)
PARTNERS = config("dominoes", 4, variant="block", partnerships=True, target=50)


def test_dominoes_block_the_winner_scores_the_others_pips_to_the_target():
    hands = [
        {"points": per([30, 0], [A, B]), "winners": [A]},
        {"points": per([0, 12], [A, B]), "winners": [B]},
    ]
    hands.append({"points": per([0, 0], [A, B]), "winners": []})  # blocked, lowest tied: nothing
    hands.append({"points": per([25, 0], [A, B]), "winners": [A]})
    sheet = board.score("dominoes", BLOCK2, [A, B], hands)
    assert sheet.totals == {A: 55, B: 12} and sheet.places == {A: 1, B: 2}


def test_dominoes_only_the_round_winner_scores_in_block_and_draw():
    hands = [{"points": per([30, 5], [A, B]), "winners": [A]}]
    refused("only_winner_scores", "dominoes", DRAW2, [A, B], hands)
    refused(
        "only_winner_scores", "dominoes", BLOCK2, [A, B], [{"points": per([5, 0], [A, B]), "winners": []}]
    )


def test_dominoes_the_round_winner_is_a_player_at_the_table():
    refused(
        "bad_round_winner", "dominoes", BLOCK2, [A, B], [{"points": per([60, 0], [A, B]), "winners": [C]}]
    )
    refused(
        "bad_round_winner", "dominoes", BLOCK2, [A, B], [{"points": per([60, 0], [A, B]), "winners": [A, B]}]
    )


def test_dominoes_block_points_are_at_most_the_pips_the_other_hand_can_hold():
    # Two players hold 7 tiles each: the seven heaviest tiles hold 69 pips.
    error = refused(
        "too_many_pips", "dominoes", BLOCK2, [A, B], [{"points": per([70, 0], [A, B]), "winners": [A]}]
    )
    assert error.params["most"] == 69
    sheet = board.score("dominoes", BLOCK2, [A, B], [{"points": per([69, 0], [A, B]), "winners": [A]}])
    assert sheet.totals[A] == 69


def test_dominoes_partnerships_score_by_team():
    sheet = board.score("dominoes", PARTNERS, [A, B], [{"points": per([52, 0], [A, B]), "winners": [A]}])
    assert sheet.places == {A: 1, B: 2}


def test_dominoes_all_fives_counts_in_fives_with_the_bonus_to_the_winner():
    hands = [
        {"play": per([20, 15], [A, B]), "bonus": per([10, 0], [A, B]), "winners": [A]},
        {"play": per([20, 0], [A, B]), "bonus": per([0, 0], [A, B]), "winners": []},  # won in play
    ]
    sheet = board.score("dominoes", FIVES2, [A, B], hands)
    assert sheet.totals == {A: 50, B: 15}
    refused(
        "not_fives",
        "dominoes",
        FIVES2,
        [A, B],
        [{"play": per([52, 0], [A, B]), "bonus": per([0, 0], [A, B]), "winners": []}],
    )
    refused(
        "bonus_to_winner",
        "dominoes",
        FIVES2,
        [A, B],
        [{"play": per([50, 0], [A, B]), "bonus": per([0, 10], [A, B]), "winners": [A]}],
    )


def test_dominoes_all_fives_three_players_tied_block_share_half_fives():
    # Worked example 3: A 4, B 4, C 17 → C's 17 rounds to 15, A and B get 7½ each.
    hands = [
        {"play": per([30, 25, 0], [A, B, C]), "bonus": per(["7½", "7.5", 0], [A, B, C]), "winners": [A, B]}
    ]
    sheet = board.score("dominoes", FIVES3, [A, B, C], hands)
    assert sheet.totals == {A: Fraction(75, 2), B: Fraction(65, 2), C: 0}
    refused(
        "missing_number",
        "dominoes",
        FIVES3,
        [A, B, C],
        [{"play": per([25, 25, 0], [A, B, C]), "winners": [A]}],
    )
    hands[0]["bonus"] = per([10, 5, 0], [A, B, C])
    refused("split_bonus", "dominoes", FIVES3, [A, B, C], hands)


def test_dominoes_the_game_needs_a_sole_leader_at_the_target():
    tied = [
        {"points": per([30, 0], [A, B]), "winners": [A]},
        {"points": per([0, 30], [A, B]), "winners": [B]},
    ]
    refused("not_over_alone", "dominoes", BLOCK2, [A, B], tied)
    done = [{"points": per([55, 0], [A, B]), "winners": [A]}, {"points": per([0, 5], [A, B]), "winners": [B]}]
    refused("after_the_end", "dominoes", BLOCK2, [A, B], done)


# --- Kazino --------------------------------------------------------------------------------------

SINGLE = config("kazino", 2, match="single")
BONUS = config("kazino", 2, match="single", kings_aces_bonus=True)
TARGET = config("kazino", 2, match="target", target=30)


def test_kazino_cards_captured_score_by_band():
    # Worked example 5: 30 cards → 10 points; 22 → 0.
    sheet = board.score("kazino", SINGLE, [A, B], [{"cards": per([30, 22], [A, B])}])
    assert sheet.totals == {A: 10, B: 0} and sheet.places == {A: 1, B: 2}
    sheet = board.score("kazino", SINGLE, [A, B], [{"cards": per([26, 26], [A, B])}])
    assert sheet.places == {A: 1, B: 1}  # 0–0: a draw


def test_kazino_the_cards_add_up_to_52_with_the_table():
    error = refused("cards_not_52", "kazino", SINGLE, [A, B], [{"cards": per([30, 20], [A, B])}])
    assert error.params["total"] == 50
    refused("cards_not_52", "kazino", SINGLE, [A, B], [{"cards": per([60, -8], [A, B])}])


def test_kazino_kings_and_aces_are_counted_once_each_for_the_bonus():
    ok = {"cards": per([40, 12], [A, B]), "kings": per([4, 0], [A, B]), "aces": per([2, 2], [A, B])}
    assert board.score("kazino", BONUS, [A, B], [ok]).totals == {A: 35, B: 0}
    refused("kings_not_4", "kazino", BONUS, [A, B], [{**ok, "kings": per([4, 1], [A, B])}])
    refused("aces_not_4", "kazino", BONUS, [A, B], [{**ok, "aces": per([1, 2], [A, B])}])
    refused(
        "more_than_cards",
        "kazino",
        BONUS,
        [A, B],
        [{"cards": per([49, 3], [A, B]), "kings": per([2, 2], [A, B]), "aces": per([2, 2], [A, B])}],
    )


def test_kazino_a_match_to_a_target_runs_until_someone_passes_it_ahead():
    games = [{"cards": per([40, 12], [A, B])}, {"cards": per([27, 25], [A, B])}]
    sheet = board.score("kazino", TARGET, [A, B], games)
    assert sheet.totals == {A: 35, B: 0}
    refused("match_not_over", "kazino", TARGET, [A, B], games[:1])
    refused("after_the_match", "kazino", TARGET, [A, B], [*games, {"cards": per([27, 25], [A, B])}])
    refused("one_game", "kazino", SINGLE, [A, B], games)


# --- Pitch ---------------------------------------------------------------------------------------

PITCH = config("pitch", 3, target=7)


def pitch(pitcher, bid, high, low, jack=None, game=None) -> dict:
    return {"pitcher": pitcher, "bid": bid, "high": high, "low": low, "jack": jack, "game": game}


def test_pitch_a_game_with_a_set_back_to_the_pitchers_target():
    hands = [
        pitch(A, 3, A, C, None, A),  # worked example 2: bid 3, took 2 → set back −3
        pitch(B, 4, B, B, B, B),
        pitch(B, 2, B, A, B, C),
        pitch(C, 2, C, C, A, None),
    ]
    hands.append(pitch(B, 2, B, B, None, A))
    sheet = board.score("pitch", PITCH, [A, B, C], hands)
    assert sheet.rows[0] == {A: -3, B: 0, C: 1} and sheet.marks[0]["set_back"] == A
    assert sheet.totals[B] == 8 and sheet.places[B] == 1


def test_pitch_a_non_pitcher_past_the_target_does_not_win():
    # Worked example 5: a player at 6 who is not the pitcher takes 2 (total 8): the game goes on.
    hands = [pitch(B, 4, B, B, B, B), pitch(C, 2, B, B, C, C)]
    hands.insert(1, pitch(C, 2, C, C, B, B))
    error = refused("pitch_not_over", "pitch", PITCH, [A, B, C], hands)
    assert error.params == {"target": 7}


def test_pitch_the_pitcher_and_bid_are_given():
    refused("no_pitcher", "pitch", PITCH, [A, B, C], [pitch(None, 2, A, A)])
    refused("bad_bid", "pitch", PITCH, [A, B, C], [pitch(A, 5, A, A)])
    refused("bad_bid", "pitch", PITCH, [A, B, C], [pitch(A, 0, A, A)])


def test_pitch_high_and_low_always_go_to_someone_jack_and_game_may_not():
    refused("high_and_low", "pitch", PITCH, [A, B, C], [pitch(A, 2, None, A)])
    refused("bad_award", "pitch", PITCH, [A, B, C], [pitch(A, 2, A, A, 9)])


def test_pitch_the_game_ends_with_the_hand_the_pitcher_reaches_the_target():
    hands = [pitch(A, 4, A, A, A, A), pitch(A, 4, A, A, A, A), pitch(B, 2, B, B)]
    refused("after_the_end", "pitch", PITCH, [A, B, C], hands)


def test_pitch_a_hand_limit_ends_the_game_with_the_leaders():
    limited = config("pitch", 2, target=21, max_hands=2)
    sheet = board.score("pitch", limited, [A, B], [pitch(A, 2, A, A), pitch(B, 2, B, A, None, B)])
    assert sheet.totals == {A: 3, B: 2} and sheet.places == {A: 1, B: 2}


# --- Any game ------------------------------------------------------------------------------------


def test_an_entry_has_hands():
    refused("no_hands", "kazino", SINGLE, [A, B], [])
    refused("no_hands", "kazino", SINGLE, [A, B], "30-22")
    refused("bad_hand", "kazino", SINGLE, [A, B], ["30-22"])
    refused("too_many_hands", "pitch", PITCH, [A, B, C], [pitch(A, 2, A, A)] * (board.MAX_HANDS + 1))
    refused("no_board_game", "tiny", {}, [A, B], [{}])


def test_table_codes_are_short_distinct_and_read_back_however_typed():
    codes = {board.table_code(12345, f"R1-T{n}") for n in range(1, 200)}
    assert len(codes) == 199 and all(len(c) == 6 and set(c) <= set(board.CODE_ALPHABET) for c in codes)
    assert board.table_code(12345, "R1-T1") != board.table_code(54321, "R1-T1")
    code = board.table_code(7, "R2-T3")
    assert board.normal_code(f" {code[:3].lower()}-{code[3:]} ") == code
