"""The measuring against OpenSpiel's ISMCTS sees no hidden information (#35): the adapter's information
state of a seat is that seat's view only, and its resampler builds states that agree with the view."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from games.engines import dominoes, get  # noqa: E402
from tests.bench import openspiel_adapter, openspiel_block  # noqa: E402
from tests.bench.bench_vs_ismcts import PRESETS, Budget, Side, match, result_for, wilson  # noqa: E402

TILES = [f"{high}-{low}" for high in range(7) for low in range(high + 1)]


def stacked(game, deck):
    config = dominoes.validate_config(
        {"players": 2, "variant": "block", "target": 1, "first": 0, "deck": deck}
    )
    return game.state_of(dominoes.replay(dominoes.start(config, 7)))


def test_a_seats_information_state_ignores_the_opponents_hidden_tiles():
    """Two Block deals that differ only in the opponent's hand (swapped with the boneyard): the same
    string for seat 0 before any reveal, and after the same first move; seat 1's strings differ."""
    game = openspiel_adapter.load("dominoes", {"variant": "block", "target": 1})
    deck = TILES[:]
    random.Random(3).shuffle(deck)
    other = deck[:7] + deck[14:21] + deck[7:14] + deck[21:]  # seat 1 gets seven tiles of the boneyard
    a, b = stacked(game, deck), stacked(game, other)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    first = a.legal_actions()[0]
    a.apply_action(first)
    b.apply_action(first)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_resampled_states_agree_with_the_view_they_come_from(preset):
    engine_name, options = PRESETS[preset]
    game = openspiel_adapter.load(engine_name, options, rng_seed=5)
    engine = get(engine_name)
    rng = random.Random(preset)
    deal = 98_765  # the engine's seed: it must not reach any seat's information state
    state = game.new_initial_state()
    state.apply_action(deal)
    steps = 0
    while not state.is_terminal() and steps < 60:
        seat = state.current_player()
        key = state.information_state_string(seat)
        assert str(deal) not in key
        for token in engine.hidden_from(state.inner, seat):
            assert f'"{token}"' not in key, f"{token} is hidden from seat {seat}"
        for _ in range(3):
            sample = state.resample_from_infostate(seat, None)
            assert sample.information_state_string(seat) == key
            assert sample.view(seat) == state.view(seat)
            assert engine.view(sample.inner, None) == engine.view(state.inner, None)
            assert sample.current_player() == seat
            assert sample.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


def test_a_clone_shares_the_engine_state_and_moves_on_alone():
    game = openspiel_adapter.load("kazino", {"match": "single"})
    state = game.new_initial_state()
    state.apply_action(4)
    clone = state.clone()
    assert clone.inner is state.inner
    clone.apply_action(clone.legal_actions()[0])
    assert clone.inner is not state.inner
    assert state.information_state_string(0) != clone.information_state_string(0)


def test_the_block_check_resampler_keeps_the_view_and_the_opponents_voids():
    """OpenSpiel's python_block_dominoes, resampled for player 0: player 0's information state is
    unchanged, and the opponent never holds a number it was seen to lack (it was skipped)."""
    game = openspiel_block.pyspiel.load_game("python_block_dominoes")
    rng = random.Random(9)
    checked = 0
    for number in range(30):
        state = game.new_initial_state()
        for i in openspiel_block.deal(number):
            state.apply_action(i)
        while not state.is_terminal():
            player = state.current_player()
            history = state.actions_history
            skipped = len(history) >= 1 and history[-1].player == player
            for _ in range(3):
                sample = openspiel_block.resample(state, player, rng)
                assert sample.information_state_string(player) == state.information_state_string(player)
                assert sample.hands[player] == state.hands[player]
                assert len(sample.hands[1 - player]) == len(state.hands[1 - player])
                if skipped:  # the opponent could not play on the open ends now
                    assert not any(e in t for t in sample.hands[1 - player] for e in state.open_edges)
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked  # some deals had a skip


def test_the_block_check_plays_both_engines_in_step():
    side, other = Side(), Side()
    for number in range(3):
        for seat in (0, 1):
            result = openspiel_block.play_one(number, seat, "greedy", 8, side, other)
            assert result["agree"], f"deal {number}: the engines disagreed"
    assert side.moves and other.moves


def test_a_short_match_reports_a_rate_with_its_interval():
    r = match("pitch", level="random", games=2, sims=8)
    assert r["games"] == 2 and 0 <= r["win_rate"] <= 1
    assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    assert r["ours_moves"] and r["ismcts_moves"] and r["sims"] == 8


def test_results_and_intervals():
    assert result_for({"places": [1, 2], "scores": [0, 20], "score_scale": 2}, 0) == (1.0, 10.0)
    assert result_for({"places": [2, 1], "scores": [46, 31], "score_scale": 1}, 0) == (0.0, -15.0)
    assert result_for({"places": [1, 1], "scores": [3, 3], "score_scale": 1}, 1) == (0.5, 0.0)
    low, high = wilson(24, 40)
    assert 0.44 < low < 0.46 and 0.73 < high < 0.75
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_budget_gives_ismcts_the_multiple_of_our_cpu_per_move():
    """Ours 40 ms a move; ISMCTS 0.5 ms a simulation, a choice on half its moves: 2× is 320 sims."""
    ours, theirs = Side(), Side()
    for _ in range(10):
        ours.add(0.040, 3)
    for i in range(10):
        theirs.add(0.030 if i % 2 else 0.0, 3 if i % 2 else 1, 60)
    budget = Budget(2.0)
    budget.observe(ours, theirs)
    assert budget.sims == 320
    assert Budget(2.0, fixed=50).sims == 50
