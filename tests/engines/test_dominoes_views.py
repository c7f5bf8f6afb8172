"""Dominoes: what each audience sees, and states sampled from a view (determinize)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import dominoes as d
from games.engines.dominoes.tiles import MASK, TILE_ID
from games.engines.dominoes.views import _match, slot_masks

from .test_dominoes_rules import act, play, position, stacked


def test_a_seat_sees_its_own_tiles_and_only_the_count_of_the_others():
    state = stacked(3, "draw", [["6-6", "5-5"], ["4-4"], ["3-3"]])
    view = d.view(state, 1)
    assert view["hands"][0] is None and view["hands"][2] is None
    assert "4-4" in view["hands"][1]
    assert view["hand_sizes"] == [5, 5, 5]
    assert view["boneyard"] == 13
    spectator = d.view(state, None)
    assert spectator["hands"] == [None, None, None] and spectator["seat"] is None
    text = json.dumps(spectator)
    for tile in d.hidden_from(state, None):
        assert f'"{tile}"' not in text


def test_the_seed_and_the_boneyard_tiles_appear_in_no_view():
    config = d.validate_config({"players": 2, "variant": "draw"})
    state = d.replay(d.start(config, 8_675_309_271_828))
    boneyard = d.reveal(state)["boneyard_tiles"]
    assert len(boneyard) == 14
    for who in (None, 0, 1):
        text = json.dumps(d.view(state, who))
        assert "8675309271828" not in text
        assert not any(f'"{t}"' in text for t in boneyard)
    assert "8675309271828" not in json.dumps(d.reveal(state))


def test_a_stacked_deck_is_not_shown_in_views_but_is_in_reveal():
    state = stacked(2, "block", [["6-6"]])
    assert "deck" not in d.view(state, 0)["config"]
    assert len(d.reveal(state)["config"]["deck"]) == 28


def test_the_view_describes_the_layout_well_enough_to_draw_it():
    state = stacked(2, "all_fives", [["5-5", "5-3"], ["5-0"]])
    state, _ = play(state, 0, "5-5", "center")
    state, _ = play(state, 1, "5-0", "left")
    state, _ = play(state, 0, "5-3", "right")
    layout = d.view(state, None)["layout"]
    assert [(t["tile"], t["arm"], t["index"], t["by"]) for t in layout["tiles"]] == [
        ("5-5", "center", 0, 0),
        ("5-0", "left", 0, 1),
        ("5-3", "right", 0, 0),
    ]
    assert layout["tiles"][0]["double"] and layout["tiles"][0]["spinner"]
    assert (layout["tiles"][1]["inner"], layout["tiles"][1]["outer"]) == (5, 0)
    assert layout["spinner"] == {
        "tile": "5-5",
        "arm": "center",
        "index": 0,
        "number": 5,
        "sides_played": 2,
        "branches_open": True,
        "counts": 0,
    }
    assert layout["ends"] == [
        {"end": "left", "shows": 0, "counts": 0, "tile": "5-0"},
        {"end": "right", "shows": 3, "counts": 3, "tile": "5-3"},
        {"end": "up", "shows": 5, "counts": 0, "tile": None},
        {"end": "down", "shows": 5, "counts": 0, "tile": None},
    ]
    assert layout["total"] == 3


def test_passes_and_draws_are_public_with_the_ends_open_at_the_time():
    state = position(2, "draw", [["6-6", "1-0"], ["1-1"]], [("3-2", "center")], boneyard=["4-4", "3-0"])
    state, _ = act(state, 0, {"type": "draw"})
    assert d.view(state, 1)["moves"] == [{"seat": 0, "type": "draw", "ends": [2, 3]}]
    assert "4-4" in d.view(state, 0)["hands"][0]
    assert d.view(state, 1)["hands"][0] is None


def test_determinize_keeps_a_passed_player_void_in_the_numbers_they_passed_on():
    tiles = ["6-6", "6-5", "5-5", "6-4", "5-4"]
    state = position(
        2, "block", [["3-0"], tiles], [("3-2", "center")], turn=1, boneyard=["1-1", "1-0", "2-1"]
    )
    state, _ = act(state, 1, {"type": "pass"})
    view = json.loads(json.dumps(d.view(state, 0)))
    rng = random.Random(1)
    for _ in range(200):
        sample = d.determinize(view, rng)
        assert all(not MASK[t] & 0b1100 for t in sample.hands[1])  # no 2 and no 3
        assert d.view(sample, 0) == view


def test_determinize_lets_a_later_draw_hold_a_number_the_player_was_void_in_before():
    # Seat 1 drew 6-6 (unplayable) then 3-1 (played) at ends {3, 2}; later it draws on ends {1, 2}.
    state = position(
        2,
        "draw",
        [["2-0", "4-0"], ["5-5"]],
        [("3-2", "center")],
        turn=1,
        boneyard=["6-6", "3-1", "3-3", "4-1"],
    )
    state, _ = act(state, 1, {"type": "draw"})
    state, _ = act(state, 1, {"type": "draw"})
    state, _ = play(state, 1, "3-1", "left")
    state, _ = play(state, 0, "2-0", "right")
    state, _ = act(state, 1, {"type": "draw"})  # 3-3: unplayable on 1 and 0
    state, _ = act(state, 1, {"type": "draw"})  # 4-1: playable, not yet played
    view = json.loads(json.dumps(d.view(state, 0)))
    slots = slot_masks(view["moves"], 1, 4, in_progress=True)
    true_hand = [TILE_ID[t] for t in ("5-5", "6-6", "3-3", "4-1")]
    assert _match(true_hand, slots, random.Random(0)) is not None
    rng = random.Random(2)
    seen_threes = False
    for _ in range(300):
        sample = d.determinize(view, rng)
        assert d.view(sample, 0) == view
        assert d.to_act(sample) == [1]
        seen_threes |= any(MASK[t] & 0b1000 for t in sample.hands[1])
    assert seen_threes


def test_determinize_does_not_copy_the_hidden_tiles_of_the_true_state():
    config = d.validate_config({"players": 4, "variant": "all_fives"})
    state = d.replay(d.start(config, 11))
    view = d.view(state, 0)
    rng = random.Random(5)
    samples = {d.determinize(view, rng).hands[1] for _ in range(30)}
    assert len(samples) > 20
    sample = d.determinize(view, rng)
    assert Counter(d.components(sample)) == Counter(d.components(state))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["block", "draw", "all_fives"]),
    stop=st.integers(0, 60),
)
def test_the_true_hands_always_fit_the_voids_read_from_passes_and_draws(seed, variant, stop):
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])
    config = d.validate_config({"players": players, "variant": variant})
    state = d.replay(d.start(config, seed))
    for _ in range(stop):
        seats = d.to_act(state)
        if not seats or state.phase != "play":
            break
        seat = seats[0]
        state, _ = act(state, seat, rng.choice(d.legal_actions(state, seat)))
    if state.phase != "play":
        return
    view = d.view(state, None)
    for seat in range(players):
        slots = slot_masks(view["moves"], seat, len(state.hands[seat]), state.turn == seat)
        assert _match(list(state.hands[seat]), slots, rng) is not None


def test_the_view_carries_every_round_and_the_scores_after_it_and_a_sample_keeps_them():
    """#33: the dominoes score sheet showed only the current and the previous round."""
    rng = random.Random(5)
    config = d.validate_config({"players": 2, "variant": "all_fives", "target": 100})
    state = d.replay(d.start(config, 4))
    ends: list[tuple[int, list[int]]] = []
    while d.to_act(state) and len(ends) < 3:
        seat = d.to_act(state)[0]
        for event in d.decide(state, seat, rng.choice(d.legal_actions(state, seat))):
            state = d.apply(state, event)
            if event["type"] == "round_end":
                ends.append((event["hand"], [d.view(state, None)["scores"][s] for s in range(2)]))
    assert len(ends) >= 2
    seen = d.view(state, 0)
    assert [(r["hand"], r["scores"]) for r in seen["past_rounds"]] == ends
    assert d.view(d.determinize(seen, random.Random(2)), 0)["past_rounds"] == seen["past_rounds"]
