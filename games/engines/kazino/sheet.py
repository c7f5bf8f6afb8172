"""Kazino's real-card score sheet: a row a game, the cards each player captured (and the Kings and
Aces, with the bonus)."""

from __future__ import annotations

from typing import Any

from games.engines.base import Config, Number, ScoreSheet, _, pgettext


def score_sheet(config: Config) -> ScoreSheet:
    numbers = [Number("cards", _("cards"))]
    if config.get("kings_aces_bonus"):
        numbers += [Number("kings", _("Kings")), Number("aces", _("Aces"))]
    return ScoreSheet(
        numbers=tuple(numbers),
        picks=(),
        rows=1,
        printed_rows=10,
        row_name=("Kazino", pgettext("Kazino", "Game %(n)s")),
        one_row=config.get("match") == "single",
        about=_about,
    )


def _about(hand: dict[str, Any], names: dict[int, str]) -> list[tuple[str, dict[str, Any]]]:
    """A game's points come from its counts, which the points alone do not show."""

    def listed(counts: dict[str, Any]) -> str:
        return " · ".join(f"{names.get(int(s), s)} {n}" for s, n in counts.items())

    pieces = [(_("Cards captured: %(counts)s"), {"counts": listed(hand.get("cards", {}))})]
    if "kings" in hand:
        pieces.append(
            (
                _("Kings: %(kings)s; Aces: %(aces)s"),
                {"kings": listed(hand["kings"]), "aces": listed(hand.get("aces", {}))},
            )
        )
    return pieces
