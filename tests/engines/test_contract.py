"""One contract suite, every engine (DESIGN.md "The engine contract").

ENGINE_GAMES sets how many random games the long playout runs per engine.


The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, get, names

from .contract import (
    GARBAGE,
    SECRET_SEED,
    check_conservation,
    check_determinize,
    check_refused,
    check_views,
    configs,
    listed,
    mutations,
    playout,
    roundtrip,
)

ENGINES = names()
GAMES = int(os.environ.get("ENGINE_GAMES", "1000"))


def test_registry_lists_the_four_games():
    assert ENGINES == ["skyjo", "dominoes", "kazino", "pitch"]


def test_unknown_engine_is_an_illegal_action():
    with pytest.raises(IllegalAction) as info:
        get("chess")
    assert info.value.code == "unknown_game"


@pytest.mark.parametrize("name", ENGINES)
def test_engine_declares_its_identity(name):
    engine = get(name)
    assert name == engine.NAME
    assert isinstance(engine.VERSION, int)
    for config in configs(name):
        assert engine.validate_config(config) == config, "validate_config is not idempotent"
        assert engine.default_config(config["players"])["players"] == config["players"]


@pytest.mark.parametrize("name", ENGINES)
def test_bad_configs_are_refused_clearly(name):
    engine = get(name)
    good = engine.default_config(engine.sample_configs()[0]["players"])
    for bad in (None, [], {"players": "two"}, {"players": 1}, {"players": 99}, {**good, "bogus": 1}):
        with pytest.raises(IllegalAction):
            engine.validate_config(bad)


@pytest.mark.parametrize("name", ENGINES)
def test_random_games_end_with_an_outcome(name):
    engine = get(name)
    rng = random.Random(f"{name}-long")
    all_configs = configs(name)
    for i in range(GAMES):
        config = all_configs[i % len(all_configs)]
        for state, _events, seat, _action in playout(engine, config, rng.randrange(2**32), rng):
            if seat is None:
                result = engine.outcome(state)
                assert result is not None
                assert result["winners"], "a finished game has at least one winner"
                assert len(result["places"]) == config["players"]
                assert len(result["scores"]) == config["players"]


@pytest.mark.parametrize("name", ENGINES)
def test_every_step_keeps_the_contract(name):
    """Conservation, replay = live, JSON round trips, refusals and purity, on fewer games."""
    engine = get(name)
    rng = random.Random(f"{name}-steps")
    for config in configs(name):
        expected: Counter | None = None
        checked = 0  # events already round-tripped (checking all of them at every step is quadratic)
        for state, events, seat, action in playout(engine, config, SECRET_SEED, rng):
            if expected is None:
                expected = Counter(engine.components(state))
            check_conservation(engine, state, expected)
            assert roundtrip(events[checked:]) == events[checked:], "events do not round-trip through JSON"
            checked = len(events)
            if rng.random() < 0.1 or seat is None:
                assert engine.replay(roundtrip(events)) == state, "replay differs from the live state"
                check_views(engine, state, config)
                assert roundtrip(engine.reveal(state)) == engine.reveal(state)
            if seat is None:
                continue
            legal = engine.legal_actions(state, seat)
            before = copy.deepcopy(state)
            if rng.random() < 0.15:
                for candidate in legal:
                    engine.decide(state, seat, candidate)  # every listed action is accepted
                for bad in mutations(action):
                    if not listed(bad, legal):
                        check_refused(engine, state, seat, bad)
                for bad in GARBAGE:
                    check_refused(engine, state, seat, bad)
                waiting = set(range(config["players"])) - set(engine.to_act(state))
                for other in waiting:
                    check_refused(engine, state, other, action)
                check_refused(engine, state, config["players"], action)
                check_refused(engine, state, -1, action)
            new_events = engine.decide(state, seat, action)
            assert state == before, "decide changed the state it was given"
            folded = state
            for event in new_events:
                folded = engine.apply(folded, event)
            assert state == before, "apply changed the state it was given"


@pytest.mark.parametrize("name", ENGINES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_views_never_leak_and_determinize_agrees(name, data):
    engine = get(name)
    all_configs = configs(name)
    config = all_configs[data.draw(st.integers(0, len(all_configs) - 1), label="config")]
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    stop = data.draw(st.integers(0, 400), label="stop")
    for step, (state, _events, _seat, _action) in enumerate(playout(engine, config, SECRET_SEED, rng)):
        if step == stop or _seat is None:
            check_views(engine, state, config)
            check_determinize(engine, state, config, rng)
            break


@pytest.mark.parametrize("name", ENGINES)
def test_public_events_never_carry_a_secret(name):
    """Events listed in PUBLIC_EVENTS go to every audience's move log: none may hold the seed, or a card
    that spectators may not know right after the event."""
    engine = get(name)
    public = getattr(engine, "PUBLIC_EVENTS", frozenset())
    assert "setup" not in public
    rng = random.Random(f"{name}-public")
    for config in configs(name)[:3]:
        for state, _events, seat, action in playout(engine, config, SECRET_SEED, rng):
            if seat is None:
                break
            after = state
            for event in engine.decide(state, seat, action):
                after = engine.apply(after, event)
                if event["type"] in public:
                    text = json.dumps(event)
                    assert str(SECRET_SEED) not in text
                    leaked = {c for c in engine.hidden_from(after, None) if f'"{c}"' in text}
                    assert not leaked, f"{event['type']} shows {leaked}"
