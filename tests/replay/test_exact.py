"""The exact endgame values (replay/exact.py) on positions worked out by hand, and the review using them."""

from __future__ import annotations

import pytest

from games import engines
from games.engines.dominoes.state import CENTER, LEFT, RIGHT, Layout
from games.engines.dominoes.tiles import TILE_ID
from replay import exact

dominoes = engines.get("dominoes")

# A two-player Block round, seat 0 to play, 0-0 in points (target 100: no round ends the game).
# The line, left to right: 6-5 5-5 5-4 4-4 4-3 [3-3] 3-2 2-2 2-0 0-0 0-1, so the ends show 6 and 1.
LEFT_ARM = ["4-3", "4-4", "5-4", "5-5", "6-5"]
RIGHT_ARM = ["3-2", "2-2", "2-0", "0-0", "1-0"]
MINE = ["6-6", "4-1"]
# Unseen: the other seat's one tile and the 14 sleeping ones, 15 deals of one tile, none excluded.
UNSEEN = [
    "1-1",
    "3-0",
    "4-0",
    "5-0",
    "6-0",
    "2-1",
    "3-1",
    "5-1",
    "6-1",
    "4-2",
    "5-2",
    "6-2",
    "5-3",
    "6-3",
    "6-4",
]


def block_position() -> object:
    config = engines.compose(dominoes, {"variant": "block", "first": 0}, 2)
    state = dominoes.replay(dominoes.start(config, 7))
    layout = Layout().place(TILE_ID["3-3"], CENTER, 0, False)
    for i, (left, right) in enumerate(zip(LEFT_ARM, RIGHT_ARM, strict=True)):
        layout = layout.place(TILE_ID[left], LEFT, i % 2, False).place(
            TILE_ID[right], RIGHT, 1 - i % 2, False
        )
    assert layout.ends[:2] == (6, 1)
    other = TILE_ID["5-3"]  # the true tile: the solve must not depend on it
    sleeping = tuple(TILE_ID[t] for t in UNSEEN if TILE_ID[t] != other)
    return state._replace(
        hands=(tuple(sorted(TILE_ID[t] for t in MINE)), (other,)),
        boneyard=sleeping,
        layout=layout,
        turn=0,
        passes=0,
        moves=(),
        scores=(0, 0),
    )


def test_a_block_ending_worked_out_by_hand() -> None:
    """6-6 on the 6: the other goes out with any of the 9 unseen tiles showing 6 or 1 (winning my 4-1:
    5 points), else it passes and my 4-1 goes out, winning its tile (3-0 4-0 5-0 4-2 5-2 5-3: 33 pips):
    (−45 + 33) / 15 = −0.8. 4-1 on the 1: 7 tiles show 6 or 4 and win my 6-6 (12), the 8 others lose
    their pips (1-1 3-0 5-0 2-1 3-1 5-1 5-2 5-3: 38): (−84 + 38) / 15 = −46/15."""
    state = block_position()
    view = dominoes.view(state, 0)
    legal = dominoes.legal_actions(state, 0)
    deals = exact.consistent_deals("dominoes", view)
    assert deals is not None and len(deals) == 15
    assert sorted(TILE_ID[t] for t in UNSEEN) == sorted(s.hands[1][0] for s in deals)
    found = exact.values("dominoes", view, legal, win=50)
    assert found is not None
    assert [(round(v, 6), a["tile"], a["end"]) for v, a in found] == [
        (-0.8, "6-6", "left"),
        (round(-46 / 15, 6), "4-1", "right"),
    ]


def test_a_pass_rules_out_the_deals_that_would_have_played() -> None:
    """The other seat passed on 6 and 1 earlier: its tile shows neither, so 6-6 wins every deal left."""
    state = block_position()
    passed = (1, 2, -1, -1, 0, (1 << 6) | (1 << 1))  # (seat, PASS, …, the numbers it could not match)
    state = state._replace(moves=(passed,))
    view = dominoes.view(state, 0)
    found = exact.values("dominoes", view, dominoes.legal_actions(state, 0), win=50)
    assert found is not None
    # 3-0 4-0 5-0 4-2 5-2 5-3 are left; after 4-1, 4-0 and 4-2 go out on the 4 (−12 each), the rest lose
    # 3 + 5 + 7 + 8 = 23: (−24 + 23) / 6.
    assert [(round(v, 6), a["tile"]) for v, a in found] == [(5.5, "6-6"), (round(-1 / 6, 6), "4-1")]


@pytest.mark.parametrize(
    "name, chosen",
    [("dominoes", {"variant": "all_fives"}), ("skyjo", {}), ("pitch", {"players": 4})],
)
def test_positions_it_cannot_know_have_no_exact_value(name: str, chosen: dict[str, object]) -> None:
    engine = engines.get(name)
    players = chosen.pop("players", 2)
    assert isinstance(players, int)
    state = engine.replay(engine.start(engines.compose(engine, chosen, players), 3))
    seat = engine.to_act(state)[0]
    assert exact.values(name, engine.view(state, seat), engine.legal_actions(state, seat), win=0) is None


class _NoSearch:
    def scores(self, *args: object) -> list[object]:
        raise AssertionError("an endgame that can be solved is not sampled")


@pytest.mark.parametrize(
    ("tile", "end", "loss", "label"), [("6-6", "left", 0.0, None), ("4-1", "right", 5.67, "inaccuracy")]
)
def test_the_review_scores_a_knowable_decision_by_its_exact_values(
    tile: str, end: str, loss: float, label: str | None
) -> None:
    from replay import review

    passed = (1, 2, -1, -1, 0, (1 << 6) | (1 << 1))
    state = block_position()._replace(moves=(passed,))  # type: ignore[attr-defined]
    settings = review.settings_for("dominoes")
    ref = review.Referee(dominoes, _NoSearch(), _NoSearch(), 0.5, settings)  # type: ignore[arg-type]
    logged = dominoes.decide(state, 0, {"type": "play", "tile": tile, "end": end})
    decision = review.evaluate(ref, state, 0, logged, "seed")
    assert decision is not None
    assert (decision.loss, decision.label, decision.best["tile"]) == (loss, label, "6-6")
    assert (decision.best_value, decision.played_value) == (5.5, 5.5 if tile == "6-6" else -0.17)


def test_with_exact_set_to_zero_the_review_samples_as_before() -> None:
    from replay import review

    state = block_position()
    settings = review.settings_for("dominoes", {"exact": 0})
    ref = review.Referee(dominoes, _NoSearch(), _NoSearch(), 0.5, settings)  # type: ignore[arg-type]
    logged = dominoes.decide(state, 0, {"type": "play", "tile": "6-6", "end": "left"})
    with pytest.raises(AssertionError, match="not sampled"):
        review.evaluate(ref, state, 0, logged, "seed")


def kazino_last_deal(seat: int) -> object:
    """Kazino's last deal, one card each: ``seat`` holds 5S, the other KC; 5H and 2C lie loose; ``seat``
    has 28 cards captured, the other 20 and the last capture. Whatever happens, ``seat`` ends with 28 to
    32 cards (10 points) and the other with 20 to 24 (none): every move is worth exactly 10 points."""
    from games.engines.kazino.state import loose, replace

    kazino = engines.get("kazino")
    state = kazino.replay(kazino.start(kazino.validate_config({"players": 2, "match": "single"}), 3))
    known = {"5S", "KC", "5H", "2C"}
    rest = [r + s for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] for s in "SHDC"]
    rest = [c for c in rest if c not in known]
    captured = [(), ()]
    captured[seat], captured[1 - seat] = tuple(rest[:28]), tuple(rest[28:])
    hands = [(), ()]
    hands[seat], hands[1 - seat] = ("5S",), ("KC",)
    return replace(
        state,
        deal=6,
        turn=seat,
        deck=(),
        hands=tuple(hands),
        table=(loose("5H"), loose("2C")),
        captured=tuple(captured),
        last_capturer=1 - seat,
    )


def test_in_kazinos_last_deal_a_move_that_loses_cards_but_no_points_is_no_mistake() -> None:
    from replay import review

    kazino = engines.get("kazino")
    state = kazino_last_deal(0)
    legal = kazino.legal_actions(state, 0)
    found = exact.values("kazino", kazino.view(state, 0), legal, win=0)
    assert found is not None and {v for v, _a in found} == {10.0} and len(found) == len(legal) >= 2
    trail = next(a for a in legal if a["type"] == "trail")
    logged = kazino.decide(state, 0, trail)
    exact_review = review.referee(kazino, review.settings_for("kazino"))
    decision = review.evaluate(exact_review, state, 0, logged, "seed")
    assert decision is not None and (decision.loss, decision.label) == (0.0, None)
    # By cards, as the sampled search counts them, trailing gives the sweep away: a mistake.
    sampled = review.referee(kazino, review.settings_for("kazino", {"exact": 0}))
    decision = review.evaluate(sampled, state, 0, logged, "seed")
    assert decision is not None and decision.label == review.MISTAKE


# A two-player Skyjo round that seat 1 closed with 25 (all face up); seat 0's last turn, one card hidden
# (cell 0, atop a column of two 5s), 32 showing, a 7 on the discard pile.
SKYJO_MINE = (0, 3, 2, 0, 5, 3, 2, 1, 5, 4, 6, 1)
SKYJO_CLOSER = (1, 0, 0, 1, 2, 0, 1, 0, 0, 2, 3, 15)


def skyjo_last_turn() -> object:
    from collections import Counter

    from games.engines.skyjo.state import FULL_DECK, PLAY, State

    pile = tuple((Counter(FULL_DECK) - Counter([*SKYJO_MINE, *SKYJO_CLOSER, 7])).elements())

    return State(
        players=2,
        seed=5,
        hand=1,
        phase=PLAY,
        cards=(SKYJO_MINE, SKYJO_CLOSER),
        up=((False,) + (True,) * 11, (True,) * 12),
        discard=(7,),
        draw_pile=pile,
        turn=0,
        starter=0,
        closer=1,
        scores=(0, 0),
    )


def test_a_skyjo_last_turn_worked_out_by_hand() -> None:
    from collections import Counter

    from games.engines.skyjo.state import FULL_DECK

    skyjo = engines.get("skyjo")
    state = skyjo_last_turn()
    view = skyjo.view(state, 0)
    legal = skyjo.legal_actions(state, 0)
    found = {repr(a): v for v, a in exact.values("skyjo", view, legal, win=0) or []}
    # The hidden card is any card not shown: the 150 less both grids' face-up cards and the 7.
    unseen = Counter(FULL_DECK) - Counter([7, *SKYJO_MINE[1:], *SKYJO_CLOSER])
    n = sum(unseen.values())

    def turned(v: int) -> float:
        mine = 22 if v == 5 else 32 + v  # a third 5 wipes the column out
        closer = 50 if mine <= 25 else 25  # the closer not strictly lowest: doubled
        return closer - mine

    expected = sum(count * turned(v) for v, count in unseen.items()) / n
    assert found[repr({"type": "turn", "cell": 0})] == pytest.approx(expected)
    # The 7 on the hidden cell: 39 against 25, whatever the hidden card was.
    assert found[repr({"type": "take_discard", "cell": 0})] == pytest.approx(25 - 39)
    # Drawing is worth at least its best follow-up for every card, on average: here, at least turning
    # the hidden card after discarding the draw.
    assert found[repr({"type": "draw"})] >= expected - 1e-9


def test_a_skyjo_turn_that_is_not_the_last_has_no_exact_value() -> None:
    from games.engines.skyjo.state import replace

    skyjo = engines.get("skyjo")
    state = replace(skyjo_last_turn(), closer=None)  # type: ignore[arg-type]
    legal = skyjo.legal_actions(state, 0)
    assert exact.values("skyjo", skyjo.view(state, 0), legal, win=0) is None


def test_the_review_scores_a_skyjo_last_turn_by_its_exact_values() -> None:
    from replay import review

    skyjo = engines.get("skyjo")
    state = skyjo_last_turn()
    settings = review.settings_for("skyjo")
    ref = review.Referee(skyjo, _NoSearch(), _NoSearch(), 1.0, settings)  # type: ignore[arg-type]
    logged = skyjo.decide(state, 0, {"type": "take_discard", "cell": 10})  # the 7 for the 6: one worse
    decision = review.evaluate(ref, state, 0, logged, "seed")
    view = skyjo.view(state, 0)
    best_value, best = (exact.values("skyjo", view, skyjo.legal_actions(state, 0), win=0) or [])[0]
    assert decision is not None and decision.best == best
    assert decision.best_value == round(best_value, 2) and decision.loss > 0


def test_an_exact_best_is_named_even_when_the_played_move_loses_less_than_shown(monkeypatch) -> None:
    from replay import review

    state = block_position()
    legal = dominoes.legal_actions(state, 0)
    played, better = legal[0], legal[-1]
    close = [(5.503, better), (5.5, played)] + [(0.0, a) for a in legal[1:-1]]
    monkeypatch.setattr(exact, "values", lambda *args: close)
    ref = review.Referee(dominoes, _NoSearch(), _NoSearch(), 0.5, review.settings_for("dominoes"))  # type: ignore[arg-type]
    decision = review.evaluate(ref, state, 0, dominoes.decide(state, 0, played), "seed")
    assert decision is not None
    assert (decision.loss, decision.label, decision.best) == (0.0, None, better)
