"""Skyjo's real-card score sheet: each round's card total per player, and who closed the round."""

from __future__ import annotations

from games.engines.base import Config, Number, Pick, ScoreSheet, _, pgettext


def score_sheet(config: Config) -> ScoreSheet:
    return ScoreSheet(
        numbers=(Number("total", _("card total"), sign=True, key="totals"),),
        picks=(Pick("closer", _("Who closed the round?")),),
        rows=5,
        printed_rows=14,
        row_name=("Skyjo", pgettext("Skyjo", "Round %(n)s")),
    )
