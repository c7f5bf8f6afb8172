"""The game chances of two-sided Block: the equity table, checked against a simulated race."""

from __future__ import annotations

import random

import pytest

from games.bots.dominoes_equity import DRAWN, FOLLOW, LEAD, SCALE, Equity, kind, measure
from games.bots.dominoes_rounds import ROUNDS
from games.bots.dominoes_solve import Solver
from games.engines import dominoes as d


@pytest.mark.parametrize(("players", "target"), [(2, 100), (4, 100), (2, 250)])
def test_the_two_sides_chances_add_up_to_one(players, target):
    equity = Equity(players, target)
    for mine in range(0, 2 * target, 14):
        for theirs in range(0, 2 * target, 22):
            assert equity.chance(mine, theirs, LEAD) + equity.chance(theirs, mine, FOLLOW) == pytest.approx(1)
            assert equity.chance(mine, theirs, DRAWN) + equity.chance(theirs, mine, DRAWN) == pytest.approx(1)
    assert equity.chance(0, 0, DRAWN) == pytest.approx(0.5)


def test_points_and_the_lead_are_worth_something():
    equity = Equity(2, 100)
    for theirs in range(0, 200, 16):
        chances = [equity.chance(mine, theirs, DRAWN) for mine in range(0, 200, 10)]
        assert chances == sorted(chances)
        assert chances[-1] > chances[0]
    for score in range(0, 200, 20):
        assert (
            equity.chance(score, score, LEAD)
            > equity.chance(score, score, DRAWN)
            > equity.chance(score, score, FOLLOW)
        )
    # The last points matter most: 30 points are worth more to a side that needs 40 than to one that needs 100.
    assert equity.chance(180, 160, DRAWN) - equity.chance(120, 160, DRAWN) > (
        equity.chance(60, 160, DRAWN) - equity.chance(0, 160, DRAWN)
    )


def simulated_race(key: str, mine: int, theirs: int, i_lead: bool, races: int, rng: random.Random) -> float:
    """My share of won races, needing ``mine`` and ``theirs`` steps, rounds drawn from ``ROUNDS``."""
    outcomes = list(ROUNDS[key].items())
    kinds = [k for k, _ in outcomes]
    weights = [n for _, n in outcomes]
    won = 0
    for _ in range(races):
        m, t, me_leads = mine, theirs, i_lead
        while m > 0 and t > 0:
            leader_won, out, bonus = rng.choices(kinds, weights)[0]
            i_won = leader_won == me_leads
            if i_won:
                m -= bonus
            else:
                t -= bonus
            me_leads = i_won if out else rng.random() < 0.5
        won += m <= 0
    return won / races


@pytest.mark.parametrize(
    ("players", "mine", "theirs", "lead"), [(2, 3, 5, True), (2, 6, 2, False), (4, 4, 4, True)]
)
def test_the_table_agrees_with_a_simulated_race(players, mine, theirs, lead):
    equity = Equity(players, 100)
    races = 6000
    simulated = simulated_race(kind(players), mine, theirs, lead, races, random.Random(mine * 100 + theirs))
    # Needs in steps of five points: a score 10 * steps half-points below the target.
    chance = equity.chance(200 - 10 * mine, 200 - 10 * theirs, LEAD if lead else FOLLOW)
    spread = (chance * (1 - chance) / races) ** 0.5
    assert abs(simulated - chance) < 4 * spread


def test_the_stored_round_counts_still_describe_the_game():
    """A fresh measurement agrees with ``ROUNDS``: rerun the generator if the engine or playouts change."""
    for players in (2, 4):
        fresh = measure(players, 1500, seed=7)
        stored = ROUNDS[kind(players)]
        for share in (
            lambda counts: sum(n for (won, _, _), n in counts.items() if won) / sum(counts.values()),
            lambda counts: sum(n for (_, out, _), n in counts.items() if out) / sum(counts.values()),
            lambda counts: sum(n * b for (_, _, b), n in counts.items()) / sum(counts.values()) / 10,
        ):
            assert share(fresh) == pytest.approx(share(stored), abs=0.05)


def test_near_the_target_the_lead_outweighs_two_points_and_margins_do_not_see_it():
    """The other side needs 5 points: going out for 10 (I lead next) beats a block for 12 (drawn lead)."""
    config = d.validate_config({"players": 2, "variant": "block"})
    assert config["target"] == 100
    state = d.replay(d.start(config, 1))._replace(scores=(2 * 70, 2 * 95))
    by_chance = Solver(state, 1000, 0, equity=Equity(2, 100))
    assert by_chance.settled(0, 20, LEAD) > by_chance.settled(0, 24, DRAWN)
    assert by_chance.settled(0, 20, LEAD) < SCALE
    assert by_chance.settled(0, 60, LEAD) == SCALE + 60  # 100 points: the game is won
    by_margin = Solver(state, 1000, 0)
    assert by_margin.settled(0, 20, LEAD) < by_margin.settled(0, 24, DRAWN)
