"""Clubs, and the projections of tournament logs: every row below ``Club`` is rebuilt from a stream.

``rebuild_tournaments`` deletes and rewrites the projection rows from the logs; nothing else
writes them but ``tournaments.projection`` (inside the transaction that appends the event).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import NAME_LENGTH
from games.words import computers


def new_join_code() -> str:
    return secrets.token_urlsafe(16)


class Club(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who made the club: one of its organisers (tournaments/clubs.py), as staff are.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The code of the club's join link (/clubs/join/CODE/), shared by an organiser; rotating it makes
    # every link given before it join nobody. No credential to anything else.
    join_code = models.CharField(max_length=32, default=new_join_code, unique=True)

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A user who belongs to a club (#33): they see and join its club-only tables. An organiser also
    shares the join link, adds and removes members (tournaments/clubs.py)."""

    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ORGANISER = "organiser", _("Organiser")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_members")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="club_member_unique")]
        ordering = ["club", "user__username"]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role})"


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Playing")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    stream_id = models.BigIntegerField(unique=True)  # the tournament's event stream in games.eventlog.streams
    name = models.CharField(max_length=120)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    game = models.CharField(max_length=32)
    format = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices)
    round = models.PositiveIntegerField(default=0)
    planned_rounds = models.PositiveIntegerField(null=True)  # a Swiss's length, announced at the start
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seq = models.PositiveIntegerField(default=0)  # the last event folded
    # Played with real cards ("over the board"): every round not started yet; or these rounds.
    over_the_board = models.BooleanField(default=False)
    board_rounds = models.JSONField(default=list)
    # The round clocks and the room's choices as folded (tournaments/clock.py ``Held.as_json``): the
    # clock every table page fetches, read without the log.
    clock = models.JSONField(default=dict)

    def __str__(self) -> str:
        return self.name

    @property
    def is_demo(self) -> bool:
        """The demo club's series (``manage.py demo``): the only tournaments that start again by
        themselves (``repeat``), marked "Demo" wherever they are listed."""
        return bool(self.options.get("repeat"))


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=NAME_LENGTH)  # a username fits (games.models.NAME_LENGTH)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot_level = models.CharField(max_length=16, blank=True, default="")
    bot_number = models.PositiveIntegerField(null=True, blank=True)  # "Computer N" (games/words/computers.py)
    members = models.JSONField(default=list)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    seed = models.PositiveIntegerField(null=True)
    rank = models.PositiveIntegerField(null=True)
    values = models.JSONField(default=dict)  # tie-break name -> value, as text ("7", "5/2")
    bye_requests = models.JSONField(default=list)  # rounds it asked a half-point bye for

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique")]
        ordering = ["rank", "seed", "number"]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self) -> str:
        """The entrant's name on a page: a computer's in the reader's language, as at its tables."""
        if self.bot_level:
            return computers.name(self.bot_number or self.number, self.bot_level)
        return self.name


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    started = models.BooleanField(default=False)
    complete = models.BooleanField(default=False)
    byes = models.JSONField(default=list)
    half_byes = models.JSONField(default=list)
    locked = models.JSONField(default=list)  # tables a re-pairing keeps
    over_the_board = models.BooleanField(default=False)  # started as a round played with real cards
    # Paired from standings a result change has since altered (round.stale): offer to pair it again.
    stale = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.tournament_id}: round {self.number}"


class Match(models.Model):
    """A table of a round: a two-player match, a multi-player table or a bracket match."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveIntegerField()
    key = models.CharField(max_length=16)
    entrants = models.JSONField(default=list)
    result = models.JSONField(null=True)  # {"places": {...}, "scores": {...}} as it counts
    computed = models.JSONField(null=True)  # from the games; differs from result after an override
    override_reason = models.TextField(blank=True, default="")
    forfeit = models.JSONField(default=list)
    # Absent entrants whose seat a computer played out (seat.stood_in, #30): placed last.
    stand_ins = models.JSONField(default=list)
    # Over the board: each game's entry, who confirmed or disputed it, its result once recorded
    # (projection.board_json); empty for a table that plays online.
    board = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="match_key_unique")]
        ordering = ["round", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.key}"


class MatchGame(models.Model):
    """A game played for a match: how a finished game finds its tournament."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    game_id = models.BigIntegerField(unique=True)
    number = models.PositiveIntegerField()
    seats = models.JSONField(default=list)
    finished = models.BooleanField(default=False)
    # Entrant -> place once the game is over and its result public (a withheld game's stays null):
    # the match's score in games ("2–1") is counted from these.
    places = models.JSONField(null=True)

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"game {self.game_id} of {self.match_id}"


def organises(game: Any, user: Any) -> bool:
    """Whether ``user`` organises the tournament ``game`` is played for (the tournament made the
    table, so its ``created_by`` is empty): registered in ``games.access.seats.ORGANISES``."""
    return MatchGame.objects.filter(game_id=game.pk, match__tournament__created_by_id=user.pk).exists()


class Rating(models.Model):
    """An OpenSkill rating per player, game and club (club null: everyone's ladder)."""

    # "user:ID", "bot:LEVEL:N" for computer N of LEVEL (games/words/computers.py), or "bot:" + the name of a
    # computer player rated before computers were numbered and whose name told no number.
    player = models.CharField(max_length=NAME_LENGTH + 10)
    name = models.CharField(max_length=150)
    game = models.CharField(max_length=32)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game", "club"], name="rating_unique"),
            models.UniqueConstraint(
                fields=["player", "game"], condition=models.Q(club__isnull=True), name="rating_unique_global"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    @property
    def shown_name(self) -> str:
        """The player's name on a page: a computer's in the reader's language."""
        return shown_name(self.player, self.name)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def shown_name(key: str, stored: str) -> str:
    """A rated player's name on a page: a computer's by its number and level in the reader's
    language, also for the rows kept before computers were numbered ("bot:Bot 6 (greedy)")."""
    computer = computers.from_rating_key(key)
    if computer:
        return computers.name(computer[1], computer[0])
    if key.startswith("bot:"):
        legacy = key[4:] or stored
        number, level = computers.legacy_number(legacy), computers.legacy_level(legacy)
        if number is not None and level is not None:
            return computers.name(number, level)
    return stored


class RatingHistory(models.Model):
    """One rated game's change to one rating: the chart on a player's page."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="history")
    game_id = models.BigIntegerField()
    # The game's number at its table: a rated table may play another game once one is over.
    number = models.PositiveIntegerField(default=1)
    mu = models.FloatField()
    sigma = models.FloatField()
    at = models.DateTimeField()
    # The player's side's place in that game (1 = first; sides that tie share it) and how many sides
    # played: the result on the player's page. Null for rows rated before they were kept.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    sides = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rating", "game_id", "number"], name="rating_history_once")
        ]
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.rating_id} after game {self.game_id}.{self.number}"
