"""The Block solver against a plain minimax through the engine's own rules, on real positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots.dominoes_equity import Equity
from games.bots.dominoes_sim import value
from games.bots.dominoes_solve import Solver, solvable, solve
from games.engines import compose
from games.engines import dominoes as d
from tests.bots.games import after

WIN = 1000


def engine_minimax(state: Any, seat: int, leaf: Any = None) -> int:
    """My side's final margin (or ``leaf`` of the round's end) with both sides at their best,
    through decide/apply only."""
    if state.phase != "play":
        return value(state, seat, WIN) if leaf is None else leaf(state, seat)
    turn = d.to_act(state)[0]
    results = []
    for action in d.legal_actions(state, turn):
        results.append(engine_minimax(after(d, state, turn, action), seat, leaf))
    mine = state.side(turn) == state.side(seat)
    return max(results) if mine else min(results)


def late_positions(config: dict[str, Any], seed: int, tiles_left: int) -> list[Any]:
    """Positions of random games once at most ``tiles_left`` tiles remain in the hands."""
    rng = random.Random(seed)
    out = []
    state = d.replay(d.start(d.validate_config(config), seed))
    while d.to_act(state) and len(out) < 6:
        turn = d.to_act(state)[0]
        if state.phase == "play" and sum(map(len, state.hands)) <= tiles_left and solvable(state):
            out.append(state)
        action = rng.choice(d.legal_actions(state, turn))
        for event in d.decide(state, turn, action):
            state = d.apply(state, event)
    return out


@pytest.mark.parametrize(
    ("config", "tiles_left"),
    [
        ({"players": 2, "variant": "block"}, 9),
        ({"players": 2, "variant": "block", "target": 20}, 9),  # near the target: the win counts
        ({"players": 4, "variant": "block", "partnerships": True}, 9),
    ],
)
def test_the_solver_finds_the_minimax_value_the_engine_gives(config, tiles_left):
    checked = 0
    for seed in range(12):
        for state in late_positions(compose(d, config, config["players"]), seed, tiles_left):
            for seat in range(state.players):
                assert solve(state, seat, WIN) == engine_minimax(state, seat)
                checked += 1
    assert checked >= 40


def test_only_two_sided_block_rounds_in_play_are_solved():
    def first_play(config):
        state = d.replay(d.start(compose(d, config, config["players"]), 3))
        turn = d.to_act(state)[0]
        for event in d.decide(state, turn, d.legal_actions(state, turn)[0]):
            state = d.apply(state, event)
        return state

    assert solvable(first_play({"players": 2, "variant": "block"}))
    assert solvable(first_play({"players": 4, "variant": "block", "partnerships": True}))
    assert not solvable(first_play({"players": 3, "variant": "block"}))
    assert not solvable(first_play({"players": 2, "variant": "draw"}))
    assert not solvable(first_play({"players": 2, "variant": "all_fives"}))


def engine_expectimax(state: Any, seat: int, careless: float) -> float:
    """My side's expected final margin when I play my best and opponents play theirs except, with
    probability ``careless``, a move at random (moves that lead to the same position count once)."""
    if state.phase != "play":
        return value(state, seat, WIN)
    turn = d.to_act(state)[0]
    children: dict[Any, float] = {}
    for action in d.legal_actions(state, turn):
        child = after(d, state, turn, action)
        position = (child.hands, tuple(sorted(child.layout.ends[:2])), child.phase, child.scores)
        children[position] = engine_expectimax(child, seat, careless)
    values = list(children.values())
    if state.side(turn) == state.side(seat):
        return max(values)
    return (1 - careless) * min(values) + careless * sum(values) / len(values)


@pytest.mark.parametrize("config", [{"players": 2, "variant": "block"}, {"players": 2, "target": 20}])
def test_with_careless_opponents_the_solver_finds_the_expected_value_the_engine_gives(config):
    checked = 0
    for seed in range(10):
        for state in late_positions(compose(d, config, 2), seed, 8):
            for seat in (0, 1):
                solver = Solver(state, WIN, seat, careless=0.4)
                assert solve(state, seat, WIN, solver) == pytest.approx(engine_expectimax(state, seat, 0.4))
                checked += 1
    assert checked >= 24


@pytest.mark.parametrize(
    ("players", "scores"),
    [(2, (0, 0)), (2, (2 * 85, 2 * 92)), (2, (2 * 96, 2 * 40)), (4, (2 * 80, 2 * 75))],
)
def test_by_the_games_chances_the_solver_finds_the_minimax_value_the_engine_gives(players, scores):
    config = compose(d, {"variant": "block", "partnerships": players == 4}, players)
    equity = Equity(players, config["target"])
    checked = 0
    for seed in range(6):
        for state in late_positions(config, seed, 8):
            state = state._replace(scores=scores)
            for seat in range(state.players):
                solver = Solver(state, WIN, seat, equity=equity)
                assert solve(state, seat, WIN, solver) == engine_minimax(state, seat, equity.value)
                checked += 1
    assert checked >= 24
