"""A form's refusals as the one sentence a page shows (every page form of #32 says them the same way)."""

from __future__ import annotations

from django import forms


def sentence(form: forms.Form) -> str:
    """Each refused field's messages, after its label unless the message already starts with it."""
    parts = []
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        text = " ".join(str(e) for e in errors)
        parts.append(text if not label or text.startswith(str(label)) else f"{label}: {text}")
    return " ".join(parts)
