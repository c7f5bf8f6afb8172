"""Pairing maths: property tests (hypothesis) and hand-checked examples."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.elimination import first_round, next_round, seed_order
from tournaments.pairing.roundrobin import berger_rounds
from tournaments.pairing.tables import seat_tables, table_sizes


def test_berger_tables_for_four_and_six_match_the_published_ones():
    assert [sorted(map(sorted, r)) for r in berger_rounds([1, 2, 3, 4])] == [
        [[1, 4], [2, 3]],
        [[1, 2], [3, 4]],
        [[1, 3], [2, 4]],
    ]
    assert berger_rounds([1, 2, 3, 4, 5, 6])[0] == [(1, 6), (2, 5), (3, 4)]
    assert {frozenset(p) for p in berger_rounds([1, 2, 3, 4, 5, 6])[1]} == {
        frozenset(p) for p in [(6, 4), (5, 3), (1, 2)]
    }


def test_berger_tables_seat_first_whom_the_published_tables_give_white():
    # FIDE's Berger tables (C.05 Annex 1), white first: six players, rounds 1 to 5.
    published = [
        {(1, 6), (2, 5), (3, 4)},
        {(6, 4), (5, 3), (1, 2)},
        {(2, 6), (3, 1), (4, 5)},
        {(6, 5), (1, 4), (2, 3)},
        {(3, 6), (4, 2), (5, 1)},
    ]
    assert [set(r) for r in berger_rounds([1, 2, 3, 4, 5, 6])] == published
    assert [set(r) for r in berger_rounds([1, 2, 3, 4])] == [
        {(1, 4), (2, 3)},
        {(4, 3), (1, 2)},
        {(2, 4), (3, 1)},
    ]


@given(st.integers(2, 20))
def test_a_round_robin_seats_everyone_first_about_half_the_time(n):
    first: dict[int, int] = dict.fromkeys(range(n), 0)
    second: dict[int, int] = dict.fromkeys(range(n), 0)
    for r in berger_rounds(list(range(n))):
        for a, b in r:
            if a is not None and b is not None:
                first[a] += 1
                second[b] += 1
    assert all(abs(first[p] - second[p]) <= 1 for p in range(n))


@given(st.integers(2, 24))
def test_a_round_robin_meets_everyone_exactly_once(n):
    rounds = berger_rounds(list(range(n)))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = [frozenset(p) for r in rounds for p in r if None not in p]
    assert len(meetings) == len(set(meetings)) == n * (n - 1) // 2
    for r in rounds:
        seated = [x for p in r for x in p if x is not None]
        assert sorted(seated) == sorted(set(seated))
        assert len(seated) == n


def test_byes_go_to_the_top_seeds_and_seeds_one_and_two_meet_last():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    pairs = first_round(["s1", "s2", "s3", "s4", "s5", "s6"])
    assert ("s1", None) in pairs and ("s2", None) in pairs
    assert len(pairs) == 4
    top_half = {x for p in pairs[:2] for x in p}
    assert "s1" in top_half and "s2" not in top_half
    assert next_round(["a", "b", "c", "d"]) == [("a", "b"), ("c", "d")]


@given(st.integers(2, 64))
def test_every_entrant_appears_once_in_the_first_round(n):
    pairs = first_round(list(range(n)))
    seated = [x for p in pairs for x in p if x is not None]
    assert sorted(seated) == list(range(n))
    byes = [p for p in pairs if None in p]
    assert len(byes) == len(pairs) * 2 - n
    assert all(p[0] is not None for p in byes), "a bye never meets a bye"


@given(st.integers(2, 200), st.integers(2, 8))
def test_table_sizes_are_balanced_within_one_seat(count, size):
    try:
        sizes = table_sizes(count, size)
    except ValueError:
        tables = -(-count // size)
        assert count // tables < 2, "refused a count that fits"
        return
    assert sum(sizes) == count
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size


@settings(max_examples=60, deadline=None)
@given(st.integers(6, 40), st.integers(3, 5), st.randoms(use_true_random=False))
def test_multi_player_tables_seat_everyone_once_and_cut_repeats(count, size, rng):
    players = list(range(count))
    met: dict[int, dict[int, int]] = {p: {} for p in players}
    for _ in range(count):
        a, b = rng.sample(players, 2)
        met[a][b] = met[b][a] = met[a].get(b, 0) + 1
    scores = {p: 0 for p in players}
    tables = seat_tables(players, size, scores, met, smallest=min(2, size))
    assert sorted(x for t in tables for x in t) == players
    sizes = [len(t) for t in tables]
    assert max(sizes) - min(sizes) <= 1
    naive = seat_tables(players, size, {p: i for i, p in enumerate(players)}, met)  # no swaps possible

    def repeats(ts):
        return sum(met[a].get(b, 0) for t in ts for a, b in itertools.combinations(t, 2))

    assert repeats(tables) <= repeats(naive)
