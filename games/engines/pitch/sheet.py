"""Pitch's real-card score sheet: each hand's pitcher and bid, and who won High, Low, Jack and Game
(the points follow from them)."""

from __future__ import annotations

from typing import Any

from games.engines.base import Config, Pick, ScoreSheet, _, pgettext


def score_sheet(config: Config) -> ScoreSheet:
    return ScoreSheet(
        numbers=(),
        picks=(
            Pick("pitcher", _("Pitcher")),
            Pick("bid", _("Bid"), "number", numbers=(1, 2, 3, 4)),
            Pick("high", _("High")),
            Pick("low", _("Low")),
            Pick("jack", _("Jack"), "seat_or_nobody"),
            Pick("game", pgettext("Pitch point", "Game"), "seat_or_nobody", context="Pitch point"),
        ),
        rows=8,
        printed_rows=16,
        row_name=("", _("Hand %(n)s")),
        about=_about,
    )


def _about(hand: dict[str, Any], names: dict[int, str]) -> list[tuple[str, dict[str, Any]]]:
    """A hand's points come from the bid and the awards, which the points alone do not show."""

    def who(value: Any) -> str:
        return names.get(value, "–") if value not in (None, "") else "–"

    awards = {name: who(hand.get(name)) for name in ("pitcher", "high", "low", "jack", "game")}
    return [
        (
            _("%(pitcher)s bid %(bid)s · High %(high)s · Low %(low)s · Jack %(jack)s · Game %(game)s"),
            {**awards, "bid": hand.get("bid")},
        )
    ]
