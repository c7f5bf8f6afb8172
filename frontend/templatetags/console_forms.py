"""What an organiser typed in a console form that was refused, to fill it in again (frontend/console.py)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag
def typed(sent: Any, action: str, field: str, default: Any = "", match: str | None = None) -> Any:
    """The value of ``field`` as typed in ``action``'s form (of ``match``, when given) if that form
    was just sent back; else ``default``."""
    if not sent or sent.get("action") != action:
        return default
    data = sent.get("data") or {}
    if match is not None and data.get("match") != match:
        return default
    return data.get(field, default)
