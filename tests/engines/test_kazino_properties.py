"""Kazino invariants over random games (hypothesis): captures are valid, canonical and largest;
owners always hold a capturer; no build or tripe outlives a deal; every card is scored."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.kazino.cards import ORDER, RANK, VALUE, play_values
from games.engines.kazino.moves import can_take
from games.engines.kazino.state import State

from .test_kazino_rules import kazino


def valid_group(state: State, card: str, value: int, group: list[str]) -> bool:
    piles = {c: p for p in state.table for c in p.cards}
    first = piles[group[0]]
    if first.kind != "card":
        return sorted(first.cards, key=ORDER.__getitem__) == group and (
            (first.kind == "build" and first.value == value)
            or (first.kind == "tripe" and can_take(card, first))
        )
    if any(piles[c].kind != "card" for c in group):
        return False
    if len(group) == 1 and RANK[group[0]] == RANK[card]:
        return True
    return len(group) >= 2 and sum(VALUE[c] for c in group) == value


def largest_by_brute_force(state: State, card: str, value: int) -> int:
    """The most table cards ``card`` at ``value`` can take, by trying every subset of loose cards."""
    loose = tuple(p.cards[0] for p in state.table if p.kind == "card")
    piles = sum(
        len(p.cards)
        for p in state.table
        if (p.kind == "build" and p.value == value) or (p.kind == "tripe" and RANK[p.cards[0]] == RANK[card])
    )

    @cache
    def splits(cards: tuple[str, ...]) -> bool:
        if not cards:
            return True
        head, rest = cards[0], cards[1:]
        if RANK[head] == RANK[card] and splits(rest):
            return True
        for size in range(1, len(rest) + 1):
            for others in combinations(rest, size):
                if VALUE[head] + sum(VALUE[c] for c in others) == value and splits(
                    tuple(c for c in rest if c not in others)
                ):
                    return True
        return False

    best = 0
    for size in range(len(loose), 0, -1):
        if any(splits(subset) for subset in combinations(loose, size)):
            best = size
            break
    return best + piles


def check_position(state: State) -> None:
    seat = kazino.to_act(state)[0]
    hand = state.hands[seat]
    legal = kazino.legal_actions(state, seat)
    for pile in state.table:
        if pile.owner is not None:
            assert any(can_take(c, pile) for c in state.hands[pile.owner]), "an owner holds no capturer"
    loose = sum(1 for p in state.table if p.kind == "card")
    for card in hand:
        for value in play_values(card):
            takes = [a for a in legal if a["type"] == "capture" and a["card"] == card and a["value"] == value]
            sizes = {sum(len(g) for g in a["groups"]) for a in takes}
            assert len(sizes) <= 1, "listed captures of one card and value differ in size"
            for action in takes:
                groups = action["groups"]
                flat = [c for g in groups for c in g]
                assert len(flat) == len(set(flat)), "a table card is in two groups"
                assert groups == sorted(groups, key=lambda g: [ORDER[c] for c in g])
                assert all(valid_group(state, card, value, g) for g in groups)
            owned = any(p.owner == seat for p in state.table)
            if loose <= 9 and not owned:
                best = largest_by_brute_force(state, card, value)
                assert sizes == ({best} if best else set()), "a capture is not the largest"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_kazino_invariants(seed):
    rng = random.Random(seed)
    state = kazino.replay(kazino.start({"players": 2, "match": "single"}, seed))
    while kazino.to_act(state):
        if rng.random() < 0.3:
            check_position(state)
        seat = kazino.to_act(state)[0]
        action = rng.choice(kazino.legal_actions(state, seat))
        for event in kazino.decide(state, seat, action):
            if event["type"] in ("deal", "game_end"):
                assert all(p.kind == "card" for p in state.table), "a build or tripe outlived its deal"
            state = kazino.apply(state, event)
    end = state.history[-1]
    assert sum(end.captured) == 52 or end.sweep_to is None
