"""Kazino computer players: they play legal moves, greedy beats random, strong sees the obvious."""

from __future__ import annotations

import random
from typing import Any

from games import bots
from games.engines import get
from games.engines.kazino.cards import DECK
from tests.bots.games import play_out

kazino = get("kazino")


def play_game(levels: dict[int, str], seed: int) -> tuple[list[int], float]:
    """One single-game match; returns the winners and the slowest move in seconds."""
    players = [bots.get("kazino", levels[seat]) for seat in (0, 1)]
    state = kazino.replay(kazino.start({"players": 2, "match": "single"}, seed))
    played = play_out(kazino, state, players, random.Random(seed))
    result = kazino.outcome(played.state)
    assert result is not None
    return result["winners"], played.slowest


def test_the_registry_gives_a_greedy_and_a_strong_kazino_bot():
    assert type(bots.get("kazino", "greedy")).__name__ == "GreedyBot"
    assert type(bots.get("kazino", "strong")).__name__ == "StrongBot"


def test_greedy_beats_random_in_a_30_game_match():
    points = 0.0
    for i in range(30):
        greedy = i % 2
        winners, _ = play_game({greedy: "greedy", 1 - greedy: "random"}, 500 + i)
        points += 1.0 if winners == [greedy] else 0.5 if len(winners) == 2 else 0.0
    assert points >= 20


def test_the_strong_bot_plays_legal_moves_within_its_time_budget():
    winners, slowest = play_game({0: "strong", 1: "greedy"}, 77)
    assert winners
    assert slowest < 2.0  # the budget is 150 ms; generous for a loaded CI machine


def first_move(level: str, front: list[str]) -> dict[str, Any]:
    """The ``level`` bot's first move (seat 0) in a two-player deal whose deck starts with ``front``."""
    deck = front + [c for c in DECK if c not in front]
    state = kazino.replay(kazino.start({"players": 2, "dealer": 1, "deck": deck}, 1))
    legal = kazino.legal_actions(state, 0)
    action: dict[str, Any] = bots.get("kazino", level).choose(kazino.view(state, 0), legal, random.Random(2))
    return action


def test_the_strong_bot_takes_five_cards_with_its_ace_as_14():
    action = first_move("strong", ["10H", "4S", "QC", "2D", "AS", "3C", "5C", "6C", "7D", "8D", "9D", "JD"])
    assert action == {"type": "capture", "card": "AS", "value": 14, "groups": [["2D", "QC"], ["4S", "10H"]]}


def test_the_greedy_bot_takes_the_biggest_capture():
    action = first_move("greedy", ["10H", "4S", "QC", "2D", "AS", "6C", "5C", "3C", "7D", "8D", "9D", "JD"])
    assert action["card"] == "AS" and action["value"] == 14
