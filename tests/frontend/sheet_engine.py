"""The tiny engine with a real-card score sheet: a game the front end has never heard of, to show that
the score entry knows a game only through its engine's ``score_sheet`` (games/engines/base.py).

Each row: every player's tricks, and who dealt; the first to ``goal`` tricks (alone) wins."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engines.base import IllegalAction, Number, Pick, ScoreSheet, Sheet
from games.engines.tally import add_row, per_side, ranked, side_in
from tests.games.tiny_engine import *  # noqa: F403

NAME = "tinysheet"


def score_sheet(config: dict[str, Any]) -> ScoreSheet:
    return ScoreSheet(
        numbers=(Number("tricks", "tricks"),),
        picks=(Pick("dealer", "Dealer"),),
        score=_score,
        rows=2,
        printed_rows=4,
        row_name=("", "Deal %(n)s"),
        about=lambda hand, names: [("Dealt by %(who)s", {"who": names.get(hand.get("dealer"), "?")})],
    )


def _score(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    goal = int(config.get("goal", 10))
    sheet.totals = {s: Fraction(0) for s in sheet.sides}
    for line, hand in enumerate(hands, 1):
        if side_in(hand.get("dealer"), sheet.sides) is None:
            raise IllegalAction("no_dealer", "Deal {deal}: say who dealt.", deal=line)
        add_row(sheet, per_side(hand, "tricks", sheet.sides, line))
    if max(sheet.totals.values()) < goal:
        raise IllegalAction("not_over", "Nobody has {goal} tricks yet.", goal=goal)
    sheet.places = ranked(sheet.totals, lower_wins=False)
