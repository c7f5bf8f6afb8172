"""What each audience may see, the arbiter's reveal, the outcome, and sampling a state for bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engines import matching
from games.engines.base import IllegalAction, View, _
from games.engines.pitch.cards import DECK, NAME, SUIT_OF, Trick, sort_cards, voids
from games.engines.pitch.config import sides, validate_config
from games.engines.pitch.state import State, _summary, high_bid, to_act


def view(state: State, seat: int | None) -> View:
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise IllegalAction("bad_seat", _("There is no such seat at this table."))
    config = state.config
    high, holder = high_bid(state)
    played = [t for t, _w in state.tricks] + ([state.trick] if state.trick else [])
    found = voids(state.players, state.trump, played)
    captured: list[list[str]] = [[] for _ in range(state.players)]
    for trick, winner in state.tricks:
        captured[winner].extend(card for _seat, card in trick)
    return {
        "game": NAME,
        "players": state.players,
        "seat": seat,
        "config": {k: v for k, v in config.items() if k != "deck"},
        "teams": sides(config) if config["partnerships"] else None,
        "hand": state.hand_no,
        "dealer": state.dealer,
        "phase": state.phase,
        "to_act": to_act(state),
        "finished": state.phase == "over",
        "scores": list(state.scores),
        "cards": None if seat is None else list(state.hands[seat]) if state.hands else [],
        "hand_counts": [len(h) for h in state.hands],
        "bids": [{"seat": s, "bid": a} for s, a in state.bids],
        "high_bid": high,
        "high_bidder": holder,
        "pitcher": state.pitcher,
        "bid": state.bid,
        "trump": state.trump,
        "leader": state.leader,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "tricks": [
            {"leader": t[0][0], "cards": [{"seat": s, "card": c} for s, c in t], "winner": w}
            for t, w in state.tricks
        ],
        "captured": captured,
        "voids": [sorted(v) for v in found],
        "last_hand": _summary(state.last_hand) if state.last_hand else None,
        "past_hands": [_summary(h) for h in state.past_hands],
        "winners": list(state.winners) if state.phase == "over" else None,
    }


def reveal(state: State) -> View:
    """Everything an arbiter may see: every hand. Not the seed, and not the undealt cards (rules page)."""
    return {**view(state, None), "hands": [list(h) for h in state.hands]}


def hidden_from(state: State, seat: int | None) -> list[str]:
    hidden = [c for c in DECK if c not in state.in_play]
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden.extend(hand)
    return hidden


def components(state: State) -> list[str]:
    cards = [c for h in state.hands for c in h]
    cards += [c for _s, c in state.trick]
    cards += [c for t, _w in state.tricks for _s, c in t]
    cards += [c for c in DECK if c not in state.in_play]
    return cards


def outcome(state: State) -> dict[str, Any] | None:
    if state.phase != "over":
        return None
    winners = set(state.winners)
    places = []
    for s, score in enumerate(state.scores):
        if s in winners:
            places.append(1)
        else:
            better = sum(1 for o, other in enumerate(state.scores) if o not in winners and other > score)
            places.append(len(winners) + 1 + better)
    return {
        "winners": sorted(winners),
        "places": places,
        "scores": list(state.scores),
        "score_scale": 1,
        "teams": sides(state.config) if state.config["partnerships"] else None,
        "hands": state.hand_no,
    }


def determinize(view: View, rng: random.Random) -> State:
    """A full state that agrees with ``view``: the unseen cards dealt at random, respecting known voids."""
    config = validate_config(view["config"])
    n: int = config["players"]
    seat = view["seat"]
    own = tuple(view["cards"] or ())
    tricks: tuple[tuple[Trick, int], ...] = tuple(
        (tuple((p["seat"], p["card"]) for p in t["cards"]), t["winner"]) for t in view["tricks"]
    )
    trick: Trick = tuple((p["seat"], p["card"]) for p in view["trick"])
    played = [c for t, _w in tricks for _s, c in t] + [c for _s, c in trick]
    known = set(own) | set(played)
    unseen = [c for c in DECK if c not in known]
    rng.shuffle(unseen)
    wanted = [0 if s == seat else view["hand_counts"][s] for s in range(n)]
    dealt = deal_unseen(unseen, wanted, [set(v) for v in view["voids"]])
    hands = tuple(own if s == seat else tuple(sort_cards(dealt[s])) for s in range(n))
    return State(
        config=config,
        players=n,
        seed=rng.randrange(2**62),
        hand_no=view["hand"],
        dealer=view["dealer"],
        hands=hands,
        in_play=frozenset(known.union(*hands)),
        phase=view["phase"],
        bids=tuple((b["seat"], b["bid"]) for b in view["bids"]),
        pitcher=view["pitcher"],
        bid=view["bid"],
        trump=view["trump"],
        leader=view["leader"],
        trick=trick,
        tricks=tricks,
        scores=tuple(view["scores"]),
        last_hand=_summary(view["last_hand"]) if view["last_hand"] else None,
        past_hands=tuple(_summary(h) for h in view.get("past_hands", ())),
        winners=tuple(view["winners"] or ()),
    )


def deal_unseen(
    cards: Sequence[str], wanted: Sequence[int], void_suits: Sequence[set[str]]
) -> list[list[str]]:
    """Give ``wanted[s]`` of ``cards`` to each seat s, never a card of a suit s is void in.

    A quick pass deals the most constrained seats first; when it paints itself into a
    corner, an augmenting-path matching finds an assignment (one always exists: the true deal).
    """
    order = sorted(range(len(wanted)), key=lambda s: -len(void_suits[s]))
    pool = list(cards)
    hands: list[list[str]] = [[] for _ in wanted]
    for s in order:
        need = wanted[s]
        if not need:
            continue
        ok = [c for c in pool if SUIT_OF[c] not in void_suits[s]][:need]
        if len(ok) < need:
            return _match(cards, wanted, void_suits)
        hands[s] = ok
        taken = set(ok)
        pool = [c for c in pool if c not in taken]
    return hands


def _match(cards: Sequence[str], wanted: Sequence[int], void_suits: Sequence[set[str]]) -> list[list[str]]:
    slots = [s for s, k in enumerate(wanted) for _ in range(k)]
    owner = matching.match(cards, len(slots), lambda card, slot: SUIT_OF[card] not in void_suits[slots[slot]])
    if owner is None:
        raise ValueError("no deal agrees with these voids")
    hands: list[list[str]] = [[] for _ in wanted]
    for card, slot in owner.items():
        hands[slots[slot]].append(card)
    return hands
