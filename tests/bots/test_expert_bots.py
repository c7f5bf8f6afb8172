"""The Expert level: its search core, the contract (its seat's view alone), and legal play in every game."""

from __future__ import annotations

import copy
import json
import math
import random
import sys
from typing import Any

import pytest

from games import bots
from games.bots.search import ExpertBase, halving
from games.engines import get as get_engine
from tests import tier
from tests.bots.games import after, play_out
from tests.engines.contract import SECRET_SEED, configs

GAMES = ("dominoes", "kazino", "pitch", "skyjo")


def expert(game: str, sims: int = 24) -> ExpertBase:
    bot = bots.get(game, "expert")
    assert isinstance(bot, ExpertBase)
    bot.sims, bot.cap_s = sims, math.inf  # reproducible: the count alone bounds the search
    return bot


# --- the search core ---------------------------------------------------------------------------------


class Noisy:
    """Action i is worth i, plus noise of the sample: the best is the last."""

    def __init__(self) -> None:
        self.valued = 0

    def sample(self, rng: random.Random) -> float:
        return rng.gauss(0, 3)

    def value(self, sample: float, action: dict[str, Any], stream: float) -> float:
        self.valued += 1
        return action["i"] + sample + random.Random(stream).gauss(0, 1)


def test_halving_finds_the_best_action_within_its_count():
    actions = [{"type": "x", "i": i} for i in range(8)]
    position = Noisy()
    ranked = halving(position, actions, random.Random(1), sims=600)
    assert ranked[0][1] == actions[7]
    assert sorted(a["i"] for _v, a in ranked) == list(range(8))  # every action, once
    assert position.valued <= 600 + 8


def test_halving_keeps_every_action_on_the_same_samples_when_asked():
    actions = [{"type": "x", "i": i} for i in range(5)]
    position = Noisy()
    ranked = halving(position, actions, random.Random(2), sims=100, keep=5)
    assert [a["i"] for _v, a in ranked] == [4, 3, 2, 1, 0]
    assert position.valued == 100


def test_halving_stops_at_the_wall_clock_cap_with_whole_samples():
    ticks = iter(range(1000))
    position = Noisy()
    ranked = halving(
        position, [{"i": 0}, {"i": 1}, {"i": 2}], random.Random(3), 10_000, 1.5, lambda: next(ticks)
    )
    # One whole sample, then the clock passed the cap after the first valuation of the second: dropped.
    assert position.valued == 3 + 1
    again = Noisy()
    whole = halving(again, [{"i": 0}, {"i": 1}, {"i": 2}], random.Random(3), 3, keep=3)
    assert sorted(ranked, key=lambda p: p[1]["i"]) == sorted(whole, key=lambda p: p[1]["i"])


# --- the contract: the Expert sees its seat's view and nothing else -------------------------------


def positions(game: str, count: int) -> list[tuple[Any, int]]:
    """States along a game played by greedy bots (seed SECRET_SEED), each with a seat to act that has a choice."""
    engine = get_engine(game)
    config = configs(game)[0]
    state = engine.replay(engine.start(config, SECRET_SEED))
    rng = random.Random(0)
    greedy = bots.get(game, "greedy")
    out: list[tuple[Any, int]] = []
    steps = 0
    while engine.to_act(state) and len(out) < count and steps < 400:
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        if len(legal) > 1 and steps % 3 == 0:
            out.append((state, seat))
        for event in engine.decide(state, seat, greedy.choose(engine.view(state, seat), legal, rng)):
            state = engine.apply(state, event)
        steps += 1
    return out


FORBIDDEN = ("view", "reveal", "start", "replay", "hidden_from", "components", "deal_of", "deals_in")


@pytest.mark.parametrize("game", GAMES)
def test_the_expert_cannot_reach_the_state_the_seed_or_other_views(game, monkeypatch):
    engine = get_engine(game)
    module = sys.modules[engine.__name__]
    for state, seat in positions(game, tier.count(4, 2)):
        view = json.loads(json.dumps(engine.view(state, seat)))  # as a client would hold it
        legal = engine.legal_actions(state, seat)
        untouched = copy.deepcopy(view)
        reached: list[str] = []

        def spy(frame: Any, event: str, arg: Any, state: Any = state, reached: list[str] = reached) -> None:
            if event != "call":
                return
            for name, value in frame.f_locals.items():
                if value is state:
                    reached.append(f"the true state in {frame.f_code.co_name}({name})")
                elif isinstance(value, int) and not isinstance(value, bool) and value == SECRET_SEED:
                    reached.append(f"the seed in {frame.f_code.co_name}({name})")

        with monkeypatch.context() as patched:
            for name in FORBIDDEN:
                if hasattr(module, name):
                    patched.setattr(module, name, _refuse(name))
            sys.setprofile(spy)
            try:
                action = expert(game, sims=16).choose(view, legal, random.Random(5))
            finally:
                sys.setprofile(None)
        assert reached == []
        assert action in legal
        assert view == untouched, "the Expert changed the view it was given"


def _refuse(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"the Expert called the engine's {name}: it may use its seat's view alone")

    return refuse


@pytest.mark.parametrize("game", GAMES)
def test_the_expert_is_reproducible_from_its_rng(game):
    engine = get_engine(game)
    for state, seat in positions(game, 3):
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        first = expert(game).choose(view, legal, random.Random(11))
        assert expert(game).choose(view, legal, random.Random(11)) == first


# --- whole games ---------------------------------------------------------------------------------------


def play(game: str, config: dict[str, Any], seed: int, max_moves: int) -> int:
    """A game with the Expert at seat 0 (and at every other seat beside strong ones): every move legal."""
    engine = get_engine(game)
    state = engine.replay(engine.start(config, seed))
    rng = random.Random(seed)
    players = [
        expert(game, sims=12) if s % 2 == 0 else bots.get(game, "greedy") for s in range(config["players"])
    ]
    return play_out(engine, state, players, rng, max_moves=max_moves).moves


def variants(game: str) -> list[dict[str, Any]]:
    """One config per variant of the rules' samples, with and without partnerships, and the largest
    table of each game (a whole game each)."""
    seen: set[str] = set()
    out = []
    samples = configs(game)
    for config in samples:
        key = json.dumps({k: v for k, v in config.items() if k in ("variant", "partnerships", "match")})
        if key not in seen:
            seen.add(key)
            out.append(config)
    largest = max(samples, key=lambda c: c["players"])
    return out if largest in out else [*out, largest]


@pytest.mark.parametrize("game", GAMES)
def test_the_expert_plays_legal_moves_through_whole_games(game):
    every = [
        (i, config)
        for i, config in enumerate(variants(game))
        # A Kazino match to 160 is many games of the same deal rules as a single one.
        if not (game == "kazino" and config["match"] == "target")
    ]
    # The inner loop: the first variant, to a target of at most 30 (a game to 100 is rounds of the same).
    first = [
        (i, {**config, "target": min(config["target"], 30)} if "target" in config else config)
        for i, config in every[:1]
    ]
    for i, config in first if tier.FAST else every:
        moves = play(game, config, 100 + i, max_moves=5000)
        assert moves < 5000, f"{game} {config} did not finish"


# --- Pitch: the last tricks solved exactly --------------------------------------------------------


def _hand_minimax(state: Any, me: int, hand_no: int, start: list[int]) -> float:
    """Brute force over the engine's own moves: my points this hand minus the other seat's (2 players)."""
    from games.engines import pitch

    if state.hand_no != hand_no or not pitch.to_act(state):
        return (state.scores[me] - start[me]) - (state.scores[1 - me] - start[1 - me])
    seat = pitch.to_act(state)[0]
    values = []
    for action in pitch.legal_actions(state, seat):
        values.append(_hand_minimax(after(pitch, state, seat, action), me, hand_no, start))
    return max(values) if seat == me else min(values)


def _check_late_plays(config: dict[str, Any], win: float, exact_value: Any) -> int:
    """In each of 12 deals played by the greedy bot, the first play with 8 cards or fewer left: the
    Expert's value of every legal card in one sample against ``exact_value(sample, after, seat)``."""
    from games.bots.pitch_expert import PitchPosition
    from games.engines import pitch

    checked = 0
    for seed in range(12):
        state = pitch.replay(pitch.start(pitch.validate_config(config), seed))
        rng = random.Random(seed)
        greedy = bots.get("pitch", "greedy")
        while pitch.to_act(state):
            seat = pitch.to_act(state)[0]
            legal = pitch.legal_actions(state, seat)
            view = pitch.view(state, seat)
            if legal[0]["type"] == "play" and len(legal) > 1 and sum(map(len, state.hands)) <= 8:
                position = PitchPosition(view, win, solve_cards=10)
                sample = pitch.determinize(view, rng)
                for action in legal:
                    exact = exact_value(sample, after(pitch, sample, seat, action), seat)
                    assert position.value(sample, action, 0.0) == exact, (seed, action)
                checked += 1
                break
            state = after(pitch, state, seat, greedy.choose(view, legal, rng))
    return checked


def test_the_pitch_expert_values_the_last_tricks_exactly():
    def exact(sample: Any, played: Any, seat: int) -> float:
        return _hand_minimax(played, seat, sample.hand_no, list(sample.scores))

    # a target far away: no hand here ends the game
    assert _check_late_plays({"players": 2, "target": 21}, 0.0, exact) >= 6


def test_the_pitch_expert_reads_the_opponents_bid():
    """An opponent who bid 2 is likelier to hold a suit worth it: sampled deals that explain it weigh more."""
    from games.bots.pitch_expert import AGREE, bid_weight
    from games.bots.pitch_policy import bid_choice
    from games.engines import pitch

    view = {
        "players": 2,
        "seat": 0,
        "config": pitch.validate_config({"players": 2}),
        "dealer": 0,
        "bids": [{"seat": 1, "bid": 2}],
        "tricks": [],
        "trick": [],
        "pitcher": None,
        "trump": None,
    }
    weigh = bid_weight(view)
    assert weigh is not None
    strong = ("AS", "KS", "4S", "3H", "5D", "3C")
    weak = ("4H", "6D", "7C", "8H", "9D", "5C")
    assert bid_choice(strong, 2, 0, False) == ("bid", 2) and bid_choice(weak, 2, 0, False) == ("bid", 1)
    hands = lambda mine: pitch.State(hands=(("10D", "10C", "10H", "9S", "8S", "7S"), mine))  # noqa: E731
    assert weigh(hands(strong)) == AGREE * weigh(hands(weak))


def test_a_review_level_a_game_has_no_reviewer_for_is_refused_by_name():
    """An engine with a strong bot but no Expert module: asking its Expert reviewer says so, instead of
    failing on a missing attribute deep in the review."""
    import pytest

    from games import bots

    with pytest.raises(ValueError, match="no expert reviewer for 'tiny'"):
        bots.review_bot("tiny", 4, 0.0, settle=True, level="expert")


def _last_hand_minimax(state: Any, me: int, win: float) -> float:
    """Brute force over the engine's own moves when the hand ends the game: ``win`` × my share of the
    first place, plus my final score minus the other seat's (2 players)."""
    from games.engines import pitch

    if not pitch.to_act(state):
        mine, theirs = state.scores[me], state.scores[1 - me]
        share = (
            1.0 if me in state.winners and len(state.winners) == 1 else 0.5 if me in state.winners else 0.0
        )
        return win * share + mine - theirs
    seat = pitch.to_act(state)[0]
    values = []
    for action in pitch.legal_actions(state, seat):
        after = state
        for event in pitch.decide(state, seat, action):
            after = pitch.apply(after, event)
        values.append(_last_hand_minimax(after, me, win))
    return max(values) if seat == me else min(values)


def test_in_the_last_hand_the_pitch_expert_plays_to_win_the_game_not_for_points():
    """At the table's hand limit the hand's value is the game's result (the margin only breaks ties),
    and the Expert's exact solve agrees with a brute force over the engine's moves."""

    def exact(sample: Any, after: Any, seat: int) -> float:
        return _last_hand_minimax(after, seat, 10.0)

    assert _check_late_plays({"players": 2, "max_hands": 1}, 10.0, exact) >= 6


def test_the_pitch_expert_searches_one_of_plain_cards_that_cannot_differ():
    from games.bots.pitch_expert import plain_twins

    view = {
        "trump": "S",
        "tricks": [{"cards": [{"seat": 0, "card": "5H"}, {"seat": 1, "card": "AH"}], "winner": 1}],
    }
    # 4H and 6H: only the played 5H lay between them; 8H has the unseen 7H between; 9S is trump, 10H counts
    assert plain_twins(view, ["4H", "6H", "8H", "9S", "10H", "3D"]) == {"6H"}
    assert plain_twins({**view, "trump": None}, ["4H", "6H"]) == set()
