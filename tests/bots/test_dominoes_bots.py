"""Dominoes computer players: legal, fast, and better than chance."""

from __future__ import annotations

import random
from typing import Any

from games.bots import get
from games.bots.dominoes import GreedyBot, StrongBot
from games.bots.dominoes_sim import Table
from games.engines import dominoes as d
from games.engines.dominoes.state import END_ID, playable
from games.engines.dominoes.tiles import TILE_ID
from tests.bots.games import play_out
from tests.engines.test_dominoes_rules import position


def play_game(config: dict[str, Any], seed: int, bots: list[Any], rng: random.Random) -> dict[str, Any]:
    result = d.outcome(play_out(d, d.replay(d.start(config, seed)), bots, rng).state)
    assert result is not None
    return result


def test_the_registry_gives_the_dominoes_bots():
    assert isinstance(get("dominoes", "greedy"), GreedyBot)
    assert isinstance(get("dominoes", "strong"), StrongBot)


def test_greedy_beats_random_in_a_30_game_block_match():
    config = d.validate_config({"players": 2, "variant": "block", "target": 50})
    rng = random.Random(3)
    wins = 0
    for i in range(30):
        bots = [GreedyBot(), get("dominoes", "random")]
        if i % 2:
            bots.reverse()
        wins += (i % 2) in play_game(config, i, bots, rng)["winners"]
    assert wins >= 18


def test_greedy_takes_the_play_that_scores_most_in_all_fives():
    state = position(
        2, "all_fives", [["5-0", "4-0", "1-0", "6-6"], ["3-3"]], [("5-5", "center"), ("5-1", "left")]
    )
    view = d.view(state, 0)
    legal = d.legal_actions(state, 0)
    choice = GreedyBot().choose(view, legal, random.Random(0))
    scores = {}
    for action in legal:
        events = d.decide(state, 0, action)
        scores[(action["tile"], action["end"])] = events[0]["scored"]
    assert scores[(choice["tile"], choice["end"])] == max(scores.values())


def test_greedy_sheds_the_heaviest_playable_tile_in_block():
    state = position(2, "block", [["6-3", "3-0", "2-1"], ["5-5"]], [("3-2", "center")])
    choice = GreedyBot().choose(d.view(state, 0), d.legal_actions(state, 0), random.Random(0))
    assert choice["tile"] == "6-3"


def test_strong_takes_the_winning_play_at_once():
    # 5-5 on the left makes 10 + 0 = 10 points and 251 in all; 0-0 makes 5 points only.
    state = position(
        2, "all_fives", [["5-5", "0-0", "6-2"], ["3-3", "6-6"]], [("5-0", "center")], scores=(482, 300)
    )
    legal = d.legal_actions(state, 0)
    choice = StrongBot(budget_s=0.2).choose(d.view(state, 0), legal, random.Random(1))
    events = d.decide(state, 0, choice)
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == [0]


def test_strong_keeps_the_line_open_for_its_own_tiles():
    # 6-3 leaves a 6 for the 6-6 and blocks the opponent; 3-0 would strand 21 pips.
    state = position(2, "block", [["3-0", "6-3", "6-6"], ["5-5", "4-4", "1-1"]], [("3-2", "center")])
    legal = d.legal_actions(state, 0)
    choice = StrongBot(budget_s=0.1).choose(d.view(state, 0), legal, random.Random(2))
    assert choice == {"type": "play", "tile": "6-3", "end": "left"}


def test_bots_never_return_an_illegal_action_in_any_variant():
    rng = random.Random(9)
    for variant, players in (("block", 4), ("draw", 3), ("all_fives", 2), ("all_fives", 4)):
        config = d.validate_config({"players": players, "variant": variant, "target": 30})
        bots = [StrongBot(budget_s=0.01, max_samples=3) if s % 2 else GreedyBot() for s in range(players)]
        play_game(config, 5, bots, rng)


def test_the_playout_table_agrees_with_the_engine_layout_move_by_move():
    rng = random.Random(4)
    for seed in range(60):
        variant = ("block", "draw", "all_fives")[seed % 3]
        config = d.validate_config({"players": rng.choice([2, 3, 4]), "variant": variant})
        state = d.replay(d.start(config, seed))
        table = Table(state.layout)
        while state.phase == "play":
            layout = state.layout
            assert (table.ends, table.tips, table.lengths) == (
                list(layout.ends),
                list(layout.tips),
                list(layout.lengths),
            )
            assert table.spinner == layout.spinner and table.counts() == list(layout.counts())
            hand = list(state.hands[state.turn])
            assert table.plays(hand) == playable(state.hands[state.turn], layout)
            if variant == "all_fives":
                counts = table.counts()
                for tile, arm in table.plays(hand):
                    assert table.total_after(counts, tile, arm) == layout.place(tile, arm, 0, True).total()
            seat = state.turn
            for event in d.decide(state, seat, rng.choice(d.legal_actions(state, seat))):
                if event["type"] == "play":
                    table.place(TILE_ID[event["tile"]], END_ID[event["end"]], variant == "all_fives")
                state = d.apply(state, event)
