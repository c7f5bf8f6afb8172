"""Skyjo's real-card score sheet: each round's card total per player, and who closed the round."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engines.base import Config, IllegalAction, Number, Pick, ScoreSheet, Sheet, _, pgettext
from games.engines.skyjo.rules import round_points
from games.engines.tally import add_row, per_side, ranked, side_in

#: A Skyjo grid's lowest and highest count: five −2 and seven −1; four columns of 12, 12, 11.
SKYJO_LOWEST, SKYJO_HIGHEST = -17, 140


def score_sheet(config: Config) -> ScoreSheet:
    return ScoreSheet(
        numbers=(Number("total", _("card total"), sign=True, key="totals"),),
        picks=(Pick("closer", _("Who closed the round?")),),
        rows=5,
        printed_rows=14,
        score=score,
        row_name=("Skyjo", pgettext("Skyjo", "Round %(n)s")),
    )


def score(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    """Round totals as counted; the closer must be strictly lowest, else a positive total doubles; the
    game ends after the round in which someone reaches the target (lowest total wins)."""
    target = int(config.get("target", 100))
    sides = sheet.sides
    sheet.totals = {s: Fraction(0) for s in sides}
    for line, hand in enumerate(hands, 1):
        if line > 1 and max(sheet.totals.values()) >= target:
            raise IllegalAction(
                "after_the_end",
                _(
                    "The game was over after round {round} (someone had {target} points): remove the rounds after it."
                ),
                round=line - 1,
                target=target,
            )
        raw = per_side(hand, "totals", sides, line)
        if any(not SKYJO_LOWEST <= v <= SKYJO_HIGHEST for v in raw.values()):
            raise IllegalAction(
                "bad_total",
                _("Round {round}: a grid counts from {low} to {high}."),
                round=line,
                low=SKYJO_LOWEST,
                high=SKYJO_HIGHEST,
            )
        closer = side_in(hand.get("closer"), sides)
        if closer is None:
            raise IllegalAction("no_closer", _("Round {round}: say who closed the round."), round=line)
        totals = [int(raw[s]) for s in sides]
        points, doubled = round_points(totals, sides.index(closer))
        add_row(
            sheet,
            {s: Fraction(p) for s, p in zip(sides, points, strict=True)},
            {"closer": closer, "doubled": closer if doubled else None},
        )
    if max(sheet.totals.values()) < target:
        raise IllegalAction(
            "not_over", _("Nobody has reached {target} points: the game is not over yet."), target=target
        )
    sheet.places = ranked(sheet.totals, lower_wins=True)
