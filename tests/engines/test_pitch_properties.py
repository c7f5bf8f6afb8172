"""Pitch invariants over random games (hypothesis): voids are true, scoring adds up, suit is followed."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import pitch


def random_game(config_index: int, seed: int, rng):
    config = pitch.sample_configs()[config_index]
    events = pitch.start(config, seed)
    state = pitch.replay(events)
    yield state, events[-1]
    while pitch.to_act(state):
        seat = pitch.to_act(state)[0]
        for event in pitch.decide(state, seat, rng.choice(pitch.legal_actions(state, seat))):
            state = pitch.apply(state, event)
            yield state, event


CONFIGS = st.integers(0, len(pitch.sample_configs()) - 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=CONFIGS, seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_every_void_in_the_view_is_true(index, seed, rng):
    for state, _event in random_game(index, seed, rng):
        for seat, suits in enumerate(pitch.view(state, None)["voids"]):
            assert not [c for c in state.hands[seat] if pitch.SUIT_OF[c] in suits]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=CONFIGS, seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_each_hand_awards_at_most_four_points_and_sets_back_by_the_bid(index, seed, rng):
    before = None
    for state, event in random_game(index, seed, rng):
        if event["type"] == "score":
            assert before is not None
            awarded = sum(1 for who in event["awards"].values() if who is not None)
            assert sum(event["points"]) == awarded <= 4
            assert event["awards"]["high"] is not None and event["awards"]["low"] is not None
            pitcher = event["pitcher"]
            expected = event["points"][pitch.side_of(state.config, pitcher)]
            assert event["changes"][pitcher] == (expected if event["made"] else -event["bid"])
            assert event["made"] == (expected >= event["bid"])
            assert list(state.scores) == [a + b for a, b in zip(before.scores, event["changes"], strict=True)]
            assert sum(event["game_points"]) == sum(pitch.CARD_POINTS[c] for c in before.in_play)
        before = state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=CONFIGS, seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_a_player_holding_the_suit_led_only_follows_or_trumps(index, seed, rng):
    for state, _event in random_game(index, seed, rng):
        if state.phase != "play" or not state.trick or len(state.trick) == state.players:
            continue
        seat = pitch.to_act(state)[0]
        led = pitch.SUIT_OF[state.trick[0][1]]
        cards = [a["card"] for a in pitch.legal_actions(state, seat)]
        if any(pitch.SUIT_OF[c] == led for c in state.hands[seat]):
            assert all(pitch.SUIT_OF[c] in (led, state.trump) for c in cards)
        else:
            assert sorted(cards) == sorted(state.hands[seat])
