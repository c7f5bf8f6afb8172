"""``{% rules_picture "SLUG" %}``: a worked example's position on a rules page (frontend/rules_pictures.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from frontend.rules_pictures import BY_SLUG, position

register = template.Library()


@register.inclusion_tag("frontend/rules/picture.html")
def rules_picture(slug: str) -> dict[str, Any]:
    picture = BY_SLUG[slug]
    return {
        "slug": slug,
        "engine": picture.engine,
        "position": position(slug),
        "caption": gettext(picture.caption),
    }
