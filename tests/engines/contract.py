"""Helpers for the shared engine contract suite (tests/engines/test_contract.py).

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from games.engines import IllegalAction, get
from games.engines.base import Engine, Number, Pick, ScoreSheet

# A seed with digits unlikely to appear in a view by chance: if it shows up, it leaked.
SECRET_SEED = 8_675_309_271_828


def roundtrip(obj: Any) -> Any:
    return json.loads(json.dumps(obj, sort_keys=True))


def configs(name: str) -> list[dict[str, Any]]:
    engine = get(name)
    return [engine.validate_config(c) for c in engine.sample_configs()]


def audiences(config: dict[str, Any]) -> list[int | None]:
    return [None, *range(config["players"])]


def playout(
    engine: Engine, config: dict[str, Any], seed: int, rng: random.Random, max_steps: int = 20_000
) -> Iterator[tuple[Any, list[dict[str, Any]], int | None, dict[str, Any] | None]]:
    """Play random legal actions; yield (state, events so far, seat, action) before each move.

    The last item has seat and action None: the finished game.
    """
    events = list(engine.start(config, seed))
    state = engine.replay(events)
    for _ in range(max_steps):
        seats = engine.to_act(state)
        if not seats:
            assert engine.outcome(state) is not None, "no seat to act but no outcome"
            yield state, events, None, None
            return
        seat = rng.choice(seats)
        legal = engine.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        action = rng.choice(legal)
        yield state, events, seat, action
        new_events = engine.decide(state, seat, action)
        assert new_events, "an accepted action produced no event"
        for event in new_events:
            state = engine.apply(state, event)
        events.extend(new_events)
    raise AssertionError(f"game did not end within {max_steps} steps")


def mutations(action: dict[str, Any]) -> Iterator[Any]:
    """Actions near a legal one that are usually not legal: wrong types, bad values, extras."""
    yield {**action, "unexpected_field": 1}
    yield {k: v for k, v in action.items() if k != "type"}
    yield {**action, "type": "no_such_action"}
    for key, value in action.items():
        if key == "type":
            continue
        without = {k: v for k, v in action.items() if k != key}
        yield without
        for bad in (None, -1, 10_000, "zz", [], {}, 2.5, True):
            if bad != value or type(bad) is not type(value):
                yield {**action, key: bad}


GARBAGE: list[Any] = [None, 0, "play", [], {}, {"type": None}, {"type": 7}, {"type": "x" * 10_000}]


def check_refused(engine: Engine, state: Any, seat: int, action: Any) -> None:
    before = copy.deepcopy(state)
    try:
        engine.decide(state, seat, action)
    except IllegalAction as exc:
        assert isinstance(exc.code, str) and exc.code, "IllegalAction without a code"
        assert exc.text, "IllegalAction without a sentence"
    else:
        raise AssertionError(f"unlisted action was accepted: {action!r}")
    assert state == before, "a refused action changed the state"


def listed(action: Any, legal: list[dict[str, Any]]) -> bool:
    return any(action == a for a in legal)


def check_views(engine: Engine, state: Any, config: dict[str, Any]) -> None:
    for who in audiences(config):
        view = engine.view(state, who)
        text = json.dumps(view, sort_keys=True)
        assert roundtrip(view) == view, "view does not round-trip through JSON"
        assert str(SECRET_SEED) not in text, "the seed leaked into a view"
        for token in engine.hidden_from(state, who):
            assert f'"{token}"' not in text, f"hidden {token!r} appears in the view of {who}"


def check_conservation(engine: Engine, state: Any, expected: Counter[Any]) -> None:
    assert Counter(engine.components(state)) == expected, "cards or tiles were created or lost"


def check_determinize(engine: Engine, state: Any, config: dict[str, Any], rng: random.Random) -> None:
    for seat in range(config["players"]):
        view = roundtrip(engine.view(state, seat))
        sample = engine.determinize(view, rng)
        assert engine.view(sample, seat) == view, "determinized state disagrees with the seat's view"
        assert engine.view(sample, None) == engine.view(state, None), (
            "determinized state changes the public view"
        )
        assert Counter(engine.components(sample)) == Counter(engine.components(state))
        if engine.to_act(state):
            assert engine.to_act(sample) == engine.to_act(state)


def check_score_sheet(engine: Any, config: dict[str, Any]) -> None:
    """The descriptor of a game's real-card score sheet (games/engines/base.py): required of every
    engine, since the tournament pages lay the sheet out and read it from it alone."""
    score_sheet = getattr(engine, "score_sheet", None)
    assert callable(score_sheet), f"{engine.NAME} declares no score_sheet(config)"
    sheet = score_sheet(config)
    assert isinstance(sheet, ScoreSheet)
    assert sheet.numbers or sheet.picks, "a sheet with nothing to write"
    assert callable(sheet.score), "a sheet the rules cannot check"
    assert all(isinstance(n, Number) for n in sheet.numbers)
    assert all(isinstance(p, Pick) for p in sheet.picks)
    names = [part.name for part in (*sheet.numbers, *sheet.picks)]
    keys = [part.key or part.name for part in (*sheet.numbers, *sheet.picks)]
    assert len(set(names)) == len(names) and len(set(keys)) == len(keys), "fields named twice"
    assert all(part.label for part in (*sheet.numbers, *sheet.picks)), "a field without a label"
    assert all(n.keyboard in ("numeric", "decimal") for n in sheet.numbers)
    for pick in sheet.picks:
        assert pick.kind in ("seat", "seat_or_nobody", "number", "winners")
        assert bool(pick.numbers) == (pick.kind == "number"), "a number pick lists its numbers, only it"
    assert sheet.rows >= 1 and sheet.printed_rows >= sheet.rows
    context, template = sheet.row_name
    assert isinstance(context, str) and "%(n)s" in template, "a row's name shows its number"
    if sheet.about is not None:
        for text, params in sheet.about({}, {}):
            assert text % params, "an about sentence formats with its parameters"
