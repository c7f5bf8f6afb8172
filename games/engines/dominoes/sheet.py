"""Dominoes' real-card score sheet: each round's points per player (All Fives: in play and the
round's bonus), and the round's winner."""

from __future__ import annotations

from games.engines.base import Config, Number, Pick, ScoreSheet, _, pgettext


def score_sheet(config: Config) -> ScoreSheet:
    fives = config.get("variant") == "all_fives"
    # Three players alone split a tied All Fives bonus: halves, and two winners to choose.
    three = config.get("players") == 3 and not config.get("partnerships")
    numbers: tuple[Number, ...]
    if fives:
        numbers = (
            Number("play", _("in play")),
            Number("bonus", _("bonus"), "decimal" if three else "numeric"),
        )
    else:
        numbers = (Number("points", _("points")),)
    return ScoreSheet(
        numbers=numbers,
        picks=(Pick("winner", _("Round winner"), "winners", ties=fives and three, key="winners"),),
        rows=6,
        printed_rows=14,
        row_name=("dominoes", pgettext("dominoes", "Round %(n)s")),
    )
