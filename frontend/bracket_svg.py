"""An elimination bracket drawn as SVG on the server: one column per bracket round, one box per match.

Each box has a row per side: the seed, the name (fitted to the box: squeezed a little, or cut with
"…"; the whole name in the row's ``<title>``, shown on hover, and in the page's detail line on a tap
or on focus), the winner marked (a green bar, bold) and the loser greyed. A match being played has a
gold frame and a dot. Lines join each match to the one its winner plays next.

Every colour is an SVG presentation attribute, so the bracket reads the same with no stylesheet (a
PDF renderer, a feed reader); the page's stylesheet only adds focus and hover. The printable sheet
(``frontend/printables.py``) puts its own black-and-white styles on top.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.pairing.bracket import Bracket

BOX_W, ROW_H, GAP_X, GAP_Y, TOP = 230, 26, 52, 18, 26
BOX_H = 2 * ROW_H
SEED_W = 30  # room for the seed number on the left of a row
MARK_W = 20  # room on the right: the winner's tick, the live dot
FONT = 13  # px: the names' size
NAME_ROOM = BOX_W - SEED_W - MARK_W
SCORE_W = 22  # room for a side's games won (a best of 9 at most: one digit), when the match has a score
SQUEEZE = 0.88  # a name up to 1/0.88 of its room is squeezed (textLength) rather than cut
SECTIONS = ("winners", "losers", "final", "third_place")

# The site's palette (site.css): ink, paper, felt green, gold of the table's active seat.
INK, MUTED, LINE, FELT, WON_BG, GOLD, PAPER = (
    "#1d2430",
    "#5f6673",
    "#b9b2a0",
    "#1f6f4a",
    "#e4f1e9",
    "#e8b923",
    "#fbf9f4",
)

# Advance widths of DejaVu Sans in ems (a wide font: a name that fits in it fits in the narrower
# system fonts browsers use); anything not listed counts as a wide letter.
_WIDTHS: dict[str, float] = {}
for _chars, _w in (
    ("iljI|!.,:;'", 0.30),
    ("frt()[]{}-", 0.42),
    ('sczJ"', 0.55),
    ("abdeghknopquvxy0123456789#$?_", 0.64),
    ("FLPSTZ", 0.64),
    ("ABCEKRVXY&", 0.70),
    ("DGHNOQU", 0.79),
    ("w", 0.82),
    ("mMW<>%@", 1.0),
    (" ", 0.32),
):
    for _c in _chars:
        _WIDTHS[_c] = _w
OTHER = 0.72
WIDE = 1.0  # East Asian and other full-width characters


def text_width(text: str, size: float = FONT, bold: bool = False) -> float:
    """The width a text takes at ``size`` px (an estimate on the wide side)."""
    ems = sum(_WIDTHS.get(c, WIDE if ord(c) >= 0x1100 else OTHER) for c in text)
    return ems * size * (1.08 if bold else 1.0)


@dataclass
class Fitted:
    text: str  # what the box shows (cut with "…" when needed)
    squeeze: float | None  # a textLength in px when the text is squeezed to fit


def fit(name: str, room: float = NAME_ROOM, bold: bool = False) -> Fitted:
    """A name made to fit ``room`` px: as it is; squeezed a little; or cut with "…" (cut first,
    escaped after: a cut escape would break the SVG)."""
    width = text_width(name, bold=bold)
    if width <= room:
        return Fitted(name, None)
    if width * SQUEEZE <= room:
        return Fitted(name, room)
    cut = name
    while cut and text_width(cut + "…", bold=bold) > room:
        cut = cut[:-1]
    return Fitted(cut.rstrip() + "…", None)


def _name(entrant: Any, entries: Mapping[int, Any]) -> str:
    if entrant is None:
        return ""
    entry = entries.get(int(entrant))
    return str(entry.shown_name) if entry else str(entrant)


def _seed(entrant: Any, entries: Mapping[int, Any]) -> str:
    entry = entries.get(int(entrant)) if entrant is not None else None
    seed = getattr(entry, "seed", None)
    return str(seed) if seed else ""


def layout(bracket: Bracket) -> tuple[list[tuple[str, float]], dict[str, tuple[float, float]], float, float]:
    """Where each section's title and each match go: a match sits level with the matches that feed
    it (its winners come from them), a first round evenly spaced; nothing overlaps."""
    titles: list[tuple[str, float]] = []
    at: dict[str, tuple[float, float]] = {}
    y0 = 0.0
    width = 0.0
    slot = BOX_H + GAP_Y
    for section in SECTIONS:
        matches = [m for m in bracket.matches if m.bracket == section]
        if not matches:
            continue
        rounds = sorted({m.round for m in matches})
        columns = [[m for m in matches if m.round == r] for r in rounds]
        tallest = max(range(len(columns)), key=lambda i: (len(columns[i]), -i))
        ys: dict[str, float] = {m.id: i * slot for i, m in enumerate(columns[tallest])}
        for column in columns[tallest + 1 :]:  # later rounds: level with what feeds them
            for m in column:
                feeders = [ys[f.id] for f in matches if f.winner_to == m.id and f.id in ys]
                ys[m.id] = sum(feeders) / len(feeders) if feeders else 0.0
            _spread(column, ys, slot)
        for column in reversed(columns[:tallest]):  # earlier rounds: level with where they lead
            for m in column:
                target = ys.get(m.winner_to or "")
                ys[m.id] = target if target is not None else 0.0
            _spread(column, ys, slot)
        top = min(ys.values())
        titles.append((section, y0))
        for col, column in enumerate(columns):
            for m in column:
                at[m.id] = (col * (BOX_W + GAP_X) + 4, y0 + TOP + ys[m.id] - top)
        width = max(width, len(columns) * (BOX_W + GAP_X) - GAP_X + 8)
        y0 += TOP + max(ys.values()) - top + BOX_H + GAP_Y + 6
    return titles, at, width, y0


def _spread(column: list[Any], ys: dict[str, float], slot: float) -> None:
    """Push a column's boxes apart (in their order) so that none overlaps the one above it."""
    above: float | None = None
    for m in column:
        if above is not None and ys[m.id] < above + slot:
            ys[m.id] = above + slot
        above = ys[m.id]


def bracket_svg(
    bracket: Bracket,
    entries: Mapping[int, Any],
    live: Collection[str] = (),
    scores: Mapping[str, Mapping[int, int]] | None = None,
    titles: Mapping[str, str] | None = None,
) -> SafeString:
    """The bracket; ``live``: the matches being played now (framed in gold); ``scores``: each
    match's games won by entrant (a best of 3's "2–1", shown by each name); ``titles``: each
    match's name for the room ("Semi-final 1"), in its label instead of its key."""
    scores = scores or {}
    titles = titles or {}
    headings = {
        "winners": _("Winners"),
        "losers": _("Losers"),
        "final": _("Final"),
        "third_place": _("Third place"),
    }
    placed, at, width, height = layout(bracket)
    parts: list[str] = []
    for section, y in placed:
        parts.append(
            f'<text x="4" y="{y + 16:.0f}" class="section" fill="{INK}" font-weight="700" '
            f'font-size="14">{escape(headings[section])}</text>'
        )
    by_id = {m.id: m for m in bracket.matches}
    for m in bracket.matches:  # the lines first, under the boxes
        target = by_id.get(m.winner_to or "")
        if target is None or target.bracket != m.bracket or m.id not in at or target.id not in at:
            continue
        (x1, y1), (x2, y2) = at[m.id], at[target.id]
        x1, y1, y2 = x1 + BOX_W, y1 + BOX_H / 2, y2 + BOX_H / 2
        middle = x1 + GAP_X / 2
        decided = m.winner is not None
        parts.append(
            f'<path class="link{" decided" if decided else ""}" d="M{x1:.0f} {y1:.0f}H{middle:.0f}'
            f'V{y2:.0f}H{x2:.0f}" fill="none" stroke="{FELT if decided else LINE}" '
            f'stroke-width="{2 if decided else 1.5}"/>'
        )
    for m in bracket.matches:
        if m.id in at:
            parts.append(_box(m, *at[m.id], entries, m.id in live, scores.get(m.id), titles.get(m.id, m.id)))
    label = escape(_("Bracket"))
    return mark_safe(  # noqa: S308 - every name and title above is escaped
        f'<svg class="bracket" role="group" aria-label="{label}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="system-ui, \'DejaVu Sans\', sans-serif" '
        f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'
    )


def describe(
    m: Any,
    entries: Mapping[int, Any],
    live: bool,
    score: Mapping[int, int] | None = None,
    title: str | None = None,
) -> str:
    """A match in a sentence, for the box's label: "Semi-final 1: Ann (seed 1) beat Bo (seed 4) 2–1"
    (``title``: the match's name for the room; ``score``: games won by entrant)."""
    sides = []
    for side in (m.a, m.b):
        if side is None:
            sides.append(_("to be decided"))
            continue
        seed = _seed(side, entries)
        name = _name(side, entries)
        sides.append(_("%(name)s (seed %(seed)s)") % {"name": name, "seed": seed} if seed else name)
    if m.winner is not None and m.a is not None and m.b is not None:
        won, lost = (sides[0], sides[1]) if m.winner == m.a else (sides[1], sides[0])
        text = _("%(winner)s beat %(loser)s") % {"winner": won, "loser": lost}
        if score:
            loser = m.b if m.winner == m.a else m.a
            text += f" {score.get(m.winner, 0)}–{score.get(loser, 0)}"
    else:
        text = _("%(a)s against %(b)s") % {"a": sides[0], "b": sides[1]}
        if score and m.a is not None and m.b is not None:
            text += f" {score.get(m.a, 0)}–{score.get(m.b, 0)}"
        if live:
            text += " · " + _("playing now")
    return f"{title or m.id}: {text}"


def _box(
    m: Any,
    x: float,
    y: float,
    entries: Mapping[int, Any],
    live: bool,
    score: Mapping[int, int] | None,
    title: str,
) -> str:
    rows = []
    # A score takes room from the names: its digits sit left of the winner's tick and the live dot.
    room = NAME_ROOM - SCORE_W if score else NAME_ROOM
    for k, side in enumerate((m.a, m.b)):
        won = m.winner is not None and side == m.winner
        lost = m.winner is not None and side is not None and not won
        cls = "won" if won else "lost" if lost else "" if side is not None else "empty"
        top = y + k * ROW_H
        name = _name(side, entries)
        fitted = fit(name, room, bold=won) if name else Fitted("…", None)
        squeeze = (
            f' textLength="{fitted.squeeze:.0f}" lengthAdjust="spacingAndGlyphs"' if fitted.squeeze else ""
        )
        background = ""
        if won:  # the winner's row: a green tint and a green bar on the left
            background = (
                f'<path class="won-bg" d="M{x + 2:.0f} {top + 2:.0f}h{BOX_W - 4}v{ROW_H - 3}h-{BOX_W - 4}z" '
                f'fill="{WON_BG}"/><path class="won-bar" d="M{x + 2:.0f} {top + 2:.0f}h4v{ROW_H - 3}h-4z" '
                f'fill="{FELT}"/>'
                f'<text x="{x + BOX_W - 8:.0f}" y="{top + 18:.0f}" text-anchor="end" class="tick" '
                f'fill="{FELT}" font-size="{FONT + 1}" font-weight="700">✓</text>'
            )
        colour = MUTED if lost or side is None else INK
        weight = ' font-weight="700"' if won else ""
        seed = _seed(side, entries)
        games = (
            f'<text x="{x + BOX_W - MARK_W - 6:.0f}" y="{top + 18:.0f}" text-anchor="end" class="score" '
            f'fill="{colour}" font-size="{FONT}"{weight}>{score.get(side, 0)}</text>'
            if score and side is not None
            else ""
        )
        rows.append(
            f'<g class="{" ".join(filter(None, ("slot", cls)))}"><title>{escape(name or _("to be decided"))}</title>{background}'
            f'<text x="{x + SEED_W - 8:.0f}" y="{top + 17:.0f}" text-anchor="end" class="seed" fill="{MUTED}" '
            f'font-size="11">{escape(seed)}</text>'
            f'<text x="{x + SEED_W:.0f}" y="{top + 18:.0f}" class="{cls if cls in ("won", "lost") else "name"}" fill="{colour}" '
            f'font-size="{FONT}"{weight}{squeeze}>{escape(fitted.text)}</text>{games}</g>'
        )
    frame = GOLD if live else LINE
    dot = (
        f'<circle class="live-dot" cx="{x + BOX_W - 10:.0f}" cy="{y + BOX_H / 2:.0f}" r="5" fill="{GOLD}"/>'
        if live
        else ""
    )
    state = " live" if live else " decided" if m.winner is not None else ""
    label = escape(describe(m, entries, live, score, title))
    return (
        f'<g class="match{state}" data-match="{escape(m.id)}" tabindex="0" role="button" aria-label="{label}">'
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{PAPER}" '
        f'stroke="{frame}" stroke-width="{3 if live else 1.5}"/>'
        f'<path class="divider" d="M{x:.0f} {y + ROW_H:.0f}h{BOX_W}" stroke="{LINE}" stroke-width="1"/>'
        f"{''.join(rows)}{dot}</g>"
    )
