"""Games, seats and the append-only event log (DESIGN.md "The event store")."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The longest name a seat (and a tournament's entrant) has: a username fits whole (Django's
# ``User.username`` holds up to 150 characters), so seating a signed-in player never cuts a name
# and never fails in the database.
NAME_LENGTH = 150


class AppendOnlyError(Exception):
    """Raised when code tries to change or remove a stored event."""


class GameQuerySet(models.QuerySet["Game"]):
    def tables(self) -> GameQuerySet:
        """Games played at a table, without the other parts' event streams."""
        return self.exclude(kind=Game.Kind.LOG)

    def listed(self) -> GameQuerySet:
        """Tables that count: what the lobby lists and the statistics read (lessons never do)."""
        return self.tables().exclude(kind=Game.Kind.LESSON)

    def without_secret_deals(self) -> GameQuerySet:
        """Without the tables dealt a duplicate deal not released yet (``DealGroup``): a spectator sees
        only their opening, and that such a table exists — a third game, say — tells how another
        match stands before its result is out (#37)."""
        return self.exclude(
            deal_group__isnull=False,
            deal_group__closed=False,
            deal_index__gte=models.F("deal_group__open_below"),
        )


class DealGroup(models.Model):
    """Tables dealt the same cards: game *n* of every table of a duplicate tournament round is dealt
    the group's deal *n*, including games not created yet (a slower table's next game, a tie-break).

    What is seen of a deal at one table tells the hands at another, so a deal stays as secret as a
    live game's (spectators see its opening only, replays open from one's own seats, no review,
    export or comments) until its owner — the tournament — releases it: deals below ``open_below``
    are released, every deal once ``closed``. Releases only ever widen (games.commands.deals.release_deals).
    """

    key = models.CharField(max_length=64, unique=True)
    open_below = models.PositiveIntegerField(default=0)
    closed = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"deal group {self.key[:8]}"

    def released(self, index: int) -> bool:
        return self.closed or index < self.open_below


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Abandoned")

    class Kind(models.TextChoices):
        # Fixed when the table is made (docs/security.md "Rated and casual"). Casual: undo, redo,
        # restart, hints and pauses, never rated. Rated: none of those, and the results count.
        # Tournament: rated, and only the organiser pauses the table.
        CASUAL = "casual", _("Casual")
        RATED = "rated", _("Rated")
        TOURNAMENT = "tournament", _("Tournament")
        # Not a table: another part's own event stream kept in the same store (a tournament's log).
        LOG = "log", _("Event stream")
        # A lesson's table (games/lessons): a stacked deal and a script; it counts nowhere (no rating,
        # no lobby, no statistics).
        LESSON = "lesson", _("Lesson")

    engine = models.CharField(max_length=32)
    engine_version = models.PositiveIntegerField()
    config = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.CASUAL)
    spectator_delay = models.PositiveIntegerField(default=0)
    # Seconds a seat of a rated or tournament table may be without a connection before the other
    # players may claim the game (games/commands/resignation.py; bounds.ABSENT_AFTER). Thinking time is unlimited.
    absent_after = models.PositiveIntegerField(default=120)
    # Tables dealt the same cards (a duplicate tournament round): this game plays deal
    # ``deal_index`` of its group, secret until the group releases it (docs/replay.md).
    deal_group = models.ForeignKey(
        DealGroup, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    deal_index = models.PositiveSmallIntegerField(null=True, blank=True)
    # Games dealt before deal groups existed share a key instead: secret while another game of the
    # same key is still being played.
    deal_key = models.CharField(max_length=64, blank=True, default="", db_index=True)
    # A demo table deals again when a game ends, so the site always has something to watch.
    is_demo = models.BooleanField(default=False)
    # A club-only table (#33): seen and joined only by the members of this club (and its seated
    # players; games.access.seats.may_see). A plain id: the club lives in tournaments, which games never
    # imports; who belongs to which club reaches games through ``games.access.seats.CLUBS``.
    club_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.engine} #{self.pk}"

    @property
    def allows_undo(self) -> bool:
        """Casual tables only: undo, redo, restart, hints and a player's pause (help a rated game
        must not have)."""
        return self.kind == self.Kind.CASUAL

    @property
    def is_rated(self) -> bool:
        """Whether its results count for the ratings: a rated table or a tournament's."""
        return self.kind in (self.Kind.RATED, self.Kind.TOURNAMENT)

    def deal_is_secret(self) -> bool:
        """Whether this game's deal is still to be played, or being played, at another table.

        Read afresh each time (never from a cached row): a release must take effect at once.
        """
        if self.deal_group_id is not None:
            group = DealGroup.objects.filter(pk=self.deal_group_id).only("open_below", "closed").first()
            return group is not None and not group.released(self.deal_index or 0)
        if not self.deal_key:
            return False
        return (
            Game.objects.filter(deal_key=self.deal_key, status=Game.Status.ACTIVE)
            .exclude(pk=self.pk)
            .exists()
        )


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    bot_level = models.CharField(max_length=16, blank=True, default="")
    # A computer seat's number, as it is called ("Computer 3 (Strong)", games/words/computers.py): its seat's
    # (from 1) at a table, its entrant's at a tournament's table. Null for people.
    bot_number = models.PositiveIntegerField(null=True, blank=True)
    display_name = models.CharField(max_length=NAME_LENGTH)
    # A seat without a name of its own ("guest": a guest who took it; "player": another player on a
    # pass-and-play device) is called by this role and its number in the reader's language
    # (games/words/names.py); ``display_name`` then holds the English name, for logs and exports only.
    name_role = models.CharField(max_length=8, blank=True, default="")
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    # An open seat waiting for a friend to claim it through an invite (Invite).
    awaiting_player = models.BooleanField(default=False)
    # An open seat anyone signed in may take from the lobby (the public API's "open" seat); without
    # it, an open seat is taken only through its invite link.
    open_to_all = models.BooleanField(default=False)
    # The seat's credential: it lets a browser's session, a pass-and-play device or a script act for
    # this seat (games/access/seats.py). It never appears in an address, a log or another player's page, and a
    # claim replaces it (games/access/invites.py).
    token = models.CharField(max_length=43, default=secrets.token_urlsafe, unique=True, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique")]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"{self.display_name} (seat {self.number})"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


class Invite(models.Model):
    """A single-use claim on an open seat: its link (/tables/ID/invite/CODE/) takes the seat once, by
    a POST, while the seat is open, the game is played and ``expires_at`` has not passed. The code is
    no credential: whoever claims gets a new one (games/access/invites.py)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="invites")
    code = models.CharField(max_length=43, default=secrets.token_urlsafe, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invite to seat {self.seat_id}"


class Seek(models.Model):
    """A player's "Play now" (games/access/playnow.py): waiting for the next player who wants the same game,
    options and kind (``key``), then the table they were seated at. At most one is waiting per key: the
    next to press is seated with its player. A waiting entry lapses at ``expires_at``, or when its
    player's page stops asking (``seen_at``); ``fallback_at``: when a computer takes the other seat, if
    the player asked for that."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for an opponent")
        MATCHED = "matched", _("Seated")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Nobody came")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    engine = models.CharField(max_length=32)
    config = models.JSONField()
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    fallback_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Only members of this club (a plain id, as ``Game.club_id``): part of ``key``, so a club's players
    # are seated with each other only, at a club-only table.
    club_id = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=models.Q(status="waiting"), name="seek_one_waiting_per_key"
            )
        ]
        indexes = [models.Index(fields=["user", "status"])]

    def __str__(self) -> str:
        return f"play now {self.engine} ({self.status})"


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("events are append-only: they cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("events are append-only: they cannot be deleted")


class Event(models.Model):
    """One stored event. ``id`` is the global position; ``seq`` counts 1, 2, 3 … per game."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    data = models.JSONField()
    actor = models.CharField(max_length=64)
    command_id = models.CharField(max_length=64)
    # Position of this event among the events of its command (0 for the first).
    cmd_index = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    schema_version = models.PositiveSmallIntegerField(default=1)
    hash = models.CharField(max_length=64)

    objects = EventQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_game_seq_unique"),
            models.UniqueConstraint(fields=["game", "command_id", "cmd_index"], name="event_command_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("events are append-only: they cannot be updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("events are append-only: they cannot be deleted")


class ApiToken(models.Model):
    """A signed-in player's personal API token (games/access/tokens.py). Only its SHA-256 digest is kept: the
    token itself is shown once, when it is made, and cannot be read back from the database."""

    class Scope(models.TextChoices):
        PLAY = "play", _("Play: make and join tables, move for my seats")
        ORGANISE = (
            "organise",
            _("Organise: every hand of the games I organised, after their end; make and start tournaments"),
        )
        READ = "read", _("Read: my seats' views and hand histories")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=64)
    # The token's first characters, to tell one's tokens apart on the profile page (not a secret: far
    # too short to guess the rest from).
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    scopes = models.CharField(max_length=64)  # comma-separated Scope values
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def scope_set(self) -> frozenset[str]:
        return frozenset(s for s in self.scopes.split(",") if s)
