"""The bounds of games/bounds.py: how a number is read, that forms, schemas and engines agree with
them, and the inputs that got past them before (#37). The fuzzer (tests/fuzz/test_bounds_fuzz.py)
sends hostile numbers to every field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django import forms

from frontend.api.schemas import ActionIn, CreateIn, JoinIn
from frontend.options import GAME_OPTIONS
from games import bounds, engines
from games.engines.dominoes.config import MAX_TARGET as DOMINOES_TARGET
from games.engines.pitch.config import MAX_MAX_HANDS
from games.engines.skyjo.rules import MAX_TARGET as SKYJO_TARGET
from infra.edge.server import _since
from tests.api.helpers import Api, token_for, user

HOSTILE = [
    "²",
    "٣",
    "1" * 5000,
    "1" * 21,
    "1.5",
    "1e3",
    "",
    " ",
    "-",
    "--1",
    "0x10",
    "1_000",
    "+1",
    "∞",
    "NaN",
]


@pytest.mark.parametrize("raw", HOSTILE)
def test_a_number_is_ascii_digits_of_bounded_length_or_nothing(raw):
    assert bounds.read_int(raw) is None
    with pytest.raises(bounds.OutOfBounds) as refused:
        bounds.PLAYERS.parse(raw)
    assert refused.value.code == "bad_number" and refused.value.params["fields"] == ["players"]


@pytest.mark.parametrize(("raw", "number"), [("4", 4), (" 4 ", 4), ("-3", -3), ("007", 7), (9, 9), (-2, -2)])
def test_numbers_as_people_and_scripts_write_them(raw, number):
    assert bounds.read_int(raw) == number


@pytest.mark.parametrize("raw", [True, False, 1.0, None, [1], {"n": 1}, float("inf")])
def test_only_an_int_is_a_number_never_a_bool_or_a_float(raw):
    assert bounds.read_int(raw) is None
    assert not bounds.SEAT.accepts(raw)


def test_every_bound_is_named_and_ordered_and_the_engines_fit_inside():
    assert len({(b.name, b.about) for b in bounds.NUMBERS}) == len(bounds.NUMBERS)
    assert all(b.low <= b.high for b in bounds.NUMBERS)
    most = max(max(spec.players) for spec in GAME_OPTIONS.values())
    assert bounds.PLAYERS.high == most and bounds.SEAT.high == most - 1
    assert bounds.TARGET.high == max(DOMINOES_TARGET, SKYJO_TARGET)
    assert bounds.MAX_HANDS.high == MAX_MAX_HANDS
    for name in engines.names():
        for config in engines.get(name).sample_configs():
            assert bounds.PLAYERS.accepts(config["players"]), (name, config)
    # The form fields of the games' options carry the same limits as the bounds.
    for spec in GAME_OPTIONS.values():
        for option in spec.options:
            if option.kind == "number":
                bound = bounds.MAX_HANDS if option.key == "max_hands" else bounds.TARGET
                assert (option.low, option.high) == (bound.low, bound.high), option.key


class RoundsForm(forms.Form):
    rounds = bounds.ROUNDS.form_field(required=False)


@pytest.mark.parametrize("raw", [*HOSTILE[:9], "31", "0", "-1"])
def test_a_form_field_of_a_bound_refuses_what_the_bound_refuses(raw):
    form = RoundsForm({"rounds": raw})
    if raw.strip() == "":
        assert form.is_valid() and form.cleaned_data["rounds"] is None
        return
    assert not form.is_valid(), raw
    assert form.errors["rounds"]


def test_a_form_field_of_a_bound_takes_what_it_allows():
    form = RoundsForm({"rounds": " 12 "})
    assert form.is_valid() and form.cleaned_data["rounds"] == 12
    rendered = str(form["rounds"])
    assert 'min="1"' in rendered and 'max="30"' in rendered


@pytest.mark.parametrize(
    ("schema", "body", "field"),
    [
        (JoinIn, {"seat": True}, "seat"),  # taken as seat 1 before (#37)
        (JoinIn, {"seat": 1.0}, "seat"),
        (JoinIn, {"seat": 8}, "seat"),
        (JoinIn, {"seat": -1}, "seat"),
        (JoinIn, {"seat": "1"}, "seat"),
        (ActionIn, {"action": {"type": "x"}, "expected_seq": 2**63}, "expected_seq"),
        (ActionIn, {"action": {"type": "x"}, "expected_seq": True}, "expected_seq"),
        (ActionIn, {"action": {"type": "x"}, "seat": 10**30}, "seat"),
        (CreateIn, {"game": "tiny", "seats": [{"kind": "me"}] * 9}, "seats"),
        (
            CreateIn,
            {"game": "tiny", "seats": [{"kind": "me"}] * 2, "options": {str(n): n for n in range(17)}},
            "options",
        ),
    ],
)
def test_the_api_schemas_refuse_what_the_bounds_refuse(schema, body, field):
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as refused:
        schema.model_validate_json(json.dumps(body))
    assert {e["loc"][0] for e in refused.value.errors()} == {field}


def test_the_openapi_document_states_the_bounds(client):
    schema = client.get("/api/v1/schema").json()
    join = schema["components"]["schemas"]["JoinIn"]["properties"]["seat"]
    allowed = next(part for part in join["anyOf"] if part.get("type") == "integer")
    assert (allowed["minimum"], allowed["maximum"]) == (bounds.SEAT.low, bounds.SEAT.high)


@pytest.mark.parametrize("since", ["²", "٣", "1" * 5000, "-1", "9" * 20])
def test_the_edge_reads_since_as_a_bounded_number(since):
    # "²" passed isdigit() and failed in int(): the edge's handler died on the handshake (#37).
    assert _since({"since": [since]}) is None
    assert _since({"since": ["42"]}) == 42


@pytest.mark.django_db
def test_join_takes_no_boolean_for_a_seat():
    api = Api(token_for(user()))
    made = api.post(
        "/tables", {"game": "tiny", "options": {"goal": 50}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    )
    assert made.status_code == 201, made.content
    bob = Api(token_for(user("bob")))
    refused = bob.post(f"/tables/{made.json()['table']}/join", {"seat": True})
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "bad_request" and refused.json()["error"]["fields"] == ["seat"]


@pytest.mark.django_db
def test_a_seq_ahead_of_the_table_is_a_mistake_not_a_conflict():
    api = Api(token_for(user()))
    made = api.post(
        "/tables", {"game": "tiny", "options": {"goal": 50}, "seats": [{"kind": "me"}, {"kind": "me"}]}
    )
    table: dict[str, Any] = made.json()
    ahead = api.post(
        f"/tables/{table['table']}/actions",
        {"seat": 0, "action": {"type": "add", "n": 1}, "expected_seq": table["seq"] + 100},
    )
    # It was 409 stale_seq ("you saw event 104, it is now at 4"), which tells a client to read and retry.
    assert ahead.status_code == 400 and ahead.json()["error"]["code"] == "bad_seq"
    huge = api.post(
        f"/tables/{table['table']}/actions",
        {"seat": 0, "action": {"type": "add", "n": 1}, "expected_seq": 10**4000},
    )
    assert huge.status_code == 400
