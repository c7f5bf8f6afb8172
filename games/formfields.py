"""Django form fields that read their limits from games/bounds.py (the pages' forms)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext

from games import bounds


class BoundedIntegerField(forms.IntegerField):
    """An IntegerField whose text is read as ``bounds.read_int`` reads it (ASCII digits, at most
    ``bounds.DIGITS`` characters, before ``int()``), with the bound's min and max: the browser's
    ``min``/``max`` attributes and the server's check come from the same ``bounds.Number``."""

    def __init__(self, bound: bounds.Number, **kwargs: Any) -> None:
        self.bound = bound
        kwargs.setdefault("min_value", bound.low)
        kwargs.setdefault("max_value", bound.high)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str):
            value = value.strip()
        if value in self.empty_values:
            return None
        number = bounds.read_int(value)
        if number is None:
            raise forms.ValidationError(self._message(), code="bad_number")
        return number

    def run_validators(self, value: Any) -> None:
        # Out of range says the same as not a number: the field's name and its bounds.
        try:
            super().run_validators(value)
        except forms.ValidationError:
            raise forms.ValidationError(self._message(), code="bad_number") from None

    def _message(self) -> str:
        low = self.bound.low if self.min_value is None else self.min_value
        high = self.bound.high if self.max_value is None else self.max_value
        return gettext("{name} must be a whole number from {low} to {high}.").format(
            name=self.label or self.bound.name, low=low, high=high
        )
