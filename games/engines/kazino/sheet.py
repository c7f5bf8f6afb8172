"""Kazino's real-card score sheet: a row a game, the cards each player captured (and the Kings and
Aces, with the bonus)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engines.base import Config, IllegalAction, Number, ScoreSheet, Sheet, _, pgettext
from games.engines.kazino.cards import DECK, card_points
from games.engines.tally import add_row, per_side, ranked, winner_places

KAZINO_CARDS = len(DECK)  # every card of the pack is captured by the game's end


def score_sheet(config: Config) -> ScoreSheet:
    numbers = [Number("cards", _("cards"))]
    if config.get("kings_aces_bonus"):
        numbers += [Number("kings", _("Kings")), Number("aces", _("Aces"))]
    return ScoreSheet(
        numbers=tuple(numbers),
        picks=(),
        rows=1,
        printed_rows=10,
        score=score,
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


def score(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    """Each game: the cards each player captured (the last capture takes what is left on the table),
    52 in all; with the bonus option, who took the four Kings and the four Aces."""
    sides = sheet.sides
    bonus = bool(config.get("kings_aces_bonus"))
    single = config.get("match") == "single"
    target = int(config.get("target", 160))
    if single and len(hands) != 1:
        raise IllegalAction("one_game", _("This match is a single game: enter that game only."))
    sheet.totals = {s: Fraction(0) for s in sides}
    for line, hand in enumerate(hands, 1):
        if line > 1 and _winner(sheet.totals, target) is not None:
            raise IllegalAction(
                "after_the_match",
                _("The match was over after game {game}: remove the games after it."),
                game=line - 1,
            )
        cards = per_side(hand, "cards", sides, line)
        if any(v < 0 for v in cards.values()) or sum(cards.values()) != KAZINO_CARDS:
            raise IllegalAction(
                "cards_not_52",
                _(
                    "Game {game}: the cards captured add up to {total}, not 52 (the last capture takes the cards left on the table)."
                ),
                game=line,
                total=int(sum(cards.values())),
            )
        points = {s: Fraction(card_points(int(cards[s]))) for s in sides}
        if bonus:
            for name, sentence in (
                ("kings", _("Game {game}: the Kings captured add up to {total}, not 4.")),
                ("aces", _("Game {game}: the Aces captured add up to {total}, not 4.")),
            ):
                counts = per_side(hand, name, sides, line)
                if any(v < 0 for v in counts.values()) or sum(counts.values()) != 4:
                    raise IllegalAction(f"{name}_not_4", sentence, game=line, total=int(sum(counts.values())))
                for s in sides:
                    if counts[s] == 4:
                        points[s] += 10
            kings, aces = per_side(hand, "kings", sides, line), per_side(hand, "aces", sides, line)
            if any(kings[s] + aces[s] > cards[s] for s in sides):
                raise IllegalAction(
                    "more_than_cards",
                    _("Game {game}: nobody captures more Kings and Aces than cards."),
                    game=line,
                )
        add_row(sheet, points)
    if single:
        sheet.places = ranked(sheet.totals, lower_wins=False)
        return
    winner_places(
        sheet,
        _winner(sheet.totals, target),
        "match_not_over",
        _("Nobody has won the match yet: the first to {target} points with more than the other wins."),
        target,
    )


def _winner(totals: dict[int, Fraction], target: int) -> int | None:
    (a, x), (b, y) = totals.items()
    if max(x, y) < target or x == y:
        return None
    return a if x > y else b
