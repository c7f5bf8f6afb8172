"""Fixed schedules for "meet as many as possible" events (issue #31): resolvable designs where they
exist, a search otherwise, short tables as the organiser chooses, and whole events through formats."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import formats
from tournaments.log import RUNNING, Entrant, Result, Round, Table, Tournament
from tournaments.pairing import schedule


def pairs_met(plan):
    seen: dict[frozenset[int], int] = {}
    for tables in plan:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                seen[frozenset((a, b))] = seen.get(frozenset((a, b)), 0) + 1
    return seen


@pytest.mark.parametrize(
    ("count", "size", "rounds"), [(16, 4, 5), (9, 3, 4), (25, 5, 6), (64, 8, 9), (49, 7, 8)]
)
def test_affine_planes_meet_every_pair_exactly_once(count, size, rounds):
    plan = schedule.schedule(count, size, rounds)
    assert all(sorted(p for t in r for p in t) == list(range(count)) for r in plan)
    met = pairs_met(plan)
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}


@pytest.mark.parametrize(
    ("count", "size", "rounds"),
    [(18, 4, 5), (22, 4, 5), (16, 3, 5), (18, 3, 5), (22, 3, 5), (15, 3, 7), (20, 4, 5)],
)
def test_the_search_reaches_no_repeat_on_the_benchmarks_fields(count, size, rounds):
    plan = schedule.schedule(count, size, rounds)
    assert schedule.repeats(plan) == schedule.least_repeats(count, schedule.sizes(count, size), rounds) == 0


def test_short_tables_are_the_organisers_choice():
    assert schedule.describe(18, 4, "smaller") == [(4, 3), (3, 2)]
    assert schedule.describe(18, 4, "larger") == [(5, 2), (4, 2)]
    assert schedule.describe(16, 3, "smaller") == [(3, 4), (2, 2)]
    assert schedule.describe(16, 3, "larger") == [(4, 1), (3, 4)]
    with pytest.raises(ValueError):
        schedule.sizes(16, 3, "silent")


def test_least_repeats_spreads_the_meetings_evenly():
    # 16 at tables of 4 for 6 rounds: 144 meetings over 120 pairs, so 24 pairs meet twice.
    assert schedule.least_repeats(16, [4] * 4, 6) == 24
    assert schedule.repeats(schedule.schedule(16, 4, 6)) == 24
    assert schedule.least_repeats(16, [4] * 4, 5) == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 30), st.integers(2, 5), st.integers(1, 6), st.sampled_from(schedule.SHORT))
def test_every_round_seats_everyone_once_and_the_same_inputs_give_the_same_schedule(
    count, size, rounds, short
):
    try:
        layout = schedule.sizes(count, size, short)
    except ValueError:
        return
    plan = schedule.schedule(count, size, rounds, short)
    assert len(plan) == rounds
    for tables in plan:
        assert sorted(p for t in tables for p in t) == list(range(count))
        assert sorted(map(len, tables)) == sorted(layout)
    assert schedule.repeats(plan) >= schedule.least_repeats(count, layout, rounds)
    assert plan == schedule.schedule(count, size, rounds, short)


def test_a_fixed_schedule_event_through_formats_with_a_withdrawal():
    t = Tournament(
        name="t",
        game="dominoes",
        format="swiss",
        options={"table_size": 4, "rounds": 5, "seating": "fixed"},
    )
    t.status = RUNNING
    t.entrants = {e: Entrant(e, f"P{e}") for e in range(1, 17)}
    t.seeding = list(range(16, 0, -1))
    rng = random.Random(4)
    met: dict[frozenset[int], int] = {}
    for number in range(1, 6):
        if number == 3:
            t.entrants[5].withdrawn = True
        pairing = formats.next_round(t)
        assert pairing is not None
        seated = [e for _k, tb in pairing.tables for e in tb] + pairing.byes
        assert sorted(seated) == sorted(t.active())
        played = []
        for key, entrants in pairing.tables:
            for a, b in itertools.combinations(entrants, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            order = list(entrants)
            rng.shuffle(order)
            result = Result({e: i for i, e in enumerate(order, 1)}, {e: Fraction(0) for e in entrants})
            played.append(Table(key, number, list(entrants), computed=result))
        t.rounds.append(Round(number, played, list(pairing.byes), started=True))
    assert set(met.values()) == {1}, "16 at tables of 4 over 5 rounds: nobody meets twice"
    assert formats.next_round(t) is None


@pytest.mark.parametrize(("count", "size"), [(16, 4), (18, 4), (22, 4), (16, 3), (18, 3), (22, 3)])
def test_nobody_sits_first_past_the_cap_in_a_fixed_schedule(count, size):
    # The benchmark's fields over 5 rounds through formats: the first seats planned for the whole
    # event keep everyone within ⌈tables / entrants⌉ (seated round by round, 16 and 22 at tables of 3
    # gave some player a third first seat). The tables are fixed, so the results do not matter.
    t = Tournament(
        name="t", game="skyjo", format="swiss", options={"table_size": size, "rounds": 5, "seating": "fixed"}
    )
    t.status = RUNNING
    t.entrants = {e: Entrant(e, f"P{e}") for e in range(1, count + 1)}
    t.seeding = list(range(1, count + 1))
    firsts: Counter[int] = Counter()
    tables = 0
    for number in range(1, 6):
        pairing = formats.next_round(t)
        assert pairing is not None
        played = []
        for key, entrants in pairing.tables:
            firsts[entrants[0]] += 1
            tables += 1
            result = Result({e: i for i, e in enumerate(entrants, 1)}, {e: Fraction(0) for e in entrants})
            played.append(Table(key, number, list(entrants), computed=result))
        t.rounds.append(Round(number, played, list(pairing.byes), started=True))
    assert max(firsts.values()) == -(-tables // count) == 2


def test_the_planned_first_seats_sit_at_their_tables_and_are_the_same_each_time():
    plan, firsts = schedule.schedule(16, 3, 5), schedule.first_seats(16, 3, 5)
    assert [len(r) for r in firsts] == [len(r) for r in plan]
    assert all(firsts[r][i] in plan[r][i] for r in range(5) for i in range(len(plan[r])))
    assert firsts == schedule.first_seats(16, 3, 5)
    assert schedule.firsts_of(list("abcdefghijklmnop"), 3, 5, 6) == set()
