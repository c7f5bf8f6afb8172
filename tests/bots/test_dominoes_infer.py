"""The weight of a sampled deal equals the chance that choosing without preference made the opponents' plays."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots.dominoes_infer import play_weight
from games.engines import compose
from games.engines import dominoes as d


def walk(config: dict[str, Any], seed: int):
    """Each state of a random game, with the chance of each play so far this round: (seat, 1 / choices)."""
    rng = random.Random(seed)
    state = d.replay(d.start(compose(d, config, config["players"]), seed))
    chances: list[tuple[int, float]] = []
    while seats := d.to_act(state):
        seat = seats[0]
        if state.phase == "play" and not state.moves:
            chances = []
        yield state, list(chances)
        legal = d.legal_actions(state, seat)
        action = rng.choice(legal)
        if action["type"] == "play" and state.layout.placed:
            chances.append((seat, 1 / len(legal)))
        for event in d.decide(state, seat, action):
            state = d.apply(state, event)


@pytest.mark.parametrize(
    "config",
    [
        {"players": 2, "variant": "block"},
        {"players": 3, "variant": "block"},
        {"players": 4, "variant": "block", "partnerships": True},
    ],
)
def test_the_true_deal_weighs_what_the_engine_offered_the_opponents(config):
    checked = 0
    for seed in range(6):
        for state, chances in walk(config, seed):
            if state.phase != "play":
                continue
            for viewer in range(state.players):
                expected = 1.0
                weighed = False
                for seat, chance in chances:
                    if state.side(seat) != state.side(viewer):
                        expected *= chance
                        weighed = True
                weigh = play_weight(d.view(state, viewer))
                if not weighed:
                    assert weigh is None
                    continue
                assert weigh is not None
                assert weigh(state) == pytest.approx(expected, rel=1e-12)
                checked += 1
    assert checked > 100


def test_sampled_deals_weigh_differently_and_never_zero():
    config = compose(d, {"variant": "block", "first": 0}, 2)
    state = d.replay(d.start(config, 5))
    assert play_weight(d.view(state, 1)) is None  # nothing played yet
    for _ in range(3):  # seat 0 leads, seat 1 plays, seat 0 plays
        seat = d.to_act(state)[0]
        action = d.legal_actions(state, seat)[0]
        assert action["type"] == "play"
        for event in d.decide(state, seat, action):
            state = d.apply(state, event)
    weigh = play_weight(d.view(state, 0))
    assert weigh is not None
    rng = random.Random(1)
    weights = [weigh(d.determinize(d.view(state, 0), rng)) for _ in range(200)]
    assert all(0 < w <= 1 for w in weights)
    assert len(set(weights)) > 1  # some sampled hands explain the play better than others


@pytest.mark.parametrize("variant", ["draw", "all_fives"])
def test_nothing_is_weighed_where_drawn_tiles_hide_the_earlier_hands(variant):
    config = compose(d, {"variant": variant, "first": 0}, 2)
    state = d.replay(d.start(config, 2))
    for _ in range(4):
        seat = d.to_act(state)[0]
        for event in d.decide(state, seat, d.legal_actions(state, seat)[0]):
            state = d.apply(state, event)
    assert play_weight(d.view(state, 0)) is None
