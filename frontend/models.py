"""What the site keeps about a signed-in player beyond the account: for now, their language."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    # Empty: follow the browser (and the switcher's cookie). Set by the switcher and at sign-up.
    language = models.CharField(_("language"), max_length=10, blank=True, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user} ({self.language or '-'})"
