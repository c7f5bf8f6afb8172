"""Skyjo computer players: legal moves only, sensible choices, and greedy beating random."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games import bots
from games.bots.skyjo import GreedyBot, StrongBot
from games.engines import get
from games.engines.skyjo.state import FULL_DECK
from tests.bots.games import play_out

skyjo = get("skyjo")

LOW = [5, 4, 1, 2, -1, 0, 1, 0, 0, 1, -1, 0]
OTHER = [3, 2, 1, 1, 0, 1, 2, 0, -1, 2, 0, 1]


def stacked(grids: list[list[int]], discard: int, draw: list[int]) -> list[int]:
    used = [card for grid in grids for card in grid] + [discard] + draw
    return used + list((Counter(FULL_DECK) - Counter(used)).elements())


def quick(level: str) -> Any:
    """The bot of ``level``; the strong one with a small budget so that whole games stay fast."""
    return StrongBot(budget=0.01) if level == "strong" else bots.get("skyjo", level)


def play(levels: list[str], seed: int, target: int = 100) -> dict[str, Any]:
    players = [quick(level) for level in levels]
    rng = random.Random(seed)
    state = skyjo.replay(skyjo.start({"players": len(levels), "target": target}, seed))
    result = skyjo.outcome(play_out(skyjo, state, players, rng, any_seat=True).state)
    assert result is not None
    return result


def test_the_registry_gives_every_level_for_skyjo():
    assert isinstance(bots.get("skyjo", "greedy"), GreedyBot)
    assert isinstance(bots.get("skyjo", "strong"), StrongBot)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_bots_only_ever_choose_listed_actions(players):
    levels = (["greedy", "strong", "random"] * 3)[:players]
    play(levels, seed=players, target=20)


def test_greedy_beats_random_in_a_short_match():
    wins = 0
    for game in range(30):
        levels = ["greedy", "random"] if game % 2 == 0 else ["random", "greedy"]
        if levels.index("greedy") in play(levels, seed=game, target=40)["winners"]:
            wins += 1
    assert wins >= 25


def after_opening(
    grids: list[list[int]], discard: int, draw: list[int], cells: tuple[int, int] = (0, 1)
) -> Any:
    """Both seats have turned ``cells`` (seat 0 also picks them)."""
    config = {"players": 2, "deck": stacked(grids, discard, draw)}
    state = skyjo.replay(skyjo.start(config, 1))
    for seat, opening in ((0, cells), (1, (0, 1))):
        for cell in opening:
            for event in skyjo.decide(state, seat, {"type": "reveal", "cell": cell}):
                state = skyjo.apply(state, event)
    return state


@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_bots_take_a_discard_that_wipes_a_column_of_high_cards(level):
    grid = [11, 3, 4, 5, 6, 7, 8, 9, 11, 10, 12, 2]  # column 0 reads 11 / 6 / 11
    state = after_opening([grid, OTHER], discard=11, draw=[], cells=(0, 8))
    assert skyjo.to_act(state) == [0]
    legal = skyjo.legal_actions(state, 0)
    action = bots.get("skyjo", level).choose(skyjo.view(state, 0), legal, random.Random(0))
    assert action == {"type": "take_discard", "cell": 4}


@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_bots_place_a_drawn_minus_two_instead_of_discarding_it(level):
    state = after_opening([LOW[::-1], OTHER], discard=12, draw=[-2])
    seat = skyjo.to_act(state)[0]
    for event in skyjo.decide(state, seat, {"type": "draw"}):
        state = skyjo.apply(state, event)
    legal = skyjo.legal_actions(state, seat)
    action = bots.get("skyjo", level).choose(skyjo.view(state, seat), legal, random.Random(0))
    assert action["type"] == "place"


def test_the_strong_bot_does_not_close_into_a_doubled_score():
    """Seat 0 has one hidden card left and a high total; turning it would close and be doubled."""
    high = [12, 11, 10, 9, 12, 11, 10, 9, 10, 12, 11, 8]  # no column of three equal cards
    low = [-2, -1, 0, 1, -2, -1, 0, 1, -1, 0, 1, 2]
    state = after_opening([high, low], discard=12, draw=[])
    # seat 0 (23 showing) starts; let both seats turn cells 2..10 in turn
    for cell in range(2, 11):
        for seat in (0, 1):
            for event in skyjo.decide(state, seat, {"type": "turn", "cell": cell}):
                state = skyjo.apply(state, event)
    assert skyjo.to_act(state) == [0]
    legal = skyjo.legal_actions(state, 0)
    action = StrongBot().choose(skyjo.view(state, 0), legal, random.Random(0))
    assert action != {"type": "turn", "cell": 11}, "closing here doubles a total above 100"
    assert not (action["type"] == "take_discard" and action["cell"] == 11)
