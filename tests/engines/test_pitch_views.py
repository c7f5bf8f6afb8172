"""Pitch: what each seat may see, sampling for bots, and refusals of bad input with stable codes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engines import IllegalAction, pitch

from .test_pitch_rules import TWO, act, bid, new_game, pass_, play, play_two, refused

# ---------------------------------------------------------------- hidden information


def test_undealt_cards_appear_in_no_view_no_reveal_and_no_event_even_after_the_hand():
    rng = random.Random(3)
    config = pitch.validate_config({"players": 2, "deck": list(pitch.DECK[:12]), "max_hands": 1})
    undealt = pitch.DECK[12:]
    events = pitch.start(config, 5)
    state = pitch.replay(events)
    while pitch.to_act(state):
        seat = pitch.to_act(state)[0]
        new = pitch.decide(state, seat, rng.choice(pitch.legal_actions(state, seat)))
        events += new
        for event in new:
            state = pitch.apply(state, event)
    assert state.phase == "over"
    texts = [json.dumps(pitch.view(state, who)) for who in (None, 0, 1)]
    texts += [json.dumps(pitch.reveal(state)), json.dumps(pitch.outcome(state))]
    texts += [json.dumps(e) for e in events if e["type"] != "setup"]  # the setup carries the config's deck
    for card in undealt:
        assert all(f'"{card}"' not in text for text in texts), card


def test_a_seat_sees_its_own_cards_and_only_the_number_of_the_others():
    state = new_game(TWO, 2)
    mine, spectator = pitch.view(state, 1), pitch.view(state, None)
    assert mine["cards"] == list(state.hands[1]) and mine["hand_counts"] == [6, 6]
    assert spectator["cards"] is None
    assert not set(json.dumps(mine).split('"')) & set(state.hands[0])
    assert pitch.reveal(state)["hands"] == [list(h) for h in state.hands]


def test_the_seed_appears_in_no_view_reveal_or_outcome():
    config = pitch.validate_config({"players": 2, "max_hands": 1})
    state = pitch.replay(pitch.start(config, 8_675_309_271_828))
    assert "8675309271828" not in json.dumps(
        [pitch.view(state, s) for s in (None, 0, 1)] + [pitch.reveal(state)]
    )


def test_the_view_shows_the_bidding_the_trick_the_tricks_won_trump_and_scores():
    state = bid(new_game(TWO, 2), 1, 2)
    assert pitch.view(state, None)["bids"] == [{"seat": 1, "bid": 2}]
    state = pass_(state, 0)
    state = play(play(state, 1, "AS"), 0, "3S")
    state = play(state, 1, "10H")
    view = pitch.view(state, 0)
    assert view["bids"] == [{"seat": 1, "bid": 2}, {"seat": 0, "bid": 0}]
    assert (view["pitcher"], view["bid"], view["trump"], view["high_bid"]) == (1, 2, "S", 2)
    assert view["trick"] == [{"seat": 1, "card": "10H"}]
    assert view["tricks"] == [
        {"leader": 1, "cards": [{"seat": 1, "card": "AS"}, {"seat": 0, "card": "3S"}], "winner": 1}
    ]
    assert view["captured"] == [[], ["AS", "3S"]]
    assert view["scores"] == [0, 0] and view["to_act"] == [0] and view["phase"] == "play"
    assert view["game"] == "pitch" and view["hand"] == 1 and view["finished"] is False and view["seat"] == 0


def test_the_last_hand_summary_names_no_card():
    state = play_two(pass_(bid(new_game(TWO, 2), 1, 2), 0), [])
    summary = pitch.view(state, 0)["last_hand"]
    assert summary["awards"] == {"high": 1, "low": 0, "jack": None, "game": 1}
    assert not any(card in json.dumps(summary).split('"') for card in pitch.DECK)


# ---------------------------------------------------------------- voids and determinize


VOIDS = {1: ["AS", "KH", "2C", "3C", "4C", "5C"], 0: ["3S", "4S", "QD", "6D", "7D", "8D"]}


def test_a_card_off_suit_and_not_trump_proves_a_void_but_a_trump_does_not():
    state = pass_(bid(new_game(VOIDS, 2), 1, 1), 0)
    state = play(play(state, 1, "AS"), 0, "3S")  # spades trump
    state = play(play(state, 1, "KH"), 0, "4S")  # trumped: no proof
    assert pitch.view(state, None)["voids"] == [[], []]
    state = play(play(state, 0, "QD"), 1, "2C")  # seat 1 shows out of diamonds
    assert pitch.view(state, None)["voids"] == [[], ["D"]]


def test_a_non_trump_played_to_a_trump_lead_proves_a_trump_void():
    state = pass_(bid(new_game(VOIDS, 2), 1, 1), 0)
    state = play(play(state, 1, "AS"), 0, "3S")
    state = play(play(state, 1, "KH"), 0, "4S")
    state = play(state, 0, "QD")
    state = play(state, 1, "2C")
    state = play(state, 0, "6D")
    state = play(state, 1, "3C")  # no diamond, still void
    assert pitch.view(state, 1)["voids"] == [[], ["D"]]


def test_determinize_never_deals_a_seat_a_suit_it_has_shown_out_of():
    hands = {
        1: ["AS", "2H", "3H", "4H", "5H", "6H"],
        2: ["KD", "QD", "JD", "10D", "9D", "8D"],
        0: ["2C", "3C", "4C", "5C", "6C", "7C"],
    }
    state = pass_(pass_(bid(new_game(hands, 3), 1, 1), 2), 0)
    state = play(state, 1, "AS")
    state = play(state, 2, "8D")  # void in spades (trump)
    state = play(state, 0, "2C")  # void in spades
    view = json.loads(json.dumps(pitch.view(state, 1)))
    assert view["voids"] == [["S"], [], ["S"]]
    rng = random.Random(1)
    seen_hands = set()
    for _ in range(200):
        sample = pitch.determinize(view, rng)
        assert pitch.view(sample, 1) == view
        for seat in (0, 2):
            assert all(pitch.SUIT_OF[c] != "S" for c in sample.hands[seat])
        seen_hands.add(sample.hands[0])
    assert len(seen_hands) > 50  # the unseen cards really are sampled


def test_deal_unseen_finds_a_deal_when_the_quick_pass_fails():
    cards = ["2S", "3S", "2H", "3H"]
    voids = [{"S"}, {"H"}]
    for order in (cards, list(reversed(cards))):
        hands = pitch.deal_unseen(order, [2, 2], voids)
        assert sorted(hands[0]) == ["2H", "3H"] and sorted(hands[1]) == ["2S", "3S"]
    hands = pitch.deal_unseen(["2S", "2H", "2D", "3D"], [1, 2], [set(), {"H", "S"}])
    assert sorted(hands[1]) == ["2D", "3D"]


def test_determinize_from_a_spectator_view_samples_every_hand():
    state = pitch.replay(pitch.start(pitch.default_config(4), 11))
    view = pitch.view(state, None)
    sample = pitch.determinize(view, random.Random(2))
    assert pitch.view(sample, None) == view
    assert all(len(h) == 6 for h in sample.hands)
    assert sorted(pitch.components(sample)) == sorted(pitch.DECK)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (None, "bad_action"),
        ("pass", "bad_action"),
        ({}, "unknown_action"),
        ({"type": "double"}, "unknown_action"),
        ({"type": "x" * 10_000}, "unknown_action"),
        ({"type": "bid"}, "missing_field"),
        ({"type": "pass", "amount": 1}, "unexpected_field"),
        ({"type": "bid", "amount": "2"}, "bad_amount"),
        ({"type": "bid", "amount": True}, "bad_amount"),
        ({"type": "bid", "amount": 0}, "bad_amount"),
        ({"type": "bid", "amount": 5}, "bad_amount"),
        ({"type": "pitch", "card": "1H"}, "bad_card"),
        ({"type": "pitch", "card": ["AS"]}, "bad_card"),
        ({"type": "pitch", "card": "2C"}, "card_not_in_hand"),
        ({"type": "play", "card": "AS"}, "still_bidding"),
    ],
)
def test_bad_actions_are_refused_with_stable_codes(action: Any, code: str):
    state = new_game(TWO, 2)
    assert refused(state, 1, action) == code


def test_refusals_name_the_problem_in_a_short_sentence():
    with pytest.raises(IllegalAction) as info:
        pitch.decide(new_game(TWO, 2), 1, {"type": "x" * 10_000})
    assert len(info.value.text) < 100


def test_acting_out_of_turn_or_from_no_seat_is_refused():
    state = new_game(TWO, 2)
    assert refused(state, 0, {"type": "pass"}) == "not_your_turn"
    assert refused(state, 2, {"type": "pass"}) == "bad_seat"
    assert refused(state, -1, {"type": "pass"}) == "bad_seat"
    assert refused(state, True, {"type": "pass"}) == "bad_seat"
    with pytest.raises(IllegalAction):
        pitch.view(state, 5)
    assert pitch.legal_actions(state, 0) == [] and pitch.legal_actions(state, 9) == []


def test_no_move_is_accepted_once_the_game_is_over():
    state = play_two(pass_(bid(new_game(TWO, 2, max_hands=1), 1, 2), 0), [])
    assert state.phase == "over"
    assert refused(state, 0, {"type": "pass"}) == "game_over"
    assert pitch.legal_actions(state, 0) == [] == pitch.legal_actions(state, 1)


def test_bidding_moves_are_refused_during_play():
    state = pass_(bid(new_game(TWO, 2), 1, 2), 0)
    assert refused(state, 1, {"type": "bid", "amount": 3}) == "bidding_over"
    assert refused(state, 1, {"type": "pitch", "card": "AS"}) == "bidding_over"
    assert refused(state, 1, {"type": "play", "card": "2S"}) == "card_not_in_hand"


def test_decide_does_not_change_the_state_it_is_given():
    state = new_game(TWO, 2)
    before = pitch.replay(pitch.start(state.config, 12345))
    act(state, 1, {"type": "pitch", "card": "AS"})
    assert state == before


def test_the_view_carries_every_hands_result_so_far_and_a_sample_keeps_them():
    """#33: a reloaded page's score sheet said "Hands 1–31 (played before this page was opened)"."""
    rng = random.Random(11)
    config = pitch.validate_config({"players": 3, "max_hands": 5})
    state = pitch.replay(pitch.start(config, 9))
    scored: list[dict[str, Any]] = []
    while pitch.to_act(state):
        seat = pitch.to_act(state)[0]
        for event in pitch.decide(state, seat, rng.choice(pitch.legal_actions(state, seat))):
            state = pitch.apply(state, event)
            if event["type"] == "score":
                scored.append({k: v for k, v in event.items() if k != "type"})
    assert len(scored) == 5
    for seat in (None, 0):
        seen = pitch.view(state, seat)
        assert seen["past_hands"] == scored
        assert json.loads(json.dumps(seen)) == seen
        assert pitch.view(pitch.determinize(seen, random.Random(1)), seat)["past_hands"] == scored
