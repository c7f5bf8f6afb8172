"""Multi-player Swiss (issue #19): the seating's objective and search, first-seat rotation, short-table
rotation and placement points scaled across unequal tables. Property tests are bounded (few examples);
speed is measured by the benchmark (tests/bench/pairing_tables.py), not here."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import formats
from tournaments.log import RUNNING, Entrant, GameRecord, Result, Round, Table, Tournament
from tournaments.pairing import tables
from tournaments.pairing.tables import (
    History,
    layout,
    levels,
    objective_for,
    seat_order,
    seat_orders,
    seat_tables,
    table_sizes,
)
from tournaments.standings import Meeting, standings, table_points

F = Fraction


# --- the seating of one round ----------------------------------------------------------------------


def partitions(players, sizes):
    """Every way to cut ``players`` into tables of ``sizes`` (any order): the brute-force oracle."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for n in sorted(set(sizes)):
        others_sizes = list(sizes)
        others_sizes.remove(n)
        for others in itertools.combinations(rest, n - 1):
            remaining = [p for p in rest if p not in others]
            for more in partitions(remaining, others_sizes):
                yield [[head, *others], *more]


def random_met(rng, players, meetings):
    met = {p: {} for p in players}
    for _ in range(meetings):
        a, b = rng.sample(players, 2)
        met[a][b] = met[b][a] = met[a].get(b, 0) + 1
    return met


def repeats(seated, met):
    return sum(met.get(a, {}).get(b, 0) for t in seated for a, b in itertools.combinations(t, 2))


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 12), st.sampled_from([3, 4]), st.randoms(use_true_random=False))
def test_no_repeat_where_a_seating_without_one_exists(count, size, rng):
    """Equal scores (so the spread costs nothing): a repeat only when every seating has one."""
    players = list(range(count))
    met = random_met(rng, players, rng.randint(0, 3 * count))
    seated = seat_tables(players, size, dict.fromkeys(players, 0), met)
    fewest = min(repeats(p, met) for p in partitions(players, table_sizes(count, size)))
    assert repeats(seated, met) == fewest


@settings(max_examples=30, deadline=None)
@given(
    st.integers(6, 12),
    st.sampled_from([3, 4]),
    st.integers(1, 6),
    st.sampled_from([1, 2]),
    st.randoms(use_true_random=False),
)
def test_small_fields_get_the_cheapest_seating_of_the_documented_objective(count, size, number, span, rng):
    players = list(range(count))
    met = random_met(rng, players, rng.randint(0, 3 * count))
    scores = {p: rng.randint(0, 2 * number) for p in players}
    first = {p: rng.randint(0, number // 2) for p in players}
    ranked = sorted(players, key=lambda p: -scores[p])
    history = History(round=number, first=first, rounds=rng.choice([number, number + 2]))
    seated = seat_tables(ranked, size, scores, met, history=history, span=span)
    sizes = layout(count, size, number)
    cost = objective_for(ranked, sizes, size, scores, met, history, span)
    best = min(sum(cost(t) for t in p) for p in partitions(players, sizes))
    assert sum(cost(t) for t in seated) <= best * (1 + 1e-12) + 1e-9


def test_players_two_standings_tables_apart_never_sit_together_even_to_avoid_a_repeat():
    # Three score groups of four (10, 5, 0 points): each pair inside a group met. By standings a table
    # may take two adjacent groups only, so the top and the bottom four never mix; wider tables
    # (span ≤ 2) may mix all three, for fewer repeats.
    groups = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    met = {p: {} for g in groups for p in g}
    for g in groups:
        for a, b in itertools.combinations(g, 2):
            met[a][b] = met[b][a] = 1
    scores = {p: 10 - 5 * k for k, g in enumerate(groups) for p in g}
    ranked = [p for g in groups for p in g]

    def apart(t):
        return bool(set(t) & set(groups[0]) and set(t) & set(groups[2]))

    seated = seat_tables(ranked, 4, scores, met)
    assert not any(apart(t) for t in seated)
    fewest = min(repeats(p, met) for p in partitions(ranked, [4, 4, 4]) if not any(apart(t) for t in p))
    wider = repeats(seat_tables(ranked, 4, scores, met, span=2), met)
    assert (
        repeats(seated, met) == fewest > wider == min(repeats(p, met) for p in partitions(ranked, [4, 4, 4]))
    )


def test_repeats_go_before_score_spread_within_the_span():
    # Two groups of four a point apart; 1 met 2 and 3 met 4 on top, 5 met 6 and 7 met 8 below: the
    # groups mix to avoid every repeat although the spread grows.
    top, bottom = [1, 2, 3, 4], [5, 6, 7, 8]
    met = {p: {} for p in top + bottom}
    for a, b in ((1, 2), (3, 4), (5, 6), (7, 8)):
        met[a][b] = met[b][a] = 1
    close = {p: 3 if p in top else 2 for p in top + bottom}
    assert repeats(seat_tables(top + bottom, 4, close, met), met) == 0


def test_in_the_last_round_the_leaders_table_holds_the_top_of_the_standings_whatever_they_met():
    players = list(range(1, 13))
    scores = {p: 13 - p for p in players}
    met = {p: {} for p in players}
    for a, b in itertools.combinations([1, 2, 3, 4], 2):
        met[a][b] = met[b][a] = 1
    last = History(round=5, rounds=5)
    top = next(t for t in seat_tables(players, 4, scores, met, history=last) if 1 in t)
    assert sorted(top) == [1, 2, 3, 4]
    # Before the last round they meet again only as far as the span forces (the top four can only sit
    # with the next four: two pairs of them at two tables).
    earlier = seat_tables(players, 4, scores, met, history=History(round=4, rounds=5))
    assert repeats(earlier, met) == 2


def test_swaps_reach_across_the_whole_field_not_only_neighbouring_tables():
    # 24 players on 0 points; player 0 met everyone but the last table's four, five tables down.
    players = list(range(24))
    met = {p: {} for p in players}
    for b in range(1, 20):
        met[0][b] = met[b][0] = 1
    seated = seat_tables(players, 4, dict.fromkeys(players, 0), met)
    assert repeats(seated, met) == 0
    assert any(0 in t and set(t) - {0} <= {20, 21, 22, 23} for t in seated)


@given(st.integers(2, 200), st.integers(2, 8), st.integers(1, 12))
def test_the_layout_is_balanced_and_moves_the_short_tables_every_round(count, size, number):
    try:
        sizes = layout(count, size, number)
    except ValueError:
        return
    assert sorted(sizes) == sorted(table_sizes(count, size))
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size
    short = [i for i, n in enumerate(sizes) if n < max(sizes)]
    if short and number == 1:
        assert short == list(range(len(sizes) - len(short), len(sizes))), "round 1: at the bottom"


def test_short_tables_visit_every_level_of_the_field_over_rounds():
    # 18 at tables of 4: 4, 4, 4, 3, 3. Over five rounds every table position is short twice.
    seen = Counter(i for r in range(1, 6) for i, n in enumerate(layout(18, 4, r)) if n == 3)
    assert seen == dict.fromkeys(range(5), 2)
    assert [i for i, n in enumerate(layout(18, 4, 2)) if n == 3] == [0, 1], "round 2: at the top"


def test_seat_zero_goes_to_whoever_acted_first_least_then_the_latest_sitter():
    history = History(
        round=3, first={1: 2, 2: 0, 3: 0, 4: 1}, early={1: F(2), 2: F(1), 3: F(1, 3), 4: F(1)}, number={}
    )
    number = {1: 0, 2: 1, 3: 2, 4: 3}
    # 2 and 3 never sat first; 3 sat later on average: 3 first. Then the latest sitters: 2 (1) and 4 (1)
    # by pairing number, then 1 who sat earliest.
    assert seat_order([1, 2, 3, 4], history, number) == [3, 2, 4, 1]


def test_the_local_search_reads_meetings_with_players_no_longer_seated():
    # Above the exact search's reach: 0 and 1 met (a repeat to mend), and 0 once met 99, who withdrew.
    ranked = list(range(30))
    met = {0: {1: 1, 99: 1}, 1: {0: 1}, 99: {0: 1}}
    seated = seat_tables(ranked, 3, dict.fromkeys(ranked, 0.0), met)
    assert sorted(p for t in seated for p in t) == ranked
    assert repeats(seated, met) == 0


def test_a_first_seat_that_caps_a_player_goes_where_players_under_the_cap_remain():
    # Cap 2. At the second table 4 and 6 both had one first seat, so either reaches the cap. Near 4 in
    # the ranking sit 1, 2 and 3, all at the cap already: a later table of that part of the standings
    # would have nobody left to sit first. 6 is nearer the players under the cap, so 6 sits first.
    ranked = list(range(1, 13))
    seated = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    history = History(round=4, first={1: 2, 2: 2, 3: 2, 4: 1, 6: 1}, rounds=5)
    number = {p: p for p in ranked}
    orders = seat_orders(seated, ranked, history, number, cap=2, size=3)
    assert [t[0] for t in orders] == [1, 5, 7, 10]
    history = History(round=4, first={1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1}, rounds=5)
    orders = seat_orders(seated, ranked, history, number, cap=2, size=3)
    assert orders[1][0] == 6, "4 and 6 tie on first seats; 6 leaves more room under the cap nearby"
    assert seat_order([4, 5, 6], history, number)[0] == 4, "one table alone would have taken 4"


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 40), st.integers(3, 5), st.integers(1, 3), st.randoms(use_true_random=False))
def test_nobody_passes_the_first_seat_cap_where_a_table_mate_is_under_it(players, size, cap, rng):
    """Random tables and first-seat histories: a round's first seats keep everyone within the cap
    wherever that is possible (a table with a player under the cap gives seat 0 to such a player), and
    each table keeps its players."""
    ranked = list(range(players))
    sizes = table_sizes(players, size)
    order = rng.sample(ranked, players)
    seated, start = [], 0
    for n in sizes:
        seated.append(sorted(order[start : start + n]))
        start += n
    seated.sort(key=min)
    first = {p: rng.randint(0, cap) for p in ranked}
    history = History(round=3, first=first, rounds=5)
    orders = seat_orders(seated, ranked, history, {p: p for p in ranked}, cap=cap, size=size)
    assert [sorted(t) for t in orders] == seated
    for table in orders:
        if any(first[p] < cap for p in table):
            assert first[table[0]] < cap
        assert first[table[0]] == min(first[p] for p in table)


# --- whole tournaments -----------------------------------------------------------------------------


def swiss(players, size, rounds):
    t = Tournament(name="t", game="dominoes", format="swiss", options={"table_size": size, "rounds": rounds})
    t.status = RUNNING
    t.entrants = {e: Entrant(e, f"P{e}") for e in range(1, players + 1)}
    t.seeding = list(t.entrants)
    return t


def play(t, pairing, rng):
    played = []
    for key, entrants in pairing.tables:
        order = list(entrants)
        rng.shuffle(order)
        result = Result({e: i for i, e in enumerate(order, 1)}, {e: F(0) for e in entrants})
        played.append(Table(key, pairing.round, list(entrants), computed=result))
    t.rounds.append(Round(pairing.round, played, started=True))


@settings(max_examples=12, deadline=None)
@given(
    st.integers(9, 120),
    st.integers(3, 5),
    st.integers(4, 7),
    st.lists(st.integers(1, 120), max_size=12),
    st.sampled_from(["standings", "wider"]),
    st.randoms(use_true_random=False),
)
def test_whole_swiss_events_seat_by_standings(players, size, rounds, out, seating, rng):
    """Random fields, random results and withdrawals between rounds: every round seats each active
    entrant once at tables within one seat of each other; every table of every round spans at most
    one standings-table (two with wider tables); the last round's top table holds the leaders; nobody
    sits first past the cap by more than one."""
    t = swiss(players, size, rounds)
    t.options["seating"] = seating
    limit = tables.SPANS[seating]
    firsts: Counter[int] = Counter()
    leaving = [e for e in dict.fromkeys(out) if e <= players]
    for number in range(1, rounds + 1):
        if leaving and number > 1 and len(t.active()) > 2 * size:
            t.entrants[leaving.pop()].withdrawn = True
        rows = formats.standings(t)
        ranked = formats.ranked_active(t, rows)
        score = formats._primary(t, rows)
        pairing = formats.next_round(t)
        assert pairing is not None and pairing.round == number
        seated = [entrants for _key, entrants in pairing.tables]
        assert sorted(e for tb in seated for e in tb) == sorted(t.active())
        sizes = [len(tb) for tb in seated]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size
        level = levels(ranked, score, layout(len(ranked), size, number))
        for tb in seated:
            assert max(level[e][0] for e in tb) - min(level[e][1] for e in tb) <= limit
        if number == rounds:
            top = next(tb for tb in seated if ranked[0] in tb)
            assert all(level[e][0] == 0 for e in top), "the leaders meet in the last round"
        firsts.update(tb[0] for tb in seated)
        play(t, pairing, rng)
    cap = tables.first_seat_cap(rounds, math.ceil(players / size), players)
    assert max(firsts.values()) <= cap + 1
    assert formats.next_round(t) is None


def test_the_first_seat_rotates_instead_of_going_to_the_leader():
    t = swiss(16, 4, 5)
    rng = random.Random(3)
    firsts: Counter[int] = Counter()
    for _ in range(5):
        pairing = formats.next_round(t)
        assert pairing is not None
        firsts.update(entrants[0] for _key, entrants in pairing.tables)
        play(t, pairing, rng)
    assert max(firsts.values()) <= 2, "20 first seats among 16 players: nobody needs a third"


def test_a_past_table_counts_its_own_order_for_the_first_seats():
    t = swiss(6, 3, 3)
    t.rounds.append(Round(1, [Table("R1-T1", 1, [4, 1, 2]), Table("R1-T2", 1, [3, 5, 6])], started=True))
    history = formats.seat_history(t)
    assert history.round == 2 and dict(history.first) == {4: 1, 3: 1}
    assert history.early[4] == 1 and history.early[1] == F(1, 2) and history.early[2] == 0


# --- placement points across unequal tables --------------------------------------------------------


def test_full_tables_keep_todays_points():
    assert table_points({1: 1, 2: 2, 3: 3, 4: 4}, table_size=4) == {1: 3, 2: 2, 3: 1, 4: 0}
    assert table_points({1: 1, 2: 2, 3: 2, 4: 4}, table_size=4) == {1: 3, 2: F(3, 2), 3: F(3, 2), 4: 0}
    assert table_points({1: 1, 2: 2}, table_size=2) == {1: 1, 2: 0}
    assert table_points({1: 1, 2: 2, 3: 3}, table_size=3) == table_points({1: 1, 2: 2, 3: 3})


def test_a_short_table_is_scaled_to_the_same_average_as_a_full_one():
    assert table_points({1: 1, 2: 2, 3: 3}, table_size=4) == {1: 3, 2: F(3, 2), 3: 0}
    assert table_points({1: 1, 2: 2}, table_size=4) == {1: 3, 2: 0}
    assert table_points({1: 1, 2: 2, 3: 3, 4: 4}, table_size=5) == {1: 4, 2: F(8, 3), 3: F(4, 3), 4: 0}


@given(st.integers(3, 8), st.data())
def test_every_table_size_is_worth_the_same_on_average_and_ties_share(size, data):
    n = data.draw(st.integers(2, size))
    places = data.draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    points = table_points(dict(enumerate(places)), table_size=size)
    assert sum(points.values()) / n == F(size - 1, 2)
    for a, b in itertools.combinations(range(n), 2):
        if places[a] == places[b]:
            assert points[a] == points[b]
        elif places[a] < places[b]:
            assert points[a] > points[b]
    # p-th of n, no ties: (n - p) · (S - 1) / (n - 1).
    plain = table_points({i: i for i in range(1, n + 1)}, table_size=size)
    assert plain == {p: F((n - p) * (size - 1), n - 1) for p in range(1, n + 1)}


def test_standings_scale_the_short_tables_with_the_tournaments_size():
    meetings = [Meeting(1, {1: 1, 2: 2, 3: 3, 4: 4}), Meeting(1, {5: 1, 6: 2, 7: 3})]
    plain = {r.entrant: r.values["match_points"] for r in standings(range(1, 8), meetings, ["match_points"])}
    scaled = {
        r.entrant: r.values["match_points"]
        for r in standings(range(1, 8), meetings, ["match_points"], table_size=4)
    }
    assert plain[5] == 2 and scaled[5] == 3 and scaled[6] == F(3, 2) and scaled[1] == plain[1] == 3


def test_the_tournament_standings_use_the_scaled_points():
    t = swiss(7, 4, 3)
    t.rounds.append(
        Round(
            1,
            [
                Table("R1-T1", 1, [1, 2, 3, 4], computed=Result({1: 1, 2: 2, 3: 3, 4: 4}, {})),
                Table("R1-T2", 1, [5, 6, 7], computed=Result({5: 1, 6: 2, 7: 3}, {})),
            ],
            started=True,
        )
    )
    points = {int(r.entrant): r.values["match_points"] for r in formats.standings(t)}
    assert points == {1: 3, 2: 2, 3: 1, 4: 0, 5: 3, 6: F(3, 2), 7: 0}


def test_a_multi_player_match_adds_placement_points_with_ties_shared():
    # Game 1: 1 and 2 share first. Game 2: 3 wins, 1 second, 2 third. Shared: 1 = 2½ + 2, 2 = 2½ + 1,
    # 3 = 1 + 3 = 4: 1 first, 3 second, 2 third (counting a shared first as 3 each would tie 2 and 3).
    t = swiss(4, 4, 1)
    t.options["best_of"] = 2
    table = Table("R1-T1", 1, [1, 2, 3, 4])
    table.games = [
        GameRecord(1, 1, [1, 2, 3, 4], {1: 1, 2: 1, 3: 3, 4: 4}, {e: F(0) for e in range(1, 5)}),
        GameRecord(2, 2, [2, 3, 4, 1], {3: 1, 1: 2, 2: 3, 4: 4}, {e: F(0) for e in range(1, 5)}),
    ]
    result = formats.decide_match(t, table, elimination=False)
    assert result is not None and result.places == {1: 1, 3: 2, 2: 3, 4: 4}


@settings(max_examples=4, deadline=None)
@given(st.integers(25, 32), st.sampled_from([3, 4]), st.integers(2, 6), st.randoms(use_true_random=False))
def test_past_the_exact_search_no_two_nearby_tables_can_be_cut_again_more_cheaply(count, size, number, rng):
    """Fields past ``EXACT_UP_TO`` but up to ``REGROUP_UP_TO``: the seating is a local optimum of the
    regrouping (no two tables close in the ranking seat their players better together)."""
    players = list(range(count))
    met = random_met(rng, players, rng.randint(0, 3 * count))
    scores = {p: rng.randint(0, 2 * number) for p in players}
    ranked = sorted(players, key=lambda p: -scores[p])
    history = History(round=number)
    seated = seat_tables(ranked, size, scores, met, history=history)
    cost = objective_for(ranked, layout(count, size, number), size, scores, met, history, 1)
    place = {p: i for i, p in enumerate(ranked)}
    ordered = sorted(seated, key=lambda t: min(place[p] for p in t))
    for i, j in itertools.combinations(range(len(ordered)), 2):
        if j - i > tables.REGROUP_REACH:
            continue
        group = [ordered[i], ordered[j]]
        together = [p for t in group for p in t]
        now = sum(cost(t) for t in group)
        best = min(sum(cost(t) for t in cut) for cut in partitions(together, [len(t) for t in group]))
        assert now <= best * (1 + 1e-12) + 1e-9


def test_repeats_outrank_the_first_seat_cap():
    """Issue #31 ranks the fewest repeats above even first seats. 2 met everyone but 6, and 2 and 6
    are the only players under the cap (1): two tables with no repeat must put them together and
    leave the other table all at the cap (one first seat past it); the cap kept would cost 2 repeats."""
    met = {2: {1: 1, 3: 1, 4: 1, 5: 1}}
    history = History(round=2, first={1: 1, 3: 1, 4: 1, 5: 1}, rounds=3)
    seated = seat_tables([1, 2, 3, 4, 5, 6], 3, dict.fromkeys(range(1, 7), 1.0), met, history=history)
    together = next(tb for tb in seated if 2 in tb)
    assert 6 in together, "2 sits with the one player it has not met"
    other = next(tb for tb in seated if 2 not in tb)
    assert all(history.first[p] == 1 for p in other), "so the other table's first seat passes the cap"
