"""Pitch bots: legal moves only, greedy beats random, strong finds the obvious moves."""

from __future__ import annotations

import random
import time

from games.bots import get
from games.bots.pitch import GreedyBot, StrongBot
from games.engines import pitch
from tests.bots.games import play_out

from ..engines.test_pitch_rules import bid, new_game, pass_


def play_game(levels: list[str], seed: int, rng: random.Random, **options: object) -> pitch.State:
    bots = [get("pitch", level) for level in levels]
    for bot in bots:
        if isinstance(bot, StrongBot):
            bot.budget_s, bot.min_samples = 0.005, 1
    config = pitch.validate_config({"players": len(levels), **options})
    state: pitch.State = play_out(pitch, pitch.replay(pitch.start(config, seed)), bots, rng).state
    return state


def test_the_registry_returns_the_pitch_bots():
    assert isinstance(get("pitch", "greedy"), GreedyBot)
    assert isinstance(get("pitch", "strong"), StrongBot)


def test_bots_only_ever_choose_legal_actions():
    rng = random.Random(4)
    play_game(["strong", "greedy", "random", "greedy"], 1, rng, max_hands=3)
    play_game(["strong", "greedy", "strong", "random"], 2, rng, partnerships=True, max_hands=3)
    play_game(["greedy", "strong", "greedy", "greedy", "random", "strong", "greedy"], 3, rng, max_hands=2)


def test_greedy_beats_random_over_30_games():
    rng = random.Random(5)
    wins = 0
    for game in range(30):
        levels = ["greedy", "random"] if game % 2 == 0 else ["random", "greedy"]
        state = play_game(levels, game, rng)
        result = pitch.outcome(state)
        assert result is not None
        wins += levels[result["winners"][0]] == "greedy"
    assert wins >= 22


PERFECT = {1: ["AS", "KS", "QS", "JS", "10S", "2S"], 0: ["3H", "4H", "5H", "6D", "7D", "8D"]}


def test_both_bots_bid_the_most_on_spades_with_every_top_spade_and_the_deuce():
    state = new_game(PERFECT, 2)
    view, legal = pitch.view(state, 1), pitch.legal_actions(state, 1)
    greedy = GreedyBot().choose(view, legal, random.Random(1))
    assert greedy["type"] == "pitch" and pitch.SUIT_OF[greedy["card"]] == "S"
    strong = StrongBot(budget_s=0.05).choose(view, legal, random.Random(1))
    # bidding 3 and leading a spade is worth the same 4 points unless the dealer steals
    assert strong == {"type": "bid", "amount": 3} or (strong["type"] == "pitch" and strong["card"][-1] == "S")


CAPTURE = {1: ["JS", "4H", "5H", "6H", "7H", "8H"], 0: ["AS", "3S", "2D", "3D", "4D", "5D"]}


def test_both_bots_capture_the_led_jack_of_trump_with_the_ace():
    state = pass_(bid(new_game(CAPTURE, 2), 1, 1), 0)
    for event in pitch.decide(state, 1, {"type": "play", "card": "JS"}):
        state = pitch.apply(state, event)
    view, legal = pitch.view(state, 0), pitch.legal_actions(state, 0)
    assert len(legal) == 2
    for bot in (GreedyBot(), StrongBot(budget_s=0.05)):
        assert bot.choose(view, legal, random.Random(1)) == {"type": "play", "card": "AS"}


def test_the_strong_bot_keeps_to_its_time_budget():
    state = pitch.replay(pitch.start(pitch.default_config(7), 9))
    seat = pitch.to_act(state)[0]
    bot = StrongBot(budget_s=0.05)
    start = time.perf_counter()
    bot.choose(pitch.view(state, seat), pitch.legal_actions(state, seat), random.Random(2))
    assert time.perf_counter() - start < 1.0
