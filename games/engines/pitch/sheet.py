"""Pitch's real-card score sheet: each hand's pitcher and bid, and who won High, Low, Jack and Game
(the points follow from them)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engines.base import Config, IllegalAction, Pick, ScoreSheet, Sheet, _, pgettext
from games.engines.tally import add_row, ranked, side_in, whole


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
        score=score,
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


def score(config: dict[str, Any], sheet: Sheet, hands: list[dict[str, Any]]) -> None:
    """Each hand: the pitcher and the bid, who won High, Low, Jack (or nobody: not in play) and Game
    (or nobody: tied). A pitcher short of the bid loses it; the game ends at the end of a hand in
    which the pitcher's side has reached the target (or at the table's hand limit, if it has one)."""
    sides = sheet.sides
    target = int(config.get("target", 7))
    limit = config.get("max_hands")
    sheet.totals = {s: Fraction(0) for s in sides}
    winners: list[int] = []
    for line, hand in enumerate(hands, 1):
        if winners:
            raise IllegalAction(
                "after_the_end",
                _("The game was over after hand {hand}: remove the hands after it."),
                hand=line - 1,
            )
        pitcher = side_in(hand.get("pitcher"), sides)
        if pitcher is None:
            raise IllegalAction("no_pitcher", _("Hand {hand}: say who the pitcher was."), hand=line)
        bid = whole(hand.get("bid"))
        if bid is None or not 1 <= bid <= 4:
            raise IllegalAction("bad_bid", _("Hand {hand}: a bid is from 1 to 4."), hand=line)
        high, low = side_in(hand.get("high"), sides), side_in(hand.get("low"), sides)
        if high is None or low is None:
            raise IllegalAction(
                "high_and_low", _("Hand {hand}: someone always wins High and Low: say who."), hand=line
            )
        points = {s: Fraction(0) for s in sides}
        points[high] += 1
        points[low] += 1
        for name in ("jack", "game"):
            value = hand.get(name)
            if value in (None, ""):
                continue
            who = side_in(value, sides)
            if who is None:
                raise IllegalAction(
                    "bad_award",
                    _("Hand {hand}: Jack and Game go to a player at the table, or to nobody."),
                    hand=line,
                )
            points[who] += 1
        made = points[pitcher] >= bid
        if not made:
            points[pitcher] = Fraction(-bid)
        add_row(sheet, points, {"pitcher": pitcher, "bid": bid, "set_back": None if made else pitcher})
        if sheet.totals[pitcher] >= target:
            winners = [pitcher]
        elif limit is not None and line >= int(limit):
            best = max(sheet.totals.values())
            winners = [s for s in sides if sheet.totals[s] == best]
    if not winners:
        raise IllegalAction(
            "pitch_not_over",
            _("No pitcher has ended a hand with {target} points: the game is not over yet."),
            target=target,
        )
    others = {s: v for s, v in sheet.totals.items() if s not in winners}
    sheet.places = {s: 1 for s in winners}
    sheet.places.update({s: len(winners) + p for s, p in ranked(others, lower_wins=False).items()})
