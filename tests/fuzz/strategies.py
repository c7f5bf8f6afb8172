"""Hypothesis strategies for malformed and hostile inputs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

# Strings that have broken servers somewhere: control characters, direction overrides, emoji,
# injections, format strings, paths, numbers in words, very long ones.
NASTY_STRINGS = [
    "",
    " ",
    "\x00",
    "\x00\x01\x1f",
    "\u202e\u2066",
    "\ufeff",
    "💥🂡🀄",
    "Ω≈ç√∫˜µ≤≥÷",
    "²³¹",
    "٣",
    "'; DROP TABLE games_event; --",
    "<script>alert(1)</script>",
    "{{7*7}}{0}%s%n",
    "../../etc/passwd",
    "NaN",
    "-1",
    "1e309",
    "0x10",
    "null",
    "true",
    "opening",
    "bot-1-0",
    "A" * 5000,
]
HUGE_INTS = [2**31, 2**63, -(2**63) - 1, 2**64, 10**30, -(10**30)]
# Numbers past a 64-bit integer (and its edges): an id or a seq of that size must be refused before
# the database sees it (SQLite cannot bind one: an OverflowError, a server error).
huge_ints = st.sampled_from([*HUGE_INTS, 2**63 - 1, -1])

nasty_text = st.one_of(st.sampled_from(NASTY_STRINGS), st.text(max_size=30))
# Text a JSON body can carry: no lone surrogates (they cannot be encoded as UTF-8).
body_text = st.one_of(
    st.sampled_from(NASTY_STRINGS), st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
)
numbers = st.one_of(
    st.integers(min_value=-5, max_value=100),
    st.integers(),
    st.sampled_from(HUGE_INTS),
    st.floats(allow_nan=True, allow_infinity=True),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, body_text)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(body_text, children, max_size=4),
    max_leaves=12,
)
not_an_object = st.one_of(scalars, st.lists(json_values, max_size=3))

# What a field that should be a non-negative int or an id can be instead.
bad_seqs = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(max_value=-1),
    st.floats(allow_nan=True, allow_infinity=True),
    body_text,
    st.lists(st.integers(), max_size=2),
    st.dictionaries(body_text, st.integers(), max_size=2),
)
bad_command_ids = st.one_of(
    st.none(),
    st.booleans(),
    numbers,
    st.just(""),
    st.just("x" * 65),
    st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=20).filter(
        lambda s: not all(c.isascii() and (c.isalnum() or c in "_.:-") for c in s)
    ),
    st.sampled_from(["opening", "bot-12-1", "demo-next-3", "no-show-7"]),  # the system's own ids
    st.lists(st.text(max_size=3), max_size=2),
)
fresh_ids = st.text("abcdefghijklmnopqrstuvwxyz0123456789_.:-", min_size=8, max_size=20).map(
    lambda s: "f" + s
)


def deep(depth: int, kind: str) -> str:
    """JSON nested ``depth`` levels: arrays or objects (past ~1,000 levels Python's parser gives up)."""
    if kind == "array":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def raw_junk(limit: int) -> st.SearchStrategy[str]:
    """Text frames or bodies that are not one JSON object: broken JSON, very deep, very large."""
    return st.one_of(
        st.text(max_size=60),
        st.sampled_from(
            ["{", "}", "[1,", '{"type": ', "nul", "tru", '"\\ud800"', "{'type': 'action'}", "NaN"]
        ),
        st.builds(deep, st.sampled_from([999, 2000, 5000, limit // 2]), st.sampled_from(["array", "object"])),
        st.integers(min_value=limit + 1, max_value=limit * 4).map(lambda n: json.dumps({"x": "y" * n})),
        st.just("x" * (limit * 50)),
        json_values.map(lambda v: json.dumps(v)).filter(lambda s: not s.startswith("{")),
    )


def junk_expect(text: str | bytes) -> set[str] | None:
    """What junk must get: ``bad_json``, unless it happens to be one JSON object (deep ones are)."""
    try:
        return None if isinstance(json.loads(text), dict) else {"bad_json"}
    except (ValueError, RecursionError):
        return {"bad_json"}


def pick(data: st.DataObject, items: Sequence[T], label: str = "") -> T:
    """One of ``items``, drawn with the same shape whatever the list: the lists come from the game's
    state, and Hypothesis wants every draw's shape to depend only on earlier draws."""
    return items[data.draw(st.integers(0, 2**16), label=label) % len(items)]


MUTATIONS = ("not_an_object", "extra_field", "type", "drop_field", "field_value")


def mutate(data: st.DataObject, action: dict[str, Any]) -> Any:
    """A legal action with one thing wrong: a field's value or type, a field missing or added, the
    type changed, or not an object at all. The same draws are made whatever the action."""
    how = data.draw(st.sampled_from(MUTATIONS), label="mutation")
    value = data.draw(
        st.one_of(json_values, nasty_text) if how == "type" else st.one_of(json_values, huge_ints)
    )
    extra = data.draw(body_text) if how == "extra_field" else ""
    field = data.draw(st.integers(0, 2**16), label="field")
    keys = sorted(k for k in action if k != "type")
    if how == "not_an_object":
        return value if not isinstance(value, dict) else [value]
    if how == "extra_field":
        return {**action, extra: value}
    if how == "type" or not keys:
        return {**action, "type": value}
    key = keys[field % len(keys)]
    if how == "drop_field":
        return {k: v for k, v in action.items() if k != key}
    return {**action, key: value}
