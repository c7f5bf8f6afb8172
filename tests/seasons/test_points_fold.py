"""The points ranking's fold (seasons/points.py) against a computation written here from the rules'
words: each player's points add up over the games in the window and club; a game's win is the higher
score alone, a draw the higher score shared."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from seasons.points import Counted, rank, window

T0 = datetime(2026, 3, 2, 12, tzinfo=UTC)  # a Monday


def _games(seed: int, n: int = 300) -> list[Counted]:
    rng = random.Random(seed)
    players = [(f"user:{i}", f"P{i}") for i in range(8)]
    out = []
    for i in range(n):
        a, b = rng.sample(players, 2)
        out.append(
            Counted(
                rng.choice(["kazino", "other"]),
                i // 3,
                1,
                i % 3 + 1,
                T0 + timedelta(hours=rng.randrange(0, 24 * 70)),
                rng.choice([None, 1, 2]),
                ((a[0], a[1], rng.choice([0, 10, 15, 20])), (b[0], b[1], rng.choice([0, 10, 15, 20]))),
            )
        )
    return out


def _expected(games, game, club, since, until):
    totals: dict[str, list[int]] = {}
    for g in games:
        if g.game != game or (club is not None and g.club_id != club):
            continue
        if since is not None and g.at < since or until is not None and g.at >= until:
            continue
        (ka, _na, pa), (kb, _nb, pb) = g.players
        for key, mine, theirs in ((ka, pa, pb), (kb, pb, pa)):
            t = totals.setdefault(key, [0, 0, 0, 0])
            t[0] += mine
            t[1] += 1
            t[2] += mine > theirs
            t[3] += mine == theirs
    return totals


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("club", [None, 1, 2])
def test_the_fold_agrees_with_a_direct_count(seed, club):
    games = _games(seed)
    since, until = T0 + timedelta(days=10), T0 + timedelta(days=40)
    for s, u in ((None, None), (since, None), (since, until)):
        lines = rank(games, "kazino", club_id=club, since=s, until=u)
        expected = _expected(games, "kazino", club, s, u)
        assert {ln.player: [ln.points, ln.games, ln.wins, ln.draws] for ln in lines} == expected
        # best first: total points, then points per game
        keys = [(-ln.points, -ln.per_game) for ln in lines]
        assert keys == sorted(keys)


def test_windows_are_the_calendar_week_month_and_season_days():
    now = datetime(2026, 3, 5, 9, tzinfo=UTC)  # a Thursday
    assert window("week", now) == (datetime(2026, 3, 2, tzinfo=UTC), None)
    assert window("month", now) == (datetime(2026, 3, 1, tzinfo=UTC), None)
    days = (datetime(2026, 1, 1).date(), datetime(2026, 6, 30).date())
    assert window("season", now, days) == (
        datetime(2026, 1, 1, tzinfo=UTC),
        datetime(2026, 7, 1, tzinfo=UTC),
    )
    assert window("all", now) == (None, None)
    with pytest.raises(ValueError):
        window("year", now)
