"""QR codes for the printed sheets and the room screen (segno): a phone's camera opens the address printed beside it.

A code carries only a public address — a table's result entry page, the tournament's page — never
a table's code or any other secret: who may enter a result is still decided by the code typed from
the card or by signing in (frontend/over_the_board.py).
"""

from __future__ import annotations

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

#: Millimetres per module: a 25-module code is about 2.5 cm wide, read by a phone at arm's length.
MODULE_MM = 0.8


def qr_svg(url: str, label: str, *, scalable: bool = False) -> SafeString:
    """``url`` as an inline SVG QR code (medium error correction: a crease or a stain still reads),
    named ``label`` for screen readers. Printed (the default): ``MODULE_MM`` millimetres a module.
    ``scalable`` (the room screen): a viewBox only, white behind, a narrower margin — the stylesheet
    sizes the code, which must scale, never be cropped (with a fixed width and height, the code drawn
    in a smaller box lost its right-hand corner)."""
    code = segno.make(url, error="m")
    if scalable:  # the class is the link's (screen.css: ``.qr svg``)
        svg = code.svg_inline(scale=6, dark="#000", light="#fff", border=2, omitsize=True, title=label)
    else:
        svg = code.svg_inline(scale=MODULE_MM, unit="mm", omitsize=False, svgclass="qr", title=label)
    # segno writes the title as a <title> child; the role makes the picture an image with that name.
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))  # noqa: S308 - segno's SVG, the label escaped
