"""One contract suite, every engine (DESIGN.md "The engine contract").

ENGINE_GAMES sets how many random games the long playout runs per engine.


The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engines
from games.engines import IllegalAction, get, names
from tests.games import tiny_engine

from .contract import (
    GARBAGE,
    SECRET_SEED,
    check_conservation,
    check_determinize,
    check_refused,
    check_score_sheet,
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


#: Which games' rules allow a game stopped at a tournament's time to be scored as it stands, and why
#: (docs/tournaments.md, "The round clock"): a descriptor each engine must declare, checked here.
PARTIAL = {"skyjo": True, "dominoes": True, "kazino": False, "pitch": False}


@pytest.mark.parametrize("name", ENGINES)
def test_engine_declares_whether_a_game_may_be_scored_as_it_stands(name):
    engine = get(name)
    assert isinstance(getattr(engine, "PARTIAL_SCORE", None), bool), "PARTIAL_SCORE must be declared"
    assert engine.PARTIAL_SCORE is PARTIAL[name]
    assert callable(getattr(engine, "partial_outcome", None)) is engine.PARTIAL_SCORE
    if not engine.PARTIAL_SCORE:
        return
    rng = random.Random(f"{name}-partial")
    for config in configs(name):
        for state, _events, seat, _action in playout(engine, config, rng.randrange(2**32), rng):
            partial = roundtrip(engine.partial_outcome(state))
            assert len(partial["places"]) == config["players"]
            assert len(partial["scores"]) == config["players"]
            assert partial["winners"], "a game as it stands has a leader (or several)"
            assert all(partial["places"][w] == 1 for w in partial["winners"])
            if seat is None:
                assert partial == roundtrip(engine.outcome(state)), "a finished game stands as it ended"
            else:
                assert partial["partial"] is True


@pytest.mark.parametrize("name", ENGINES)
def test_engine_describes_its_real_card_score_sheet(name):
    """The tournament pages lay out, read and print a game played with real cards from this alone."""
    engine = get(name)
    for config in configs(name):
        check_score_sheet(engine, config)


def test_an_engine_without_a_score_sheet_fails_the_contract():
    with pytest.raises(AssertionError, match="declares no score_sheet"):
        check_score_sheet(tiny_engine, tiny_engine.default_config(2))


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


# --- Defaults that depend on other options ------------------------------------------------------------

# Every default of the rules pages (../shared/rules/*.md, read line by line) for the options chosen:
# (engine, options chosen, player counts, what the engine must fill in).
RULES_DEFAULTS = [
    # dominoes.md, "Block and Draw": the first to reach 100 points.
    ("dominoes", {"variant": "block"}, (2, 3, 4), {"target": 100}),
    ("dominoes", {"variant": "draw"}, (2, 3, 4), {"target": 100}),
    ("dominoes", {"variant": "block", "partnerships": True}, (4,), {"target": 100}),
    # dominoes.md, "All Fives", "Winning at once": 250 points (2 players) or 200 points (3 or 4
    # players, partnerships included).
    ("dominoes", {"variant": "all_fives"}, (2,), {"target": 250}),
    ("dominoes", {"variant": "all_fives"}, (3, 4), {"target": 200}),
    ("dominoes", {"variant": "all_fives", "partnerships": True}, (4,), {"target": 200}),
    # kazino.md, "Matches": against the computer, first to 160; online, each game is a match.
    ("kazino", {"match": "target"}, (2,), {"target": 160}),
    ("kazino", {"match": "single"}, (2,), {"match": "single"}),
    # pitch.md, "Winning": 7 points (11, 15 or 21 if the table says so), and "play continues until a
    # pitcher ends a hand at or above the target": no hand limit, whatever the table.
    ("pitch", {}, (2, 3, 4, 5, 6, 7), {"target": 7, "max_hands": None}),
    ("pitch", {"partnerships": True}, (4,), {"target": 7, "max_hands": None}),
    ("pitch", {"target": 21}, (2, 7), {"target": 21, "max_hands": None}),
    # skyjo.md, "End of the game": 100 points, whatever the number of players.
    ("skyjo", {}, (2, 3, 4, 5, 6, 7, 8), {"target": 100}),
]
# The only options whose default depends on another option: (engine, option) -> the options it
# follows. A new one must be added here, with its line of the rules above.
DEPENDENT = {("dominoes", "target"): {"variant", "players"}}


@pytest.mark.parametrize(("name", "chosen", "counts", "expected"), RULES_DEFAULTS)
def test_composing_a_config_fills_in_the_rules_defaults_for_the_options_chosen(
    name, chosen, counts, expected
):
    for players in counts:
        config = engines.compose(name, chosen, players)
        assert {key: config[key] for key in expected} == expected, (chosen, players)


@pytest.mark.parametrize("name", ENGINES)
def test_a_default_that_depends_on_another_option_follows_it(name):
    """Each option value the samples use, chosen alone at each table size: composing it gives the
    rules' default of every other option for that choice. Where that differs from starting from
    ``default_config(players)`` (the trap of #23: Block's 100 carried into All Fives), the option
    must be one of the known dependent defaults, and the composed value is the one that follows."""
    engine = get(name)
    samples = configs(name)
    counts = sorted({c["players"] for c in samples})
    values = {(k, json.dumps(v)) for c in samples for k, v in c.items() if k not in ("players", "deck")}
    assert any(row[0] == name for row in RULES_DEFAULTS), "every engine states its rules' defaults"
    followed: set[str] = set()
    for players in counts:
        for key, value in sorted(values):
            chosen = {key: json.loads(value)}
            try:
                composed = engines.compose(engine, chosen, players)
            except IllegalAction:
                continue  # not a table (partnerships with three players, a dealer past the seats)
            trap = engine.validate_config({**engine.default_config(players), **chosen})
            for option in (k for k in composed if composed[k] != trap[k]):
                assert (name, option) in DEPENDENT, f"{option} depends on {key} but is not declared"
                assert key in DEPENDENT[(name, option)]
                # What it follows: the same choice composed alone for each table size.
                assert composed[option] == engine.validate_config({"players": players, **chosen})[option]
                followed.add(option)
    declared = {option for (engine_name, option) in DEPENDENT if engine_name == name}
    assert followed == declared, "a declared dependent default does not depend on anything"


def test_compose_refuses_what_is_not_a_set_of_options():
    with pytest.raises(IllegalAction):
        engines.compose("dominoes", ["variant"], 2)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        engines.compose("dominoes", {"variant": "all_fives", "partnerships": True}, 3)


ROOT = Path(__file__).resolve().parents[2]
TRAP = re.compile(r"\*\*\s*[\w.]*default_config\(|default_config\([^)]*\)\s*\|")


def test_no_caller_starts_from_the_defaults_of_other_options():
    """Every table, tournament game, command and test helper composes its config one way
    (``games.engines.compose``): none spreads ``default_config(n)`` and overrides some options."""
    found = []
    for folder in ("games", "tournaments", "frontend", "replay", "infra", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if TRAP.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
