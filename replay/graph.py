"""The review's graph: each player's points lost, added up decision by decision over the game.

Drawn on the server as an SVG (``replay/review_graph.html``): one line per player, a mark on every
flagged decision (``?!`` an inaccuracy, ``?`` a mistake) linking to that moment of the replay, faint
lines where a new hand begins. The same figures are a table under it, for screen readers and for
anyone who wants the numbers. Only a done review has a graph; it holds nothing the review's
figures do not already say (no card, no hand).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.utils import formats
from django.utils.translation import gettext, ngettext

from replay import review
from replay.frames import Replay

#: The drawing's own units (the SVG scales to its box): about a phone's width, so its words stay legible.
WIDTH, HEIGHT = 360, 190
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 22, 22
#: Each player's line: a colour and a dash pattern (never colour alone), in seat order.
STYLES = [("#1f5fa8", ""), ("#a0461a", "7 4"), ("#2e7d32", "2 3"), ("#6a1b9a", "9 3 2 3")]
SIGNS = {review.INACCURACY: "?!", review.MISTAKE: "?"}


@dataclass(frozen=True)
class Point:
    """One reviewed decision on the graph."""

    number: int  # 1, 2, 3… over the whole game
    seq: int  # the decision's seq (the first event of its command)
    at: int  # the seq of the command's last event: where the replay shows the move made
    index: int  # that moment's index in the replay
    hand: int
    seat: int
    loss: float
    total: float  # the seat's points lost so far, this decision included
    label: str | None
    x: float
    y: float

    @property
    def sign(self) -> str:
        return SIGNS.get(self.label or "", "")


def nice_top(value: float) -> float:
    """The smallest of 1, 2, 5 × 10ⁿ at or above ``value`` (at least 1): the top of the scale."""
    if value <= 1:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * power:
            return float(step * power)
    return float(10 * power)  # pragma: no cover - the loop always returns


def command_end(replay: Replay, seq: int, start: int | None = None) -> int:
    """The index of the last event of the command whose first event is ``seq`` (at ``start``, if known)."""
    index = replay.index_of(seq) if start is None else start
    while index < len(replay.moments) - 1 and not replay.moments[index].command_end:
        index += 1
    return index


def points(replay: Replay, decisions: list[dict[str, Any]]) -> tuple[list[Point], float]:
    """Every decision placed on the drawing, and the top of its scale (points)."""
    totals: dict[int, float] = {}
    indexes = {m.seq: m.index for m in replay.moments}
    rows = []
    for d in decisions:
        totals[d["seat"]] = totals.get(d["seat"], 0.0) + float(d["loss"])
        rows.append((d, round(totals[d["seat"]], 2)))
    top = nice_top(max(totals.values(), default=0.0))
    width, height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    out = []
    for number, (d, total) in enumerate(rows, start=1):
        end = command_end(replay, d["seq"], indexes.get(d["seq"]))
        out.append(
            Point(
                number=number,
                seq=d["seq"],
                at=replay.moments[end].seq,
                index=end,
                hand=max(replay.moments[end].hand, 1),
                seat=d["seat"],
                loss=float(d["loss"]),
                total=total,
                label=d["label"],
                x=round(LEFT + width * (number - 0.5) / len(rows), 1),
                y=round(TOP + height * (1 - total / top), 1),
            )
        )
    return out, top


def _number(value: float, decimals: int = 1) -> str:
    return str(formats.number_format(round(value, decimals), decimal_pos=decimals, use_l10n=True))


def build(replay: Replay, decisions: list[dict[str, Any]], names: dict[int, str]) -> dict[str, Any] | None:
    """What the template draws: lines, marks, the scale, the hands' boundaries and the sentences,
    in the reader's language (call it inside their request). None when there is nothing to draw."""
    if not decisions:
        return None
    placed, top = points(replay, decisions)
    bottom = HEIGHT - BOTTOM
    players: list[dict[str, Any]] = []
    for seat in sorted({p.seat for p in placed} | set(names)):
        mine = [p for p in placed if p.seat == seat]
        colour, dash = STYLES[seat % len(STYLES)]
        line = [(LEFT, bottom)] + [(p.x, p.y) for p in mine]
        total = mine[-1].total if mine else 0.0
        mistakes = sum(p.label == review.MISTAKE for p in mine)
        inaccuracies = sum(p.label == review.INACCURACY for p in mine)
        name = names.get(seat) or gettext("Seat %(n)s") % {"n": seat + 1}
        players.append(
            {
                "seat": seat,
                "name": name,
                "colour": colour,
                "dash": dash,
                "line": " ".join(f"{x},{y}" for x, y in line),
                "total": _number(total),
                "sentence": ngettext(
                    "%(name)s lost %(total)s points in %(n)s decision",
                    "%(name)s lost %(total)s points in %(n)s decisions",
                    len(mine),
                )
                % {"name": name, "total": _number(total), "n": len(mine)}
                + " "
                + gettext("(mistakes: %(mistakes)s, inaccuracies: %(inaccuracies)s).")
                % {"mistakes": mistakes, "inaccuracies": inaccuracies},
            }
        )
    styles = {p["seat"]: p for p in players}
    rows: list[dict[str, Any]] = [
        {
            "point": p,
            "name": styles[p.seat]["name"],
            "loss": _number(p.loss),
            "total": _number(p.total),
            "text": str(review.LABELS[p.label]) if p.label else "",
            "colour": styles[p.seat]["colour"],
            "sign_y": round(p.y - 9 if p.y - 9 > TOP / 2 else p.y + 17, 1),
        }
        for p in placed
    ]
    height = HEIGHT - TOP - BOTTOM
    ticks = [
        {"y": round(TOP + height * (1 - share), 1), "text": _number(top * share, 0 if top >= 2 else 1)}
        for share in (0, 0.5, 1)
    ]
    hands = [
        {"x": round((before.x + p.x) / 2, 1), "hand": p.hand}
        for before, p in zip(placed, placed[1:], strict=False)
        if p.hand != before.hand
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": bottom,
        "players": players,
        "marks": [r for r in rows if r["point"].label],
        "rows": rows,
        "ticks": ticks,
        "hands": hands,
        "description": " ".join(str(p["sentence"]) for p in players),
    }
