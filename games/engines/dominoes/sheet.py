"""Dominoes' real-card score sheet: each round's points per player (All Fives: in play and the
round's bonus), and the round's winner."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engines.base import Config, IllegalAction, Number, Pick, ScoreSheet, Sheet, _, pgettext
from games.engines.dominoes.config import tiles_per_player
from games.engines.dominoes.tiles import PIPS
from games.engines.tally import add_row, per_side, side_in, winner_places

# All Fives: points scored in play in one round are at most 45 a play (four arms of double-six ends,
# 48, taken to the multiple of 5 below) over at most 28 plays (#37: 10^30 was accepted and counted).
MAX_FIVES_PLAY = 45 * 28


ALL_PIPS = sum(PIPS)  # 168: every pip of a double-six set


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
        score=score,
        row_name=("dominoes", pgettext("dominoes", "Round %(n)s")),
    )


def _most_pips(tiles: int) -> int:
    return sum(sorted(PIPS, reverse=True)[:tiles])


def score(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    variant, players, target = config["variant"], int(config["players"]), int(config["target"])
    sides = sheet.sides
    fives = variant == "all_fives"
    three = players == 3 and not config.get("partnerships")
    seats_per_side = 2 if config.get("partnerships") else 1
    # What a round winner can score at most: the other hands' pips (Block: nobody draws).
    if variant == "block":
        most = _most_pips((players - seats_per_side) * tiles_per_player(variant, players))
    else:
        most = ALL_PIPS
    sheet.totals = {s: Fraction(0) for s in sides}
    for line, hand in enumerate(hands, 1):
        _over_before(sheet, target, line)
        raw_winners = hand.get("winners", [])
        if not isinstance(raw_winners, list):
            raw_winners = [raw_winners]
        winners = [side_in(w, sides) for w in raw_winners if w not in (None, "")]
        won = [int(w) for w in winners if w is not None]
        # One round winner, or two tied for the lowest hand in All Fives at three.
        if len(won) != len(winners) or len(set(won)) != len(won) or len(won) > (2 if fives and three else 1):
            raise IllegalAction(
                "bad_round_winner", _("Round {round}: the round winner is a player at the table."), round=line
            )
        if fives:
            play = per_side(hand, "play", sides, line)
            bonus = per_side(hand, "bonus", sides, line, halves=three)
            _at_most(
                play,
                MAX_FIVES_PLAY,
                line,
                "too_many_points",
                _("Round {round}: the points scored in play are at most {most}."),
            )
            if any(v < 0 or v % 5 for v in play.values()):
                raise IllegalAction(
                    "not_fives", _("Round {round}: in All Fives every score is a multiple of 5."), round=line
                )
            step = Fraction(5, 2) if len(won) == 2 else Fraction(5)
            if any(v < 0 or v % step for v in bonus.values()):
                raise IllegalAction(
                    "not_fives", _("Round {round}: in All Fives every score is a multiple of 5."), round=line
                )
            if any(v and s not in won for s, v in bonus.items()):
                raise IllegalAction(
                    "bonus_to_winner", _("Round {round}: only the round winner gets the bonus."), round=line
                )
            if len(won) == 2 and bonus[won[0]] != bonus[won[1]]:
                raise IllegalAction(
                    "split_bonus",
                    _("Round {round}: two players tied for the lowest hand share the bonus equally."),
                    round=line,
                )
            _pips_at_most(bonus, 170, line)
            points = {s: play[s] + bonus[s] for s in sides}
        else:
            points = per_side(hand, "points", sides, line)
            if any(v < 0 for v in points.values()):
                raise IllegalAction(
                    "not_a_number", _("Line {hand}: every score is a whole number."), hand=line
                )
            if any(v and s not in won for s, v in points.items()):
                raise IllegalAction(
                    "only_winner_scores",
                    _("Round {round}: in Block and Draw only the round winner scores."),
                    round=line,
                )
            _pips_at_most(points, most, line)
        add_row(sheet, points, {"winners": won})
    winner_places(
        sheet,
        _sole_leader(sheet.totals, target),
        "not_over_alone",
        _("Nobody has reached {target} points alone: the game is not over yet."),
        target,
    )


def _pips_at_most(points: dict[int, Fraction], most: int, line: int) -> None:
    """A round winner scores the pips left in the other hands: no more than ``most``."""
    pips = _("Round {round}: the winner scores the pips left in the other hands, at most {most}.")
    _at_most(points, most, line, "too_many_pips", pips)


def _at_most(points: dict[int, Fraction], most: int, line: int, code: str, sentence: str) -> None:
    """Round ``line`` refused (``code``, ``sentence``) when a side's points there pass ``most``."""
    if any(v > most for v in points.values()):
        raise IllegalAction(code, sentence, round=line, most=most)


def _sole_leader(totals: dict[int, Fraction], target: int) -> int | None:
    best = max(totals.values())
    leaders = [s for s, v in totals.items() if v == best]
    return leaders[0] if best >= target and len(leaders) == 1 else None


def _over_before(sheet: Sheet, target: int, line: int) -> None:
    if line > 1 and _sole_leader(sheet.totals, target) is not None:
        raise IllegalAction(
            "after_the_end",
            _(
                "The game was over after round {round} (one side alone at {target} points or more): remove the rounds after it."
            ),
            round=line - 1,
            target=target,
        )
