"""Skyjo redaction: what each audience may see (rules/skyjo.md, "Hidden information").

Skyjo's cards are repeating integers, so the contract suite's string search
(``hidden_from``) cannot find leaks; these property tests check the views directly.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import get
from games.engines.skyjo.state import State, hidden_cells

from .contract import SECRET_SEED

skyjo = get("skyjo")
CONFIGS = [skyjo.validate_config(config) for config in skyjo.sample_configs()]
EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_to(config: dict[str, Any], rng: random.Random, stop: int, keep_drawn: bool = False) -> State:
    """A random game after ``stop`` moves (or at its end); draws are favoured so drawn cards are common.

    With ``keep_drawn``, stop early at the first moment a drawn card is in hand after ``stop``.
    """
    state: State = skyjo.replay(skyjo.start(config, SECRET_SEED))
    for step in range(100_000):
        if (step >= stop and (not keep_drawn or state.drawn is not None)) or not skyjo.to_act(state):
            return state
        seat = rng.choice(skyjo.to_act(state))
        legal = skyjo.legal_actions(state, seat)
        draws = [action for action in legal if action["type"] == "draw"]
        action = draws[0] if draws and rng.random() < 0.5 else rng.choice(legal)
        for event in skyjo.decide(state, seat, action):
            state = skyjo.apply(state, event)
    raise AssertionError("the game did not end")


def audiences(state: State) -> list[int | None]:
    return [None, *range(state.players)]


def shuffle_unseen(state: State, rng: random.Random, keep_drawn: bool) -> State:
    """The same table with the cards nobody may see (hidden cells, draw pile, perhaps the drawn card) permuted."""
    places: list[tuple[str, int, int]] = [
        ("cell", seat, cell) for seat in range(state.players) for cell in hidden_cells(state, seat)
    ]
    places += [("pile", 0, i) for i in range(len(state.draw_pile))]
    if state.drawn is not None and not keep_drawn:
        places.append(("drawn", 0, 0))
    cards = [
        state.cards[s][i] if kind == "cell" else state.draw_pile[i] if kind == "pile" else state.drawn
        for kind, s, i in places
    ]
    rng.shuffle(cards)
    grids = [list(grid) for grid in state.cards]
    pile = list(state.draw_pile)
    drawn = state.drawn
    for (kind, seat, i), card in zip(places, cards, strict=True):
        if kind == "cell":
            grids[seat][i] = card
        elif kind == "pile":
            pile[i] = card
        else:
            drawn = card
    return replace(
        state, cards=tuple(tuple(g) for g in grids), draw_pile=tuple(pile), drawn=drawn, seed=12345
    )


games = st.tuples(st.integers(0, len(CONFIGS) - 1), st.randoms(use_true_random=False), st.integers(0, 300))


@EXAMPLES
@given(game=games)
def test_no_view_shows_the_card_of_a_hidden_cell_not_even_to_its_owner(game):
    index, rng, stop = game
    state = play_to(CONFIGS[index], rng, stop)
    for who in audiences(state):
        view = skyjo.view(state, who)
        for seat, grid in enumerate(view["grids"]):
            for cell, shown in enumerate(grid):
                card, up = state.cards[seat][cell], state.up[seat][cell]
                if card is None:
                    assert shown == {"status": "wiped"}
                elif up:
                    assert shown == {"status": "up", "card": card}
                else:
                    assert shown == {"status": "hidden"}, f"seat {seat} cell {cell} leaks to {who}"
        assert view["hidden"] == [len(hidden_cells(state, seat)) for seat in range(state.players)]


@EXAMPLES
@given(game=games)
def test_the_drawn_card_is_shown_to_the_drawer_only(game):
    index, rng, stop = game
    state = play_to(CONFIGS[index], rng, stop, keep_drawn=True)
    if state.drawn is None:
        return  # the game ended first
    drawer = state.turn
    for who in audiences(state):
        shown = skyjo.view(state, who)["drawn"]
        if who == drawer:
            assert shown == {"seat": drawer, "card": state.drawn}
        else:
            assert shown == {"seat": drawer}, f"the drawn card leaks to {who}"


@EXAMPLES
@given(game=games, keep_drawn=st.booleans())
def test_states_differing_only_in_unseen_cards_give_identical_views(game, keep_drawn):
    index, rng, stop = game
    state = play_to(CONFIGS[index], rng, stop, keep_drawn=keep_drawn)
    other = shuffle_unseen(state, rng, keep_drawn=True)
    for who in audiences(state):
        assert skyjo.view(other, who) == skyjo.view(state, who)
    if state.drawn is not None:  # the drawn card is unseen by everyone but the drawer
        other = shuffle_unseen(state, rng, keep_drawn=False)
        for who in audiences(state):
            if who != state.turn:
                assert skyjo.view(other, who) == skyjo.view(state, who)


@EXAMPLES
@given(game=games)
def test_every_audience_may_browse_the_whole_discard_pile_newest_first(game):
    index, rng, stop = game
    state = play_to(CONFIGS[index], rng, stop)
    for who in audiences(state):
        view = skyjo.view(state, who)
        assert view["discard"] == list(reversed(state.discard))
        assert view["draw_pile"] == len(state.draw_pile)


@EXAMPLES
@given(game=games)
def test_views_and_reveal_never_hold_the_seed_and_reveal_shows_every_card(game):
    index, rng, stop = game
    state = play_to(CONFIGS[index], rng, stop)
    for who in audiences(state):
        assert str(SECRET_SEED) not in json.dumps(skyjo.view(state, who))
    shown = skyjo.reveal(state)
    assert str(SECRET_SEED) not in json.dumps(shown)
    assert shown["draw_order"] == list(state.draw_pile)
    for seat, grid in enumerate(shown["grids"]):
        assert [cell.get("card") for cell in grid] == list(state.cards[seat])


@EXAMPLES
@given(game=games)
def test_determinize_depends_on_the_view_alone(game):
    index, rng, stop = game
    state = play_to(CONFIGS[index], rng, stop)
    twin = shuffle_unseen(state, rng, keep_drawn=True)
    for who in range(state.players):
        view = json.loads(json.dumps(skyjo.view(state, who)))
        twin_view = json.loads(json.dumps(skyjo.view(twin, who)))
        assert skyjo.determinize(view, random.Random(1)) == skyjo.determinize(twin_view, random.Random(1))


def test_determinize_deals_the_unseen_cards_afresh():
    state = skyjo.replay(
        skyjo.start({"players": 4}, SECRET_SEED)
    )  # 48 hidden cells, nothing seen but 1 discard
    view = skyjo.view(state, 0)
    samples = [skyjo.determinize(view, random.Random(i)) for i in range(5)]
    assert all(sample.cards != state.cards for sample in samples)
    assert len({sample.cards for sample in samples}) == 5
    assert all(sample.seed != SECRET_SEED for sample in samples)


def test_a_spectator_sees_the_public_facts_of_the_table():
    state = play_to(CONFIGS[0], random.Random(3), 40)
    view = skyjo.view(state, None)
    assert view["seat"] is None
    assert view["game"] == "skyjo" and view["players"] == 2
    for key in ("hand", "to_act", "scores", "finished", "turn", "starter", "closer", "rounds", "target"):
        assert key in view
    assert json.loads(json.dumps(view)) == view
