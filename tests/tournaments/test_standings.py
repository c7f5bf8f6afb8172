"""Standings and tie-breaks: hand-computed events (the arithmetic is in the comments) and properties."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.duplicate import matchpoints, percentages
from tournaments.standings import CRITERIA, Meeting, standings, table_points


def duel(rnd: int, winner: str, loser: str, draw: bool = False) -> Meeting:
    return Meeting(rnd, {winner: 1, loser: 1 if draw else 2})


def by_entrant(rows):
    return {row.entrant: row for row in rows}


# Four players, three rounds of a two-player Swiss, one draw:
#   R1  A beats B    C draws D
#   R2  A beats C    B beats D
#   R3  D beats A    C beats B
# match points: A 1+1+0 = 2, B 0+1+0 = 1, C ½+0+1 = 1½, D ½+0+1 = 1½
SWISS = [
    duel(1, "A", "B"),
    duel(1, "C", "D", draw=True),
    duel(2, "A", "C"),
    duel(2, "B", "D"),
    duel(3, "D", "A"),
    duel(3, "C", "B"),
]


def test_a_two_player_swiss_with_a_draw_gives_the_hand_computed_tie_breaks():
    rows = by_entrant(standings("ABCD", SWISS, CRITERIA))
    expected = {
        # buchholz = sum of opponents' match points:
        #   A: B 1 + C 1½ + D 1½ = 4      B: A 2 + D 1½ + C 1½ = 5
        #   C: D 1½ + A 2 + B 1 = 4½      D: C 1½ + B 1 + A 2 = 4½
        # cut-1 drops the lowest: A 4-1 = 3, B 5-1½ = 3½, C 4½-1 = 3½, D 4½-1 = 3½
        # median drops lowest and highest: 1½ for everyone
        # SB = sum of opponent's points x result:
        #   A: B 1x1 + C 1½x1 + D 1½x0 = 2½
        #   B: A 2x0 + D 1½x1 + C 1½x0 = 1½
        #   C: D 1½x½ + A 2x0 + B 1x1 = ¾ + 1 = 1¾
        #   D: C 1½x½ + B 1x0 + A 2x1 = ¾ + 2 = 2¾
        "A": dict(
            match_points=2, buchholz=4, buchholz_cut1=3, buchholz_median=F(3, 2), sonneborn_berger=F(5, 2)
        ),
        "B": dict(
            match_points=1,
            buchholz=5,
            buchholz_cut1=F(7, 2),
            buchholz_median=F(3, 2),
            sonneborn_berger=F(3, 2),
        ),
        "C": dict(
            match_points=F(3, 2),
            buchholz=F(9, 2),
            buchholz_cut1=F(7, 2),
            buchholz_median=F(3, 2),
            sonneborn_berger=F(7, 4),
        ),
        "D": dict(
            match_points=F(3, 2),
            buchholz=F(9, 2),
            buchholz_cut1=F(7, 2),
            buchholz_median=F(3, 2),
            sonneborn_berger=F(11, 4),
        ),
    }
    for who, values in expected.items():
        for name, value in values.items():
            assert rows[who].values[name] == value, (who, name)
    assert rows["A"].values["wins"] == 2 and rows["B"].values["wins"] == 1
    assert all(isinstance(v, F) for row in rows.values() for v in row.values.values())


def test_criteria_apply_in_order_and_ties_share_a_rank():
    # C and D are level on points and Buchholz (4½); SB splits them: D 2¾ > C 1¾.
    rows = standings("ABCD", SWISS, ["match_points", "buchholz", "sonneborn_berger"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, "A"), (2, "D"), (3, "C"), (4, "B")]
    assert list(rows[0].values) == ["match_points", "buchholz", "sonneborn_berger"]
    # On cut-1 they stay level (3½ each): a shared second place, then fourth.
    rows = standings("ABCD", SWISS, ["match_points", "buchholz_cut1"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, "A"), (2, "C"), (2, "D"), (4, "B")]
    # Their drawn game leaves head-to-head at ½ each: still level.
    rows = standings("ABCD", SWISS, ["match_points", "head_to_head"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, "A"), (2, "C"), (2, "D"), (4, "B")]
    assert by_entrant(rows)["C"].values["head_to_head"] == F(1, 2)


def test_everyone_equal_on_everything_shares_first_place():
    meetings = [duel(1, "A", "B", draw=True), duel(1, "C", "D", draw=True)]
    rows = standings("ABCD", meetings, CRITERIA)
    assert [r.rank for r in rows] == [1, 1, 1, 1]
    assert [r.entrant for r in rows] == list("ABCD"), "ties keep the order entrants were given in"


# Eight players, three rounds at two tables of four (places per table; equal places = tie):
#   R1  {1:1, 2:2, 3:3, 4:4} -> 3, 2, 1, 0        {5:1, 6:2, 7:2, 8:4} -> 3, 1½, 1½, 0  (6, 7 share 2+1)
#   R2  {5:1, 1:2, 6:3, 2:4} -> 3, 2, 1, 0        {3:1, 7:1, 4:3, 8:3} -> 2½, 2½, ½, ½  (share 3+2, 1+0)
#   R3  {5:1, 1:1, 3:1, 7:4} -> 2, 2, 2, 0        {6:1, 2:2, 4:3, 8:4} -> 3, 2, 1, 0    (share 3+2+1)
# placement points: 1: 3+2+2 = 7   2: 2+0+2 = 4   3: 1+2½+2 = 5½   4: 0+½+1 = 1½
#                   5: 3+3+2 = 8   6: 1½+1+3 = 5½ 7: 1½+2½+0 = 4   8: 0+½+0 = ½      (total 36 = 6 tables x 6)
# sole firsts: 1 (R1), 5 (R1, R2), 6 (R3); the shared firsts of R2 and R3 count for nobody.
TABLES = [
    Meeting(1, {1: 1, 2: 2, 3: 3, 4: 4}),
    Meeting(1, {5: 1, 6: 2, 7: 2, 8: 4}),
    Meeting(2, {5: 1, 1: 2, 6: 3, 2: 4}),
    Meeting(2, {3: 1, 7: 1, 4: 3, 8: 3}),
    Meeting(3, {5: 1, 1: 1, 3: 1, 7: 4}),
    Meeting(3, {6: 1, 2: 2, 4: 3, 8: 4}),
]


def test_four_player_tables_give_placement_points_with_shared_places():
    assert table_points({1: 1, 2: 2, 3: 2, 4: 4}) == {1: 3, 2: F(3, 2), 3: F(3, 2), 4: 0}
    assert table_points({1: 1, 2: 2, 3: 2, 4: 3}) == table_points({1: 1, 2: 2, 3: 2, 4: 4})
    rows = standings(range(1, 9), TABLES, ["placement_points", "wins"])
    points = {r.entrant: r.values["placement_points"] for r in rows}
    assert points == {1: 7, 2: 4, 3: F(11, 2), 4: F(3, 2), 5: 8, 6: F(11, 2), 7: 4, 8: F(1, 2)}
    assert {r.entrant: r.values["wins"] for r in rows} == {1: 1, 2: 0, 3: 0, 4: 0, 5: 2, 6: 1, 7: 0, 8: 0}
    # 3 and 6 level on 5½: 6 has a win. 2 and 7 level on 4, no wins, never met: shared fifth.
    assert [(r.rank, r.entrant) for r in rows] == [
        (1, 5),
        (2, 1),
        (3, 6),
        (4, 3),
        (5, 2),
        (5, 7),
        (7, 4),
        (8, 8),
    ]


def test_buchholz_at_tables_counts_every_opponent_at_every_table():
    rows = by_entrant(standings(range(1, 9), TABLES, ["match_points", "buchholz"]))
    # Player 3 met 1, 2, 4 (R1), 7, 4, 8 (R2), 5, 1, 7 (R3):
    # 7 + 4 + 1½ + 4 + 1½ + ½ + 8 + 7 + 4 = 37½
    assert rows[3].values["buchholz"] == F(75, 2)


def test_head_to_head_breaks_a_two_way_tie_counting_only_games_inside_the_group():
    # R1 A beats B, C draws D; R2 C beats A, B beats D.
    # match points: A 1, B 1, C 1½, D ½. A and B are level; A beat B: head-to-head A 1, B 0
    # (B's win over D is outside the tied group and does not count). C, alone on 1½, has 0.
    meetings = [duel(1, "A", "B"), duel(1, "C", "D", draw=True), duel(2, "C", "A"), duel(2, "B", "D")]
    rows = standings("BADC", meetings, ["match_points", "head_to_head"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, "C"), (2, "A"), (3, "B"), (4, "D")]
    h2h = {r.entrant: r.values["head_to_head"] for r in rows}
    assert h2h == {"C": 0, "A": 1, "B": 0, "D": 0}


# Skyjo: the lowest score wins a round. Three players at one table, twice:
#   R1 scores P 10, Q 25, R 40 -> places P 1, Q 2, R 3 -> match points 2, 1, 0
#   R2 scores P 30, Q 5, R 30  -> places Q 1, P 2, R 2 -> Q 2, P and R ½ each (share 1+0)
# game points (as scored): P 40, Q 30, R 70
# point difference, own minus the mean of the others:
#   R1 P 10-32½ = -22½, Q 25-25 = 0, R 40-17½ = 22½;  R2 P 30-17½ = 12½, Q 5-30 = -25, R 30-17½ = 12½
#   totals P -10, Q -25, R 35
SKYJO = [
    Meeting(1, {"P": 1, "Q": 2, "R": 3}, {"P": 10, "Q": 25, "R": 40}),
    Meeting(2, {"Q": 1, "P": 2, "R": 2}, {"P": 30, "Q": 5, "R": 30}),
]


def test_lower_score_wins_ranks_fewer_points_higher_and_keeps_the_values_as_scored():
    rows = standings("PQR", SKYJO, ["game_points"], lower_score_wins=True)
    assert [(r.entrant, r.values["game_points"]) for r in rows] == [("Q", 30), ("P", 40), ("R", 70)]
    rows = standings("PQR", SKYJO, ["point_difference"], lower_score_wins=True)
    assert [(r.entrant, r.values["point_difference"]) for r in rows] == [("Q", -25), ("P", -10), ("R", 35)]
    rows = standings("PQR", SKYJO, ["match_points", "game_points"], lower_score_wins=True)
    assert [(r.entrant, r.values["match_points"]) for r in rows] == [("Q", 3), ("P", F(5, 2)), ("R", F(1, 2))]
    # Without the flag the same numbers rank the other way.
    rows = standings("PQR", SKYJO, ["game_points"])
    assert [r.entrant for r in rows] == ["R", "P", "Q"]


# Byes. Three players and D, who never plays:
#   R1 A beats B, C bye;  R2 C beats A, B bye;  R3 B draws C, A bye
# match points (bye = 1): A 1+0+1 = 2, B 0+1+½ = 1½, C 1+1+½ = 2½; placement points drop the byes:
#   A 1, B ½, C 1½. Buchholz (byes add no opponent): A: B 1½ + C 2½ = 4, B: A 2 + C 2½ = 4½,
#   C: A 2 + B 1½ = 3½. Wins: A 1, C 1 (byes are not wins).
BYES = [
    duel(1, "A", "B"),
    Meeting(1, {"C": 1}, bye=True),
    duel(2, "C", "A"),
    Meeting(2, {"B": 1}, bye=True),
    duel(3, "B", "C", draw=True),
    Meeting(3, {"A": 1}, bye=True),
]


def test_byes_earn_bye_points_in_match_points_only():
    rows = by_entrant(standings("ABCD", BYES, CRITERIA))
    assert {e: r.values["match_points"] for e, r in rows.items()} == {
        "A": 2,
        "B": F(3, 2),
        "C": F(5, 2),
        "D": 0,
    }
    assert {e: r.values["placement_points"] for e, r in rows.items()} == {
        "A": 1,
        "B": F(1, 2),
        "C": F(3, 2),
        "D": 0,
    }
    assert {e: r.values["buchholz"] for e, r in rows.items()} == {"A": 4, "B": F(9, 2), "C": F(7, 2), "D": 0}
    assert {e: r.values["wins"] for e, r in rows.items()} == {"A": 1, "B": 0, "C": 1, "D": 0}
    assert set(rows["D"].values.values()) == {0}, "an entrant who played nothing has all zeros"
    half = by_entrant(standings("ABCD", BYES, ["match_points"], bye_points=F(1, 2)))
    assert {e: r.values["match_points"] for e, r in half.items()} == {"A": F(3, 2), "B": 1, "C": 2, "D": 0}
    assert [r.entrant for r in standings("ABCD", BYES, ["match_points"])] == ["C", "A", "B", "D"]


def test_bad_input_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="'bucholz'.*valid criteria: match_points, placement_points"):
        standings("AB", [], ["bucholz"])
    with pytest.raises(ValueError, match="'Z' is not among the entrants"):
        standings("AB", [duel(1, "A", "Z")], ["match_points"])
    with pytest.raises(ValueError, match="bye has exactly one entrant"):
        standings("AB", [Meeting(1, {"A": 1, "B": 1}, bye=True)], ["match_points"])
    with pytest.raises(ValueError, match="'C' has a score but no place"):
        standings("ABC", [Meeting(1, {"A": 1, "B": 2}, {"A": 3, "C": 1})], ["game_points"])
    with pytest.raises(ValueError, match="needs two entrants or more"):
        standings("AB", [Meeting(1, {"A": 1})], ["match_points"])
    with pytest.raises(ValueError, match="criteria repeat"):
        standings("AB", [], ["wins", "wins"])


def test_a_score_left_out_of_a_scored_meeting_counts_zero():
    # A 6, B missing: A +6, B -6 point difference, A 6 and B 0 game points.
    rows = by_entrant(
        standings("AB", [Meeting(1, {"A": 1, "B": 2}, {"A": 6})], ["game_points", "point_difference"])
    )
    assert rows["A"].values == {"game_points": 6, "point_difference": 6}
    assert rows["B"].values == {"game_points": 0, "point_difference": -6}


# Duplicate mode (kept here with the other scoring maths): three tables, the same deal, two seats.
#   seat 0: T1 10, T2 7, T3 10 -> T1 beats T2 (2) + ties T3 (1) = 3, T2 0, T3 2 + 1 = 3
#   seat 1: T1 4, T2 4, T3 9   -> T1 ties T2 (1) = 1, T2 1, T3 beats both = 4
# every seat hands out 2 x (3 choose 2) = 6; the top is 2 x (3 - 1) = 4, so 3 is 75%, 1 is 25%.
DEAL = {"T1": [10, 4], "T2": [7, 4], "T3": [10, 9]}


def test_duplicate_matchpoints_compare_each_seat_across_tables():
    assert matchpoints(DEAL) == {"T1": [3, 1], "T2": [0, 1], "T3": [3, 4]}
    assert percentages(DEAL) == {"T1": [75, 25], "T2": [0, 25], "T3": [75, 100]}
    assert all(isinstance(p, F) for points in matchpoints(DEAL).values() for p in points)


def test_duplicate_with_the_lowest_score_winning():
    # seat 0: T2 7 beats both = 4; T1 and T3 tie on 10 and lose to T2 = 1 each
    # seat 1: T1 and T2 tie on 4 and both beat T3's 9 = 3 each; T3 0
    assert matchpoints(DEAL, lower_score_wins=True) == {"T1": [1, 3], "T2": [4, 3], "T3": [1, 0]}
    assert percentages(DEAL, lower_score_wins=True) == {"T1": [25, 75], "T2": [100, 75], "T3": [25, 0]}


def test_duplicate_edge_cases():
    assert matchpoints({"T1": [F(5, 2), 3]}) == {"T1": [0, 0]}
    assert percentages({"T1": [F(5, 2), 3]}) == {"T1": [50, 50]}, "a lone table scores the average"
    with pytest.raises(ValueError, match="same seats"):
        matchpoints({"T1": [1, 2], "T2": [1, 2, 3]})


@st.composite
def events(draw):
    n = draw(st.integers(1, 9))
    entrants = list(range(n))
    meetings = []
    for rnd in range(1, draw(st.integers(0, 5)) + 1):
        pool = draw(st.permutations(entrants))
        while pool:
            size = draw(st.integers(1, min(4, len(pool))))
            seated, pool = pool[:size], pool[size:]
            if size == 1:
                meetings.append(Meeting(rnd, {seated[0]: 1}, bye=True))
                continue
            places = {e: draw(st.integers(1, size)) for e in seated}
            scores = {e: draw(st.integers(-5, 20)) for e in seated} if draw(st.booleans()) else {}
            meetings.append(Meeting(rnd, places, scores))
    criteria = draw(st.lists(st.sampled_from(CRITERIA), unique=True, max_size=5))
    return entrants, meetings, criteria


@settings(max_examples=200, deadline=None)
@given(events(), st.booleans())
def test_rows_are_a_ranking_of_every_entrant(event, lower_score_wins):
    entrants, meetings, criteria = event
    rows = standings(entrants, meetings, criteria, lower_score_wins=lower_score_wins)
    assert sorted(r.entrant for r in rows) == entrants
    assert rows[0].rank == 1
    for before, row in zip(rows, rows[1:], strict=False):
        assert row.rank >= before.rank
        # Competition ranking: a rank is 1 + the number of rows above, or the tied row's rank.
        assert row.rank in (before.rank, rows.index(row) + 1)
        assert (row.rank == before.rank) == (row.values == before.values)
        assert list(row.values) == criteria
    total = sum((r.values.get("placement_points", F(0)) for r in rows), F(0))
    if "placement_points" in criteria:
        assert total == sum(len(m.places) * (len(m.places) - 1) / F(2) for m in meetings if not m.bye)
