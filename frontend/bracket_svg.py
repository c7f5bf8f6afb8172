"""An elimination bracket drawn as SVG on the server: one column per bracket round, one box per match."""

from __future__ import annotations

from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.pairing.bracket import Bracket

BOX_W, BOX_H, GAP_X, GAP_Y = 170, 44, 40, 14
NAME_FITS = 26  # characters of a name a box shows
SECTIONS = ("winners", "losers", "final", "third_place")


def bracket_svg(bracket: Bracket, entries: dict[int, Any]) -> SafeString:
    titles = {
        "winners": _("Winners"),
        "losers": _("Losers"),
        "final": _("Final"),
        "third_place": _("Third place"),
    }
    parts: list[str] = []
    y0 = 0
    width = 0
    for section in SECTIONS:
        matches = [m for m in bracket.matches if m.bracket == section]
        if not matches:
            continue
        columns: dict[int, list[Any]] = {}
        for m in matches:
            columns.setdefault(m.round, []).append(m)
        tallest = max(len(c) for c in columns.values())
        height = tallest * (BOX_H + GAP_Y) + 24
        parts.append(f'<text x="4" y="{y0 + 14}" class="section">{escape(titles[section])}</text>')
        for col, rnd in enumerate(sorted(columns)):
            column = columns[rnd]
            step = (height - 24) / len(column)
            for i, m in enumerate(column):
                x = col * (BOX_W + GAP_X) + 4
                y = y0 + 24 + i * step + (step - BOX_H) / 2
                parts.append(_box(m, x, y, entries))
                width = max(width, x + BOX_W + 4)
        y0 += height + 10
    body = "".join(parts)
    label = escape(_("Bracket"))
    return mark_safe(  # noqa: S308 - every name and title above is escaped
        f'<svg class="bracket" role="img" aria-label="{label}" viewBox="0 0 {width} {y0}" '
        f'width="{width}" height="{y0}" xmlns="http://www.w3.org/2000/svg">{body}</svg>'
    )


def _name(entrant: Any, entries: dict[int, Any]) -> str:
    if entrant is None:
        return "…"
    entry = entries.get(int(entrant))
    return str(entry.shown_name) if entry else str(entrant)


def _short(name: str) -> str:
    """A name cut to fit its box (cut first, escaped after: a cut escape would break the SVG)."""
    return name if len(name) <= NAME_FITS else name[: NAME_FITS - 1] + "…"


def _box(m: Any, x: float, y: float, entries: dict[int, Any]) -> str:
    rows = []
    for k, side in enumerate((m.a, m.b)):
        won = m.winner is not None and side == m.winner
        cls = "won" if won else "lost" if m.winner is not None else ""
        rows.append(
            f'<text x="{x + 8:.0f}" y="{y + 17 + k * 20:.0f}" class="{cls}">{escape(_short(_name(side, entries)))}</text>'
        )
    return (
        f'<g class="match" data-match="{escape(m.id)}"><rect x="{x:.0f}" y="{y:.0f}" width="{BOX_W}" '
        f'height="{BOX_H}" rx="6"/>{"".join(rows)}</g>'
    )
