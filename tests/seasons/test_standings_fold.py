"""A season's standings (seasons/standings.py) against a computation written here from the season's
words: each event's place is worth the table's points (or the field minus the place plus one), a
player's best N count, the total ranks, then the tie-breaks in order."""

from __future__ import annotations

import random

import pytest

from seasons.standings import EventResult, place_points, standings


def _events(seed: int, n: int = 8) -> list[EventResult]:
    rng = random.Random(seed)
    players = [f"user:{i}" for i in range(10)]
    out = []
    for ref in range(1, n + 1):
        field = rng.sample(players, rng.randrange(3, 9))
        places = {p: i + 1 for i, p in enumerate(field)}
        if rng.random() < 0.3 and len(field) > 3:  # a shared place
            places[field[2]] = 2
        out.append(
            EventResult(ref, f"Night {ref}", f"2026-01-{ref:02d}", places, {p: p.upper() for p in field})
        )
    return out


def _expected(events, scoring, best):
    results: dict[str, list[int]] = {}
    for e in events:
        for player, place in e.places.items():
            if scoring["kind"] == "table":
                pts = scoring["table"][place - 1] if place <= len(scoring["table"]) else 0
            else:
                pts = len(e.places) - place + 1
            results.setdefault(player, []).append(pts)
    return {p: sum(sorted(r, reverse=True)[:best] if best else r) for p, r in results.items()}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("best", [None, 1, 3])
@pytest.mark.parametrize("scoring", [{"kind": "table", "table": [25, 18, 15, 12, 10]}, {"kind": "field"}])
def test_the_season_fold_agrees_with_a_direct_count(seed, best, scoring):
    events = _events(seed)
    ranked = standings(events, scoring, best, ["wins", "countback"])
    assert {s.player: s.points for s in ranked} == _expected(events, scoring, best)
    assert all(
        sum(r.counted for r in s.results) == (min(best, s.events) if best else s.events) for s in ranked
    )
    # ranked by counted points, best first; a rank is shared only by players equal on every tie-break
    assert [s.points for s in ranked] == sorted((s.points for s in ranked), reverse=True)
    for a, b in zip(ranked, ranked[1:], strict=False):
        if a.rank == b.rank:
            assert (a.points, a.wins, sorted(r.place for r in a.results)) == (
                b.points,
                b.wins,
                sorted(r.place for r in b.results),
            )


def test_best_n_drops_the_worst_results_and_the_tie_breaks_decide_in_order():
    ev = [
        EventResult(1, "A", "2026-01-01", {"a": 1, "b": 2, "c": 3}, {}),
        EventResult(2, "B", "2026-01-08", {"a": 3, "b": 1, "c": 2}, {}),
        EventResult(3, "C", "2026-01-15", {"a": 2, "c": 1}, {}),
    ]
    table = {"kind": "table", "table": [10, 6, 4]}
    # all count: a 10+4+6=20, b 6+10=16, c 4+6+10=20 — a and c tie on points
    ranked = standings(ev, table, None, [])
    assert [(s.player, s.points, s.rank) for s in ranked] == [("a", 20, 1), ("c", 20, 1), ("b", 16, 3)]
    # best 2: a 10+6=16, b 16, c 10+6=16; countback compares the places one by one: a and c have a
    # 1st, a 2nd and a 3rd, b a 1st and a 2nd only
    ranked = standings(ev, table, 2, ["countback"])
    assert [(s.player, s.points, s.rank) for s in ranked] == [("a", 16, 1), ("c", 16, 1), ("b", 16, 3)]
    # more events played does the same, and all points keep a and c level
    ranked = standings(ev, table, 2, ["events", "all_points"])
    assert [(s.player, s.rank) for s in ranked] == [("a", 1), ("c", 1), ("b", 3)]
    dropped = {s.player: [r.event for r in s.results if not r.counted] for s in ranked}
    assert dropped == {"a": [2], "b": [], "c": [1]}


def test_place_points():
    assert place_points({"kind": "table", "table": [3, 1]}, 1, 9) == 3
    assert place_points({"kind": "table", "table": [3, 1]}, 3, 9) == 0
    assert place_points({"kind": "field"}, 1, 9) == 9
    assert place_points({"kind": "field"}, 9, 9) == 1
