"""What a seat may do, and the events an accepted action produces: deals, bids, tricks, scores."""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, Config, Event, IllegalAction, _
from games.engines.pitch.cards import (
    DECK,
    HAND_SIZE,
    SUIT_NAMES,
    SUIT_OF,
    TRICKS,
    hand_awards,
    playable,
    sort_cards,
    trick_winner,
)
from games.engines.pitch.config import side_of, sides, validate_config
from games.engines.pitch.state import State, apply, high_bid, to_act

_ACTION_FIELDS = {
    "pass": {"type"},
    "bid": {"type", "amount"},
    "pitch": {"type", "card"},
    "play": {"type", "card"},
}


def start(config: Config, seed: int) -> list[Event]:
    config = validate_config(config)
    if type(seed) is not int:
        raise IllegalAction("bad_seed", _("The seed must be a whole number."))
    return [{"type": "setup", "config": config, "seed": seed}, _deal_event(config, seed, 1)]


def _deal_event(config: Config, seed: int | None, hand_no: int) -> Event:
    """Six cards each, three at a time, starting left of the dealer; ``config["deck"]`` stacks hand 1."""
    n: int = config["players"]
    dealer = (config["dealer"] + hand_no - 1) % n
    deck = config.get("deck")
    if hand_no != 1 or deck is None:
        shuffled = list(DECK)
        random.Random(f"{seed}:deal:{hand_no}").shuffle(shuffled)
        deck = shuffled
    hands: list[list[str]] = [[] for _ in range(n)]
    for packet in range(HAND_SIZE // 3):
        for k in range(n):
            start_at = 3 * (packet * n + k)
            hands[(dealer + 1 + k) % n].extend(deck[start_at : start_at + 3])
    return {"type": "deal", "hand": hand_no, "dealer": dealer, "hands": [sort_cards(h) for h in hands]}


def deal_of(config: Config, seed: int, hand_no: int) -> dict[str, Any]:
    """Hand ``hand_no``'s deal as it will be logged, for the fair-deal commitment (docs/fair-deals.md).

    Only the dealt hands: every one of their cards is played, while the undealt cards are never
    shown, so they are not committed to either (the stock is empty).
    """
    event = _deal_event(config, seed, hand_no)
    return {"open": {"dealer": event["dealer"], "hands": event["hands"]}, "stock": []}


def deals_in(events: list[Event]) -> dict[int, dict[str, Any]]:
    """Every hand dealt in ``events``, as ``deal_of`` describes it (nothing is drawn in Pitch)."""
    return {
        e["hand"]: {"open": {"dealer": e["dealer"], "hands": e["hands"]}, "drawn": []}
        for e in events
        if e["type"] == "deal"
    }


def legal_actions(state: State, seat: int) -> list[Action]:
    if type(seat) is not int or seat not in to_act(state):
        return []
    hand = state.hands[seat]
    if state.phase == "play":
        return [{"type": "play", "card": c} for c in playable(hand, state.trick, state.trump)]
    high, _holder = high_bid(state)
    dealer = seat == state.dealer
    actions: list[Action] = [] if dealer and high == 0 else [{"type": "pass"}]
    lowest = (2 if high == 0 else high) if dealer else high + 1
    actions += [{"type": "bid", "amount": a} for a in range(max(lowest, 1), 4)]
    actions += [{"type": "pitch", "card": c} for c in hand]
    return actions


def decide(state: State, seat: int, action: Action) -> list[Event]:
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction("bad_seat", _("There is no such seat at this table."))
    kind = _check_shape(action)
    if state.phase == "over":
        raise IllegalAction("game_over", _("The game is over."))
    turn = to_act(state)
    if seat not in turn:
        raise IllegalAction("not_your_turn", _("It is not your turn: seat {seat} is to act."), seat=turn[0])
    if kind == "play" and state.phase != "play":
        raise IllegalAction("still_bidding", _("The bidding is not over: pass, bid or pitch a card."))
    if kind != "play" and state.phase != "bidding":
        raise IllegalAction("bidding_over", _("The bidding is over: play a card."))
    if kind == "pass":
        _check_pass(state, seat)
    elif kind == "bid":
        _check_bid(state, seat, action["amount"])
    else:
        _check_card(state, seat, action["card"], kind)
    if kind == "play":
        return _play_events(state, seat, action["card"])
    if kind == "pitch":
        card = action["card"]
        return [{"type": "pitch", "seat": seat, "card": card}, {"type": "trump", "suit": SUIT_OF[card]}]
    event: Event = {"type": "pass", "seat": seat}
    if kind == "bid":
        high, _holder = high_bid(state)
        event = {
            "type": "bid",
            "seat": seat,
            "amount": action["amount"],
            "steal": seat == state.dealer and action["amount"] == high,
        }
    if seat != state.dealer:
        return [event]
    high, holder = high_bid(apply(state, event))
    return [event, {"type": "pitcher", "seat": holder, "bid": high}]


def _check_shape(action: Any) -> str:
    if not isinstance(action, dict):
        raise IllegalAction("bad_action", _("An action must be a set of named fields with a type."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise IllegalAction("unknown_action", _("Pitch has no action called {kind}."), kind=str(kind)[:20])
    wanted = _ACTION_FIELDS[kind]
    missing = sorted(wanted - set(action))
    if missing:
        raise IllegalAction("missing_field", _("This action needs a {field}."), field=missing[0])
    extra = sorted(str(k)[:20] for k in action if k not in wanted)
    if extra:
        raise IllegalAction("unexpected_field", _("This action has no field called {field}."), field=extra[0])
    if "amount" in action and type(action["amount"]) is not int:
        raise IllegalAction("bad_amount", _("A bid is a whole number from 1 to 3."))
    if "card" in action and (not isinstance(action["card"], str) or action["card"] not in SUIT_OF):
        raise IllegalAction("bad_card", _("That is not a card: write cards like 10H, QS or AD."))
    return kind


def _check_pass(state: State, seat: int) -> None:
    if seat == state.dealer and high_bid(state)[0] == 0:
        raise IllegalAction("dealer_must_bid", _("Everybody passed: as the dealer you must bid at least 2."))


def _check_bid(state: State, seat: int, amount: int) -> None:
    if amount == 4:
        raise IllegalAction("pitch_to_bid_four", _("A bid of 4 is made by pitching a card: play it face up."))
    if not 1 <= amount <= 3:
        raise IllegalAction("bad_amount", _("A bid is a whole number from 1 to 3."))
    high, _holder = high_bid(state)
    if seat == state.dealer:
        if high == 0 and amount < 2:
            raise IllegalAction(
                "dealer_must_bid", _("Everybody passed: as the dealer you must bid at least 2.")
            )
        if amount < high:
            raise IllegalAction("bid_too_low", _("The dealer may steal at {high} or bid higher."), high=high)
    elif amount <= high:
        raise IllegalAction("bid_too_low", _("Your bid must be higher than {high}."), high=high)


def _check_card(state: State, seat: int, card: str, kind: str) -> None:
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("card_not_in_hand", _("You do not hold {card}."), card=card)
    if kind == "play" and card not in playable(hand, state.trick, state.trump):
        led = SUIT_OF[state.trick[0][1]]
        raise IllegalAction(
            "must_follow_suit",
            _("You must follow suit or play a trump: you hold a {suit}."),
            suit=SUIT_NAMES[led],
        )


def _play_events(state: State, seat: int, card: str) -> list[Event]:
    events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
    if state.trump is None:
        events.append({"type": "trump", "suit": SUIT_OF[card]})
    if len(state.trick) + 1 < state.players:
        return events
    trump = state.trump or SUIT_OF[card]
    events.append({"type": "trick", "winner": trick_winner((*state.trick, (seat, card)), trump)})
    if len(state.tricks) + 1 < TRICKS:
        return events
    after = state
    for event in events:
        after = apply(after, event)
    score = _score_event(after)
    events.append(score)
    pitcher_side = side_of(state.config, score["pitcher"])
    won = [s for s in range(state.players) if side_of(state.config, s) == pitcher_side]
    limit = state.config["max_hands"]
    if score["scores"][score["pitcher"]] >= state.config["target"]:
        events.append({"type": "end", "reason": "target", "winners": won})
    elif limit is not None and state.hand_no >= limit:
        best = max(score["scores"])
        leaders = [s for s, points in enumerate(score["scores"]) if points == best]
        events.append({"type": "end", "reason": "hand_limit", "winners": leaders})
    else:
        events.append(_deal_event(state.config, state.seed, state.hand_no + 1))
    return events


def _score_event(state: State) -> Event:
    """The points of a finished hand, the set-back of a pitcher who fell short, and the new scores."""
    config, pitcher, trump = state.config, state.pitcher, state.trump
    assert pitcher is not None and trump is not None
    teams = sides(config)
    captured: list[list[str]] = [[] for _ in teams]
    for trick, winner in state.tricks:
        captured[side_of(config, winner)].extend(card for _seat, card in trick)
    awards, game_points = hand_awards(captured, trump)
    points = [0] * len(teams)
    for who in awards.values():
        if who is not None:
            points[who] += 1
    pitcher_side = side_of(config, pitcher)
    made = points[pitcher_side] >= state.bid
    change = [p if s != pitcher_side or made else -state.bid for s, p in enumerate(points)]
    changes = [change[side_of(config, s)] for s in range(state.players)]
    return {
        "type": "score",
        "hand": state.hand_no,
        "pitcher": pitcher,
        "bid": state.bid,
        "trump": trump,
        "awards": awards,
        "game_points": game_points,
        "points": points,
        "made": made,
        "changes": changes,
        "scores": [score + c for score, c in zip(state.scores, changes, strict=True)],
    }
