"""What was said at a table, and what a reader reported of it.

Chat is not a move: it is no engine input and never in a game's event stream (games.eventlog.store), so it has
its own small table here. Its rows may be deleted by staff (a reported message), which the events may
never be."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from chat.phrases import PHRASES
from games.models import NAME_LENGTH, Game

#: The longest free text (games.bounds.CHAT_TEXT).
TEXT_LENGTH = 200


class Message(models.Model):
    """One line said by a seat: a phrase's key, or a free text (never both)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    # Who held the seat when they spoke, for the staff: the signed-in user (None: a guest's seat) and
    # the seat's name then.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=NAME_LENGTH, blank=True, default="")
    phrase = models.CharField(
        max_length=32, blank=True, default="", choices=[(k, v) for k, v in PHRASES.items()]
    )
    text = models.CharField(max_length=TEXT_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "-id"], name="chat_message_game_newest")]
        verbose_name = _("chat message")

    def __str__(self) -> str:
        said = str(PHRASES[self.phrase]) if self.phrase in PHRASES else self.text
        return f"#{self.game_id} seat {self.seat + 1}: {said[:60]}"

    def as_json(self) -> dict[str, object]:
        """What the players' pages are sent: the seat, and the phrase's key or the text as typed (the page
        writes it as text, never as markup). Nothing of the game is in it."""
        said: dict[str, object] = {"phrase": self.phrase} if self.phrase else {"text": self.text}
        return {"id": self.pk, "seat": self.seat, **said, "at": self.created_at.isoformat()}


class Report(models.Model):
    """A reader's report of a message, for the staff (Django admin: chat/admin.py)."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    seat = models.PositiveSmallIntegerField()  # the reader's seat at the table
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["message", "seat"], name="chat_report_once_per_seat")]
        verbose_name = _("chat report")

    def __str__(self) -> str:
        return f"report of {self.message_id} by seat {self.seat + 1}"
