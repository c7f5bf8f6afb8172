"""Replay rooms, comments pinned to a moment, and engine reviews of finished games.

None of these change a game: a game's log stays the only record of what happened at its table.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game


def room_key() -> str:
    return secrets.token_urlsafe(9)


class Room(models.Model):
    """A replay watched together: whoever drives moves the position, every viewer follows."""

    key = models.CharField(max_length=16, unique=True, default=room_key, editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="replay_rooms")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    driver = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seq = models.PositiveIntegerField(default=0)
    perspective = models.CharField(max_length=8, default="public")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"room {self.key} on game {self.game_id}"


class Annotation(models.Model):
    """A comment pinned to one event of a game. Hidden by a moderator, never deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="annotations")
    seq = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="annotations"
    )
    text = models.TextField(max_length=1000)
    created_at = models.DateTimeField(default=timezone.now)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seq", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "seq"])]

    def __str__(self) -> str:
        return f"comment on {self.game_id}#{self.seq}"


class Review(models.Model):
    """The strong bot's review of a finished game: every decision scored from its seat's view."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        RUNNING = "running", _("Reviewing")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    engine_version = models.PositiveIntegerField(default=0)
    settings = models.JSONField(default=dict)  # samples, thresholds: what the figures depend on
    decisions = models.JSONField(default=list)  # one entry per decision (seq, seat, loss, label…)
    summary = models.JSONField(default=dict)  # per seat: decisions, inaccuracies, mistakes, mean loss
    error = models.TextField(blank=True, default="")
    requested_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"review of game {self.game_id} ({self.status})"


class RoomMember(models.Model):
    """A signed-in user who joined a room: the driver may hand the wheel to any of them."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "user"], name="room_member_unique")]
        ordering = ["room", "joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id} in room {self.room_id}"
