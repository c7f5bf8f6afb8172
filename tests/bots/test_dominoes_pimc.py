"""The Expert's two-player Block position: its deals are the view's, its values the engine's solve."""

from __future__ import annotations

import random
from typing import Any

from games.bots.dominoes import GreedyBot, StrongBot
from games.bots.dominoes_pimc import BlockPosition, applies
from games.bots.dominoes_sim import WIN
from games.bots.dominoes_solve import Solver, solvable, solve
from games.engines import dominoes as d
from games.engines.dominoes.tiles import MASK, TILE_ID


def decisions(seed: int, target: int = 1) -> list[tuple[Any, int]]:
    """Every position with a choice along a two-player Block round played by greedy bots."""
    config = d.validate_config({"players": 2, "variant": "block", "target": target})
    state = d.replay(d.start(config, seed))
    rng = random.Random(seed)
    out = []
    while d.to_act(state) and state.round_no == 1:
        seat = d.to_act(state)[0]
        legal = d.legal_actions(state, seat)
        if len(legal) > 1:
            out.append((state, seat))
        for event in d.decide(state, seat, GreedyBot().choose(d.view(state, seat), legal, rng)):
            state = d.apply(state, event)
    return out


def test_samples_are_deals_the_seat_cannot_rule_out():
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        for state, seat in decisions(seed):
            view = d.view(state, seat)
            assert applies(view)
            position = BlockPosition(view, 8, WIN, None)
            other = 1 - seat
            void = 0
            for move in view["moves"]:
                if move["seat"] == other and move["type"] == "pass":
                    void |= sum(1 << n for n in move["ends"])
            mine = {TILE_ID[t] for t in view["hands"][seat]}
            seen = mine | {TILE_ID[e["tile"]] for e in view["layout"]["tiles"]}
            for _ in range(5):
                hands, _solver = position.sample(rng)
                assert hands[seat] == sum(1 << t for t in mine)
                theirs = [t for t in range(28) if hands[other] >> t & 1]
                assert len(theirs) == view["hand_sizes"][other]
                assert not set(theirs) & seen
                assert all(not MASK[t] & void for t in theirs)  # what it passed on, it lacks
                checked += 1
    assert checked > 100


def test_an_action_is_worth_what_the_engine_solve_says_in_the_same_deal():
    for seed in range(6):
        for state, seat in decisions(seed, target=100)[:6]:
            view = d.view(state, seat)
            equity = StrongBot().equity(view)
            for values_in, eq in (("points", None), ("chances", equity)):
                position = BlockPosition(view, 1, WIN, eq)
                hands = tuple(sum(1 << t for t in hand) for hand in state.hands)  # the true deal
                sample = (hands, Solver(state, WIN, seat, 0.0, eq))
                for action in d.legal_actions(state, seat):
                    after = state
                    for event in d.decide(state, seat, action):
                        after = d.apply(after, event)
                    if not solvable(after):  # the play ended the round: nothing left to solve
                        continue
                    expected = solve(after, seat, WIN, Solver(state, WIN, seat, 0.0, eq))
                    assert position.value(sample, action, 0.0) == expected, (values_in, action)
