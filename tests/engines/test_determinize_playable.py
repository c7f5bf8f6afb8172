"""A determinized state plays on to the end of the game: searches play out from such states (the strong
bots, and OpenSpiel's ISMCTS through tests/bench/openspiel_adapter.py), so a sampled deal that leaves a
seat without a legal move later is one no real game could reach (#35).

Kazino's was: an opponent owning a build was dealt no card that takes it, and could neither play
on nor trail when its turn came.
"""

from __future__ import annotations

import random

import pytest

from games.engines import get, names
from tests.engines.contract import configs, playout, roundtrip


def play_to_the_end(engine, state, rng: random.Random, max_steps: int = 20_000) -> None:
    for _ in range(max_steps):
        seats = engine.to_act(state)
        if not seats:
            assert engine.outcome(state) is not None
            return
        seat = rng.choice(seats)
        legal = engine.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act in a determinized state's playout but has no legal action"
        for event in engine.decide(state, seat, rng.choice(legal)):
            state = engine.apply(state, event)
    raise AssertionError("the playout did not end")


@pytest.mark.parametrize("name", names())
def test_a_determinized_state_plays_to_the_end(name):
    engine = get(name)
    rng = random.Random(f"playable-{name}")
    two = [c for c in configs(name) if c["players"] == 2] or configs(name)
    for game in range(12):
        config = two[game % len(two)]
        states = [
            state for state, _events, seat, _action in playout(engine, config, game, rng) if seat is not None
        ]
        for state in rng.sample(states, min(6, len(states))):
            seat = rng.choice(engine.to_act(state))
            for other in range(config["players"]):
                view = roundtrip(engine.view(state, other if other != seat else seat))
                play_to_the_end(engine, engine.determinize(view, rng), rng)
