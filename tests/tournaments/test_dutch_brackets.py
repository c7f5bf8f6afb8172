"""The Dutch system settles one bracket before it looks at the next (FIDE C.04.3, issue #31): small
hand-built states, one per rule the whole-round matching of ``tournaments/pairing/dutch.py`` follows
bracket by bracket. Each expected pairing is FIDE's, worked out in the comments, and the one
caissify-pairings (the reference of ``tests/bench/pairing_dutch.py``) makes for the same state."""

from __future__ import annotations

from fractions import Fraction

from tournaments.pairing import dutch
from tournaments.pairing.dutch import DOWN, FIRST, SECOND, Player

WANTS_FIRST = (FIRST, SECOND)  # balanced, sat second last: a mild preference for the first seat
WANTS_SECOND = (SECOND, FIRST)
NO_GAMES = (None, None)


def player(number: int, score: float, seats=NO_GAMES, floats=(0, 0), met=()) -> Player:
    return Player(number, Fraction(score), number, seats, floats, met=frozenset(met))


def pairs(players: list[Player]) -> set[frozenset]:
    result = dutch.pair(players)
    assert result.bye is None
    return {frozenset(p) for p in result.pairs}


def test_a_bracket_keeps_its_own_seat_preferences_before_the_next_brackets():
    # Score 1: 1 and 2 want the first seat, 3 the second. 1-2 would deny one of them here, 1-3 denies
    # nobody, so 2 floats down (C10 in this bracket). Below, 2 meets the highest resident, 4, though
    # 2-6 would keep both seats: the bracket above came first. Before: 1-2, 3-4, 5-6 (one denial
    # either way over the round, the lowest floating).
    field = [
        player(1, 1, WANTS_FIRST),
        player(2, 1, WANTS_FIRST),
        player(3, 1, WANTS_SECOND),
        player(4, 0, WANTS_FIRST),
        player(5, 0, WANTS_FIRST),
        player(6, 0, WANTS_SECOND),
    ]
    assert pairs(field) == {frozenset({1, 3}), frozenset({2, 4}), frozenset({5, 6})}


def test_floating_down_again_counts_in_the_bracket_the_floater_leaves():
    # 1 comes down alone to score 1 and may meet 2 or 3 (no seat denied either way). Whoever is left
    # floats down again; 2 floated down last round, so 3 floats (C12 in the score-1 bracket) though
    # 2-4 would keep both seats where 3-4 denies one. Before: 1-3, 2-4.
    field = [
        player(1, 2),
        player(2, 1, WANTS_FIRST, (0, DOWN)),
        player(3, 1, WANTS_SECOND),
        player(4, 0, WANTS_SECOND),
    ]
    assert pairs(field) == {frozenset({1, 2}), frozenset({3, 4})}


def test_after_an_exchange_the_halves_are_sorted_again_and_transposed_from_the_start():
    # One score group: 1, 2, 4 want the first seat, 3, 5, 6 the second; 3 and 4 met. S1 = 1 2 3,
    # S2 = 4 5 6: no transposition keeps every seat (3 would need 4). The first exchange (D.2: the
    # least difference of pairing numbers) swaps 3 and 4: S1 = 1 2 4, S2 = 3 5 6, and its first
    # transposition keeping every seat is 1-3, 2-5, 4-6. Before: 1-5, 2-3, 4-6 (the halves unsorted).
    field = [
        player(1, 1, WANTS_FIRST),
        player(2, 1, WANTS_FIRST),
        player(3, 1, WANTS_SECOND, met=[4]),
        player(4, 1, WANTS_FIRST, met=[3]),
        player(5, 1, WANTS_SECOND),
        player(6, 1, WANTS_SECOND),
    ]
    assert pairs(field) == {frozenset({1, 3}), frozenset({2, 5}), frozenset({4, 6})}


def test_a_brackets_transposition_order_comes_before_whom_its_floater_meets_below():
    # Score 1: S1 = 1 2, S2 = 3 4 5; 2 and 4 met. The first transposition that pairs is 3 5 4:
    # 1-3, 2-5, and 4 floats. Below, 4 cannot meet 6 (they met) and meets 7. Before: 1-4, 2-3 and 5
    # down to meet 6, the highest of score 0 (whom the floater meets weighed before the order above).
    field = [
        player(1, 1),
        player(2, 1, met=[4]),
        player(3, 1),
        player(4, 1, met=[2, 6]),
        player(5, 1),
        player(6, 0, met=[4]),
        player(7, 0),
        player(8, 0),
    ]
    assert pairs(field) == {frozenset({1, 3}), frozenset({2, 5}), frozenset({4, 7}), frozenset({6, 8})}


def test_the_remainder_is_split_again_once_the_moved_down_player_is_paired():
    # 10 comes down alone to score 1 and can meet only 4. The remainder 1 2 3 is split again (B.3):
    # S1 = 1, S2 = 2 3, so 1-2 and 3 floats down to 5. Before, the halves of the whole score group
    # (1 2 | 3 4) made 1-3 look like the transposition and 2 float.
    field = [
        player(10, 2, met=[1, 2, 3]),
        player(1, 1, met=[10]),
        player(2, 1, met=[10]),
        player(3, 1, met=[10]),
        player(4, 1),
        player(5, 0),
    ]
    assert pairs(field) == {frozenset({4, 10}), frozenset({1, 2}), frozenset({3, 5})}


def test_the_better_moved_down_player_is_paired_first():
    # 1 and 2 met, so both come down to score 1, where only 3 is; S1 of the moved-down players is
    # 1 2, so 1 meets 3 and 2 goes on down to 4 (seats and floats equal either way).
    field = [
        player(1, 2, WANTS_SECOND, met=[2]),
        player(2, 2, WANTS_SECOND, met=[1]),
        player(3, 1, (SECOND, SECOND)),
        player(4, 0, WANTS_FIRST),
    ]
    assert pairs(field) == {frozenset({1, 3}), frozenset({2, 4})}


def test_s1_holds_as_many_players_as_the_bracket_makes_pairs():
    # 5 and 6 met, so score 1 must send two players down and makes one pair: S1 = 1 (FIDE's
    # MaxPairs), S2 = 2 3 4. 4, who must sit second, meets 5, who must sit first; 1-2 is the first
    # transposition (1 wants the second seat, 2 the first) and 3 goes on down to 6. Before, S1 was
    # half the group (1 2), so 1-3 looked like the transposition and 2 went down.
    field = [
        player(1, 1, WANTS_SECOND, met=[6]),
        player(2, 1, WANTS_FIRST),
        player(3, 1, WANTS_FIRST),
        player(4, 1, (FIRST, FIRST)),
        player(5, 0.5, (SECOND, SECOND), met=[6]),
        player(6, 0, (SECOND, SECOND), met=[1, 5]),
    ]
    assert pairs(field) == {frozenset({1, 2}), frozenset({3, 6}), frozenset({4, 5})}
