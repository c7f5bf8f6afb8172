"""Pitch (rules/pitch.md): every worked example, every rule and every [decision], on stacked decks.

Deal order for ``config["deck"]`` (docs/games/pitch.md): three cards at a time, starting
left of the dealer, twice around; the helpers below stack a deck from the wanted hands.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import IllegalAction, pitch
from games.engines.pitch import State

# ---------------------------------------------------------------- helpers (also used by test_pitch_views)


def stack(hands: dict[int, list[str]], players: int, dealer: int = 0) -> list[str]:
    """The deck order that deals ``hands`` (six cards a seat): three at a time from left of the dealer."""
    deck: list[str] = []
    for packet in range(2):
        for k in range(players):
            seat = (dealer + 1 + k) % players
            deck.extend(hands[seat][3 * packet : 3 * packet + 3])
    return deck


def new_game(hands: dict[int, list[str]], players: int, dealer: int = 0, **options: Any) -> State:
    config = {"players": players, "dealer": dealer, "deck": stack(hands, players, dealer), **options}
    return pitch.replay(pitch.start(pitch.validate_config(config), 12345))


def act(state: State, seat: int, action: dict[str, Any], log: list[dict[str, Any]] | None = None) -> State:
    events = pitch.decide(state, seat, action)
    if log is not None:
        log.extend(events)
    for event in events:
        state = pitch.apply(state, event)
    return state


def play(state: State, seat: int, card: str, log: list[dict[str, Any]] | None = None) -> State:
    return act(state, seat, {"type": "play", "card": card}, log)


def bid(state: State, seat: int, amount: int, log: list[dict[str, Any]] | None = None) -> State:
    return act(state, seat, {"type": "bid", "amount": amount}, log)


def pass_(state: State, seat: int, log: list[dict[str, Any]] | None = None) -> State:
    return act(state, seat, {"type": "pass"}, log)


def play_out_hand(state: State, log: list[dict[str, Any]]) -> State:
    """Play the first legal card for whoever is to act until the hand is scored."""
    hand_no = state.hand_no
    while state.hand_no == hand_no and pitch.to_act(state):
        seat = pitch.to_act(state)[0]
        state = act(state, seat, pitch.legal_actions(state, seat)[0], log)
    return state


def last(log: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return [e for e in log if e["type"] == kind][-1]


def refused(state: State, seat: int, action: Any) -> str:
    with pytest.raises(IllegalAction) as info:
        pitch.decide(state, seat, action)
    return info.value.code


# Two players, dealer 0. The pitcher (seat 1) will take High (AS) and Game; seat 0 takes Low (2S)
# and, in TWO_JACK, the Jack (JS) too.
TWO = {1: ["AS", "10H", "10D", "10C", "KH", "KD"], 0: ["2S", "3S", "4H", "5D", "6C", "7C"]}
TWO_JACK = {1: ["AS", "10H", "10D", "10C", "KH", "KD"], 0: ["2S", "JS", "3S", "4H", "5D", "6C"]}


def play_two(state: State, log: list[dict[str, Any]]) -> State:
    """The scripted hand of TWO: seat 1 leads AS (spades trump); seat 0 trumps 10H with 2S."""
    state = play(state, 1, "AS", log)
    state = play(state, 0, "3S", log)
    state = play(state, 1, "10H", log)
    state = play(state, 0, "2S", log)  # trump may be played although seat 0 holds 4H
    state = play(state, 0, "4H", log)
    state = play(state, 1, "KH", log)
    for lead, follow in (("10D", "5D"), ("10C", "6C"), ("KD", "7C")):
        state = play(state, 1, lead, log)
        state = play(state, 0, follow, log)
    return state


def play_two_jack(state: State, log: list[dict[str, Any]]) -> State:
    """The scripted hand of TWO_JACK: seat 0 trumps 10H with JS and leads 2S to capture KD."""
    for seat, card in [
        (1, "AS"),
        (0, "3S"),
        (1, "10H"),
        (0, "JS"),
        (0, "2S"),
        (1, "KD"),
        (0, "4H"),
        (1, "KH"),
    ]:
        state = play(state, seat, card, log)
    for lead, follow in (("10D", "5D"), ("10C", "6C")):
        state = play(state, 1, lead, log)
        state = play(state, 0, follow, log)
    return state


# ---------------------------------------------------------------- worked examples of the rules page


def test_example_1_a_lone_jack_of_trump_scores_high_low_and_jack_for_the_pitcher():
    hands = {
        1: ["JH", "AS", "AC", "AD", "10S", "10C"],
        2: ["2S", "3S", "4S", "5S", "6S", "7S"],
        3: ["2C", "3C", "4C", "5C", "6C", "7C"],
        0: ["2D", "3D", "4D", "5D", "6D", "7D"],
    }
    log: list[dict[str, Any]] = []
    state = act(new_game(hands, 4), 1, {"type": "pitch", "card": "JH"}, log)
    assert state.trump == "H"
    for seat in (2, 3, 0):
        state = act(state, seat, pitch.legal_actions(state, seat)[0], log)
    assert last(log, "trick")["winner"] == 1
    state = play_out_hand(state, log)
    score = last(log, "score")
    assert score["awards"]["high"] == score["awards"]["low"] == score["awards"]["jack"] == 1
    assert score["points"][1] == 3 + (1 if score["awards"]["game"] == 1 else 0)
    assert score["awards"]["game"] == 1  # B took every trick, so every trick point too
    assert score["made"] and state.scores[1] == 4


def test_a_lone_trump_that_is_not_the_jack_scores_high_and_low():
    awards, _points = pitch.hand_awards([["5H", "2S"], ["10C"]], "H")
    assert awards == {"high": 0, "low": 0, "jack": None, "game": 1}


def test_example_2_a_pitcher_at_zero_who_bid_3_and_took_high_and_game_is_set_back_to_minus_3():
    log: list[dict[str, Any]] = []
    state = bid(new_game(TWO, 2), 1, 3, log)
    state = pass_(state, 0, log)
    assert state.pitcher == 1 and state.bid == 3
    state = play_two(state, log)
    score = last(log, "score")
    assert score["awards"] == {"high": 1, "low": 0, "jack": None, "game": 1}
    assert score["points"] == [1, 2]
    assert not score["made"]
    assert score["changes"] == [1, -3]
    assert state.scores == (1, -3)


def test_example_3_when_everybody_passes_the_dealer_must_bid_at_least_2():
    state = pitch.replay(pitch.start(pitch.default_config(4), 7))
    for seat in (1, 2, 3):
        state = pass_(state, seat)
    legal = pitch.legal_actions(state, 0)
    assert {"type": "pass"} not in legal
    assert [a for a in legal if a["type"] == "bid"] == [
        {"type": "bid", "amount": 2},
        {"type": "bid", "amount": 3},
    ]
    assert len([a for a in legal if a["type"] == "pitch"]) == 6
    assert refused(state, 0, {"type": "pass"}) == "dealer_must_bid"
    assert refused(state, 0, {"type": "bid", "amount": 1}) == "dealer_must_bid"
    state = bid(state, 0, 2)
    assert state.pitcher == 0 and state.bid == 2 and state.phase == "play"


def test_example_4_the_dealer_may_steal_the_bid_at_the_current_high_bid():
    log: list[dict[str, Any]] = []
    state = pitch.replay(pitch.start(pitch.default_config(4), 7))
    state = bid(state, 1, 2, log)
    state = pass_(state, 2, log)
    state = bid(state, 3, 3, log)
    assert {"type": "bid", "amount": 3} in pitch.legal_actions(state, 0)
    assert refused(state, 0, {"type": "bid", "amount": 2}) == "bid_too_low"
    state = bid(state, 0, 3, log)
    assert log[-2] == {"type": "bid", "seat": 0, "amount": 3, "steal": True}
    assert log[-1] == {"type": "pitcher", "seat": 0, "bid": 3}
    assert state.pitcher == 0 and state.bid == 3 and pitch.to_act(state) == [0]


def test_example_5_a_non_pitcher_who_passes_the_target_does_not_win():
    log: list[dict[str, Any]] = []
    state = new_game(TWO_JACK, 2)._replace(scores=(6, 0))
    state = bid(state, 1, 2, log)
    state = pass_(state, 0, log)
    state = play_two_jack(state, log)
    score = last(log, "score")
    assert score["awards"] == {"high": 1, "low": 0, "jack": 0, "game": 1}
    assert state.scores == (8, 2)
    assert log[-1]["type"] == "deal" and state.phase == "bidding" and state.hand_no == 2
    assert pitch.outcome(state) is None


# ---------------------------------------------------------------- deal


def test_six_cards_are_dealt_three_at_a_time_starting_left_of_the_dealer():
    deck = [c for c in pitch.DECK[:18]]
    config = pitch.validate_config({"players": 3, "dealer": 1, "deck": deck})
    deal = pitch.start(config, 1)[1]
    # seat 2 is left of dealer 1: it takes cards 0-2 and 9-11; seat 0 takes 3-5 and 12-14; dealer 6-8, 15-17.
    assert deal["hands"][2] == pitch.sort_cards(deck[0:3] + deck[9:12])
    assert deal["hands"][0] == pitch.sort_cards(deck[3:6] + deck[12:15])
    assert deal["hands"][1] == pitch.sort_cards(deck[6:9] + deck[15:18])
    assert deal["dealer"] == 1


def test_the_deal_passes_left_and_bidding_starts_left_of_the_dealer():
    state = new_game(TWO, 2)
    assert pitch.to_act(state) == [1]
    state = pass_(bid(state, 1, 1), 0)
    state = play_out_hand(state, [])
    assert state.hand_no == 2 and state.dealer == 1 and pitch.to_act(state) == [0]


def test_later_hands_are_shuffled_from_the_seed_and_the_same_seed_gives_the_same_deals():
    one = pitch.replay(pitch.start(pitch.default_config(3), 99))
    two = pitch.replay(pitch.start(pitch.default_config(3), 99))
    other = pitch.replay(pitch.start(pitch.default_config(3), 100))
    assert one.hands == two.hands != other.hands
    assert all(len(h) == 6 for h in one.hands) and len(one.in_play) == 18


# ---------------------------------------------------------------- bidding


def test_every_bid_must_beat_the_high_bid():
    state = pitch.replay(pitch.start(pitch.default_config(4), 7))
    state = bid(state, 1, 2)
    assert [a for a in pitch.legal_actions(state, 2) if a["type"] == "bid"] == [{"type": "bid", "amount": 3}]
    assert refused(state, 2, {"type": "bid", "amount": 2}) == "bid_too_low"
    assert refused(state, 2, {"type": "bid", "amount": 1}) == "bid_too_low"


def test_each_player_bids_once_and_the_bidding_ends_with_the_dealer():
    state = pitch.replay(pitch.start(pitch.default_config(3), 7))
    state = bid(state, 1, 1)
    state = pass_(state, 2)
    assert pitch.to_act(state) == [0]
    state = pass_(state, 0)
    assert state.phase == "play" and state.pitcher == 1 and state.bid == 1
    assert pitch.to_act(state) == [1]


def test_a_bid_of_4_can_only_be_made_by_pitching_a_card():
    state = pitch.replay(pitch.start(pitch.default_config(4), 7))
    assert {"type": "bid", "amount": 4} not in pitch.legal_actions(state, 1)
    assert refused(state, 1, {"type": "bid", "amount": 4}) == "pitch_to_bid_four"


def test_pitching_ends_the_bidding_at_once_and_is_the_first_lead_setting_trump():
    state = new_game(TWO, 2, dealer=1)  # seat 0 bids first
    log: list[dict[str, Any]] = []
    state = act(state, 0, {"type": "pitch", "card": "4H"}, log)
    assert log == [{"type": "pitch", "seat": 0, "card": "4H"}, {"type": "trump", "suit": "H"}]
    assert state.phase == "play" and state.pitcher == 0 and state.bid == 4 and state.trump == "H"
    assert state.trick == ((0, "4H"),) and "4H" not in state.hands[0]
    assert pitch.to_act(state) == [1]  # the dealer never gets to bid
    assert refused(state, 1, {"type": "pass"}) == "bidding_over"


def test_a_player_who_reached_3_leaves_only_pitching_to_the_later_bidders():
    state = pitch.replay(pitch.start(pitch.default_config(4), 7))
    state = bid(state, 1, 3)
    kinds = {a["type"] for a in pitch.legal_actions(state, 2)}
    assert kinds == {"pass", "pitch"}


def test_the_dealer_may_also_outbid_the_high_bid():
    state = pitch.replay(pitch.start(pitch.default_config(3), 7))
    state = pass_(bid(state, 1, 1), 2)
    bids = [a["amount"] for a in pitch.legal_actions(state, 0) if a["type"] == "bid"]
    assert bids == [1, 2, 3]


# ---------------------------------------------------------------- play


def test_the_pitcher_leads_and_the_first_card_sets_trump():
    log: list[dict[str, Any]] = []
    state = pass_(bid(new_game(TWO, 2), 1, 2), 0)
    assert pitch.to_act(state) == [1] and state.trump is None
    state = play(state, 1, "10D", log)
    assert log[-1] == {"type": "trump", "suit": "D"} and state.trump == "D"


def test_a_player_who_can_follow_suit_must_follow_or_play_trump():
    hands = {1: ["AS", "KH", "2C", "3C", "4C", "5C"], 0: ["2H", "3S", "QC", "6D", "7D", "8D"]}
    state = pass_(bid(new_game(hands, 2), 1, 1), 0)
    state = play(state, 1, "AS", [])  # spades trump
    state = play(state, 0, "3S", [])
    state = play(state, 1, "KH", [])  # hearts led: seat 0 holds 2H and no trump
    assert [a["card"] for a in pitch.legal_actions(state, 0)] == ["2H"]
    assert refused(state, 0, {"type": "play", "card": "QC"}) == "must_follow_suit"


def test_a_trump_may_be_played_even_when_holding_the_suit_led():
    hands = {1: ["AS", "KH", "2C", "3C", "4C", "5C"], 0: ["2H", "3S", "4S", "QC", "6D", "7D"]}
    state = pass_(bid(new_game(hands, 2), 1, 1), 0)
    state = play(play(state, 1, "AS"), 0, "3S")
    state = play(state, 1, "KH")
    assert sorted(a["card"] for a in pitch.legal_actions(state, 0)) == ["2H", "4S"]


def test_a_player_who_cannot_follow_suit_may_play_any_card():
    hands = {1: ["AS", "KH", "2C", "3C", "4C", "5C"], 0: ["3S", "4S", "QC", "6D", "7D", "8D"]}
    state = pass_(bid(new_game(hands, 2), 1, 1), 0)
    state = play(play(state, 1, "AS"), 0, "3S")
    state = play(state, 1, "KH")
    assert len(pitch.legal_actions(state, 0)) == 5


def test_when_trump_is_led_a_player_holding_trump_must_play_one():
    state = pass_(bid(new_game(TWO, 2), 1, 2), 0)
    state = play(state, 1, "AS")
    assert sorted(a["card"] for a in pitch.legal_actions(state, 0)) == ["2S", "3S"]


def test_the_highest_trump_wins_the_trick_else_the_highest_card_of_the_suit_led():
    assert pitch.trick_winner([(0, "KH"), (1, "AH"), (2, "2S")], "S") == 2
    assert pitch.trick_winner([(0, "KH"), (1, "AH"), (2, "AD")], "S") == 1
    assert pitch.trick_winner([(0, "10H"), (1, "3S"), (2, "AS")], "S") == 2


def test_the_winner_of_a_trick_leads_the_next():
    log: list[dict[str, Any]] = []
    state = pass_(bid(new_game(TWO, 2), 1, 2), 0)
    state = play(play(state, 1, "AS"), 0, "3S")
    state = play(play(state, 1, "10H", log), 0, "2S", log)
    assert log[-1] == {"type": "trick", "winner": 0}
    assert pitch.to_act(state) == [0] and state.leader == 0


# ---------------------------------------------------------------- scoring


def test_game_goes_to_the_plurality_of_trick_points_and_nobody_on_a_tie():
    awards, points = pitch.hand_awards([["10H", "2S"], ["AC", "KC", "QD"], ["JD", "9C"]], "S")
    assert points == [10, 9, 1] and awards["game"] == 0
    awards, points = pitch.hand_awards([["10H", "2S"], ["10D"]], "S")
    assert points == [10, 10] and awards["game"] is None


def test_a_jack_of_trump_not_in_play_scores_for_nobody():
    awards, _points = pitch.hand_awards([["AS", "2S"], ["JH"]], "S")
    assert awards["jack"] is None and awards["high"] == awards["low"] == 0


def test_trick_points_count_ten_ace_king_queen_jack():
    _awards, points = pitch.hand_awards([["10H"], ["AH"], ["KH"], ["QH"], ["JH"], ["9H"]], "H")
    assert points == [10, 4, 3, 2, 1, 0]


def test_a_pitcher_who_makes_the_bid_scores_every_point_taken():
    log: list[dict[str, Any]] = []
    state = pass_(bid(new_game(TWO, 2), 1, 2), 0)
    state = play_two(state, log)
    assert last(log, "score")["made"] and state.scores == (1, 2)


def test_scores_can_go_negative():
    state = new_game(TWO, 2)._replace(scores=(0, 1))
    state = pass_(bid(state, 1, 3), 0)
    state = play_two(state, [])
    assert state.scores == (1, -2)


# ---------------------------------------------------------------- winning


def test_a_pitcher_reaching_the_target_wins():
    log: list[dict[str, Any]] = []
    state = new_game(TWO_JACK, 2)._replace(scores=(0, 5))
    state = pass_(bid(state, 1, 2), 0)
    state = play_two_jack(state, log)
    assert log[-1] == {"type": "end", "reason": "target", "winners": [1]}
    assert pitch.to_act(state) == [] and state.phase == "over"
    result = pitch.outcome(state)
    assert result is not None
    assert result["winners"] == [1] and result["places"] == [2, 1] and result["scores"] == [2, 7]


def test_a_pitcher_who_ends_the_hand_at_or_above_the_target_wins_even_when_set_back():
    log: list[dict[str, Any]] = []
    state = new_game(TWO_JACK, 2)._replace(scores=(9, 12))
    state = pass_(bid(state, 1, 3), 0)
    state = play_two_jack(state, log)
    assert state.scores == (11, 9)
    assert log[-1]["winners"] == [1]
    result = pitch.outcome(state)
    assert result is not None and result["places"] == [2, 1]  # the winner may have fewer points


def test_the_target_may_be_11_15_or_21():
    state = new_game(TWO_JACK, 2, target=11)._replace(scores=(0, 7))
    state = pass_(bid(state, 1, 2), 0)
    state = play_two_jack(state, [])
    assert state.scores == (2, 9) and pitch.outcome(state) is None
    for target in (7, 11, 15, 21):
        assert pitch.validate_config({"players": 3, "target": target})["target"] == target
    with pytest.raises(IllegalAction):
        pitch.validate_config({"players": 3, "target": 10})


def test_the_game_stops_at_the_hand_limit_and_the_highest_score_wins():
    log: list[dict[str, Any]] = []
    state = new_game(TWO, 2, max_hands=1)
    state = pass_(bid(state, 1, 3), 0)
    state = play_two(state, log)
    assert log[-1] == {"type": "end", "reason": "hand_limit", "winners": [0]}
    assert pitch.outcome(state) == {
        "winners": [0],
        "places": [1, 2],
        "scores": [1, -3],
        "score_scale": 1,
        "teams": None,
        "hands": 1,
    }


def test_there_is_no_hand_limit_unless_the_table_sets_one():
    # The rules page: "play continues until a pitcher ends a hand at or above the target".
    assert pitch.default_config(4)["max_hands"] is None
    assert pitch.validate_config({"players": 4})["max_hands"] is None
    assert pitch.validate_config({"players": 4, "max_hands": None})["max_hands"] is None
    assert pitch.validate_config({"players": 4, "max_hands": 30})["max_hands"] == 30
    state = new_game(TWO, 2, max_hands=None)._replace(hand_no=500)
    state = play_two(pass_(bid(state, 1, 2), 0), [])
    assert state.phase == "bidding" and state.hand_no == 501


# ---------------------------------------------------------------- partnerships


PARTNERS = {
    1: ["AS", "10H", "3D", "4D", "5D", "6D"],
    2: ["2S", "7D", "8D", "9D", "2C", "3C"],
    3: ["JS", "10C", "4C", "5C", "6C", "7C"],
    0: ["KS", "AH", "8C", "9C", "2H", "3H"],
}


def test_partners_sit_opposite_pool_their_cards_and_score_together():
    log: list[dict[str, Any]] = []
    state = new_game(PARTNERS, 4, partnerships=True)
    state = bid(state, 1, 2, log)
    for seat in (2, 3, 0):
        state = pass_(state, seat, log)
    state = play_out_hand(state, log)
    score = last(log, "score")
    assert len(score["points"]) == 2  # two sides: seats 0 + 2 and 1 + 3
    captured: list[list[str]] = [[], []]
    trick: list[str] = []
    for event in log:
        if event["type"] == "play":
            trick.append(event["card"])
        elif event["type"] == "trick":
            captured[event["winner"] % 2] += trick
            trick = []
    assert (score["awards"], score["game_points"]) == pitch.hand_awards(captured, "S")
    assert score["awards"]["high"] == 1  # AS, led by seat 1
    assert state.scores[0] == state.scores[2] and state.scores[1] == state.scores[3]
    assert score["changes"][0] == score["changes"][2] and score["changes"][1] == score["changes"][3]
    assert pitch.view(state, 0)["teams"] == [[0, 2], [1, 3]]


def test_a_team_wins_when_one_of_its_players_pitched_and_it_ends_at_the_target():
    log: list[dict[str, Any]] = []
    state = new_game(PARTNERS, 4, partnerships=True)._replace(scores=(0, 6, 0, 6))
    state = bid(state, 1, 1, log)
    for seat in (2, 3, 0):
        state = pass_(state, seat, log)
    state = play_out_hand(state, log)
    assert log[-1]["type"] == "end" and log[-1]["winners"] == [1, 3]
    result = pitch.outcome(state)
    assert result is not None and result["teams"] == [[0, 2], [1, 3]] and result["places"] == [3, 1, 3, 1]


def test_partnerships_are_only_for_four_players():
    with pytest.raises(IllegalAction) as info:
        pitch.validate_config({"players": 3, "partnerships": True})
    assert info.value.code == "partnerships_need_four"


# ---------------------------------------------------------------- config


@pytest.mark.parametrize(
    ("config", "code"),
    [
        ({"players": 8}, "bad_players"),
        ({"players": True}, "bad_players"),
        ({"players": 4, "target": "7"}, "bad_target"),
        ({"players": 4, "dealer": 4}, "bad_dealer"),
        ({"players": 4, "partnerships": 1}, "bad_partnerships"),
        ({"players": 4, "max_hands": 0}, "bad_max_hands"),
        ({"players": 2, "deck": ["AS"] * 12}, "bad_deck"),
        ({"players": 2, "deck": ["AS", "XX"]}, "bad_deck"),
        ({"players": 2, "deck": list(pitch.DECK[:11])}, "bad_deck"),
        ({"players": 2, "trumps": "S"}, "unknown_option"),
    ],
)
def test_bad_configs_are_refused_with_a_clear_code(config, code):
    with pytest.raises(IllegalAction) as info:
        pitch.validate_config(config)
    assert info.value.code == code


def test_default_config_follows_the_rules_page():
    assert pitch.default_config(4) == {
        "players": 4,
        "partnerships": False,
        "target": 7,
        "dealer": 0,
        "max_hands": None,
    }
