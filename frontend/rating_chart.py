"""A rating's history drawn as SVG on the server: the rating after each rated game, with a rating axis
(a few round values) and the dates of the games under the game axis.

The x axis counts rated games, oldest first (a night of twenty games would be a vertical line on a
time axis); the dates under its ticks say when. The picture is an ``img`` named by a sentence (the
first and last rating, their dates, the best), and the page's game list holds every value, so the
chart hides nothing a screen reader user cannot read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

W, H = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 12, 40  # room for the rating labels and the dates
INK, MUTED, LINE, FELT = "#1d2430", "#5f6673", "#d8d2c2", "#1f6f4a"


@dataclass(frozen=True)
class Point:
    rating: float
    at: datetime


def _ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round values covering [low, high]: steps of 1, 2 or 5 times a power of ten."""
    span = high - low or 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    values: list[float] = []
    v = start
    while v <= high + step * 0.999 and len(values) < 12:
        values.append(round(v, 6))
        v += step
    return values


def summary(points: list[Point]) -> str:
    """The chart in one sentence (its accessible name)."""
    first, last = points[0], points[-1]
    best = max(p.rating for p in points)
    return _(
        "Rating from %(first)s on %(start)s to %(last)s on %(end)s over %(n)s rated games; best %(best)s."
    ) % {
        "first": formats.number_format(first.rating, 1),
        "start": formats.date_format(first.at, "DATE_FORMAT"),
        "last": formats.number_format(last.rating, 1),
        "end": formats.date_format(last.at, "DATE_FORMAT"),
        "n": len(points),
        "best": formats.number_format(best, 1),
    }


def draw(points: list[Point], ident: str, width: int = W, dates: int = 5) -> SafeString:
    """The SVG of a history with at least two points (one rated game draws no line), else ''.
    ``width``: the picture's own width (its text scales with it: a phone gets a narrower one, with
    ``dates`` dates at most under the axis)."""
    if len(points) < 2:
        return mark_safe("")
    W = width  # noqa: N806 - the module's default, narrowed
    ticks = _ticks(min(p.rating for p in points), max(p.rating for p in points))
    low, high = ticks[0], ticks[-1]
    span = (high - low) or 1.0
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / (len(points) - 1)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / span)

    parts = [
        f'<svg class="rating-chart" id="{ident}" viewBox="0 0 {W} {H}" role="img" aria-labelledby="{ident}-title" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" font-size="12">',
        f'<title id="{ident}-title">{escape(summary(points))}</title>',
    ]
    for value in ticks:
        ty = y(value)
        parts.append(
            f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="{LINE}" stroke-width="1"/>'
            f'<text x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end" fill="{MUTED}">'
            f"{escape(formats.number_format(value, 0 if float(value).is_integer() else 1))}</text>"
        )
    # The axes themselves, over the grid.
    parts.append(
        f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{H - BOTTOM}" stroke="{INK}" stroke-width="1"/>'
        f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{H - BOTTOM}" y2="{H - BOTTOM}" stroke="{INK}" stroke-width="1"/>'
    )
    # Dates under at most ``dates`` games, the first and the last always.
    count = len(points)
    marks = (
        sorted({round(i * (count - 1) / (dates - 1)) for i in range(dates)})
        if count > dates
        else list(range(count))
    )
    for i in marks:
        tx = x(i)
        anchor = "start" if i == 0 else "end" if i == count - 1 else "middle"
        label = formats.date_format(points[i].at, "SHORT_DATE_FORMAT")
        parts.append(
            f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{H - BOTTOM}" y2="{H - BOTTOM + 5}" stroke="{INK}"/>'
            f'<text x="{tx:.1f}" y="{H - BOTTOM + 18}" text-anchor="{anchor}" fill="{MUTED}">{escape(label)}</text>'
        )
    line = " ".join(f"{x(i):.1f},{y(p.rating):.1f}" for i, p in enumerate(points))
    parts.append(f'<polyline fill="none" stroke="{FELT}" stroke-width="2.5" points="{line}"/>')
    if count <= 40:
        parts += [
            f'<circle cx="{x(i):.1f}" cy="{y(p.rating):.1f}" r="3" fill="{FELT}"/>'
            for i, p in enumerate(points)
        ]
    axis = _("Rated games, oldest first")
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{H - 4}" text-anchor="middle" fill="{MUTED}">{escape(axis)}</text>'
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))
