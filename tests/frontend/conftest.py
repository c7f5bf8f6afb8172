"""Fixtures the page tests share."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def organiser(client):
    """A user signed in on ``client`` who will create the tournament (its organiser)."""
    user = get_user_model().objects.create_user("org", password="pw-organiser-1")
    client.force_login(user)
    return user
