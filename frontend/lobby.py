"""What the lobby lists: the tables being played now, the recent ones, for one game or all.

A table is live while someone has moved at it in the last ``LOBBY_IDLE_MINUTES`` (its last event's
time); a table nobody has moved at for longer, and a finished one, is listed under "Recent". Each row
says who sits there (people, computers, open seats), whether one of the reader's seats is to play,
whether the reader may take an open seat there (those tables come first: #33, finding a game),
whether it is a demo table, which club a club-only table is for (the reader's clubs' tables come
first; nobody else sees them), and how many watch it (``games.live.audience``; no number when that cannot be
known).

The demo (#33, "the demo drowns a new player") keeps to a few rows: its tables (``is_demo``, one per
game) come after the tables people play; the games of the demo club's tournament are not listed at
all — the tournament is, once, with a link to its page (``demo_tournaments``); "Recent" lists games
people played, never a finished game of computers only nor a demo table left idle.

The time is an argument (``now``): the view passes the clock's, tests pass theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Case, Exists, F, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.access import seats
from games.eventlog.tables import load_table
from games.live import audience
from games.models import Event, Game, Seat
from games.words.catalogue import titles
from tournaments.log import FINISHED
from tournaments.models import Club, MatchGame, Tournament

LIVE_LENGTH = 30
RECENT_LENGTH = 20


@dataclass
class Row:
    game: Game
    title: Any
    last_move: datetime
    seats: list[Seat]
    live: bool
    mine: list[int] = field(default_factory=list)  # the reader's seats (numbers)
    club: str = ""  # a club-only table's club (#33): only its members and players see the row
    my_turn: bool = False
    watching: int | None = None

    @property
    def people(self) -> int:
        return sum(1 for s in self.seats if not s.bot_level and not s.awaiting_player)

    @property
    def computers(self) -> int:
        return sum(1 for s in self.seats if s.bot_level)

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.awaiting_player)

    @property
    def takeable(self) -> bool:
        """A seat anyone signed in may take from the lobby (not one kept for an invited friend)."""
        return self.game.status == Game.Status.ACTIVE and any(
            s.awaiting_player and s.open_to_all for s in self.seats
        )

    @property
    def open_to_reader(self) -> bool:
        """A seat the reader may take: open to all, at a table where they play no seat yet."""
        return self.takeable and not self.mine


def clock() -> datetime:
    """Now, for the lobby (tests put their own clock here)."""
    return timezone.now()


def idle_after() -> timedelta:
    return timedelta(minutes=settings.LOBBY_IDLE_MINUTES)


def _with_last_move(rows: QuerySet[Game]) -> Any:
    # The (game, seq) index finds each table's last event.
    last = Event.objects.filter(game=OuterRef("pk")).order_by("-seq").values("created_at")[:1]
    return rows.annotate(last_move=Coalesce(Subquery(last), F("created_at")))


def listing(requester: seats.Requester, now: datetime, game: str | None = None) -> dict[str, list[Row]]:
    """The lobby's lists at ``now``: ``live`` (moved at lately, latest first) and ``recent`` (idle or
    finished, latest first)."""
    cutoff = now - idle_after()
    # Lesson tables are nobody's to watch or join; a secret duplicate deal's table nobody's to find yet.
    tables = Game.objects.listed().without_secret_deals().exclude(in_demo_tournament())
    # A club-only table is its members' and players' to find (#33); to anyone else it is not there.
    mine = seats.clubs_of(requester.user)  # read once: the filter and the order below both need them
    tables = seats.seen_by(requester.user, tables, clubs=mine)
    if game is not None:
        tables = tables.filter(engine=game)
    active = _with_last_move(tables.filter(status=Game.Status.ACTIVE))
    # The reader's clubs' tables first already here, before the cut, so that the order below (which
    # puts them first) has them to show however many public tables moved since.
    clubs_first = Case(When(club_id__in=mine, then=Value(0)), default=Value(1)) if mine else Value(1)
    live = list(active.filter(last_move__gte=cutoff).order_by(clubs_first, "-last_move")[:LIVE_LENGTH])
    idle = list(active.filter(last_move__lt=cutoff, is_demo=False).order_by("-last_move")[:RECENT_LENGTH])
    # Finished games of computers only (the demo club's Swiss plays dozens an hour) are no one's to go
    # back to: Recent tables lists games that people played (#33, "the demo drowns a new player").
    played_by_people = Exists(Seat.objects.filter(game=OuterRef("pk"), bot_level=""))
    finished = list(
        _with_last_move(tables.filter(played_by_people, status=Game.Status.FINISHED)).order_by(
            "-finished_at"
        )[:RECENT_LENGTH]
    )
    recent = sorted(idle + finished, key=lambda g: g.finished_at or g.last_move, reverse=True)[:RECENT_LENGTH]
    shown = live + recent
    seated: dict[int, list[Seat]] = {g.pk: [] for g in shown}
    for seat in Seat.objects.filter(game__in=[g.pk for g in shown]).order_by("game_id", "number"):
        seated[seat.game_id].append(seat)
    names = titles()
    club_names = dict(
        Club.objects.filter(pk__in={g.club_id for g in shown if g.club_id}).values_list("pk", "name")
    )
    watching = audience.counts([g.pk for g in live])
    rows: dict[str, Any] = {"live": [], "recent": [], "demo_tournaments": demo_tournaments(game)}
    for games, section in ((live, "live"), (recent, "recent")):
        for g in games:
            row = Row(g, names.get(g.engine, g.engine), g.last_move, seated[g.pk], live=section == "live")
            row.mine = sorted(seats.held_among(requester, row.seats))
            row.club = club_names.get(g.club_id, "") if g.club_id else ""
            if row.mine and g.status == Game.Status.ACTIVE:
                row.my_turn = _to_play(g, row.mine)
            if watching is not None and section == "live":
                row.watching = watching.get(g.pk, 0)
            rows[section].append(row)
    # The tables of the reader's clubs come first (#33: a member finds their club's seats and games
    # before the public ones), then tables with a seat the reader may take (finding a game), then the
    # reader's tables waiting for them, the demo's last (stable: latest move first otherwise).
    rows["live"].sort(
        key=lambda r: (r.game.club_id not in mine, not r.open_to_reader, not r.my_turn, r.game.is_demo)
    )
    return rows


def in_demo_tournament() -> Exists:
    """A game of the demo club's tournament (``repeat``): listed through the tournament, not one by one."""
    return Exists(MatchGame.objects.filter(game_id=OuterRef("pk"), match__tournament__options__repeat=True))


def demo_tournaments(game: str | None = None) -> list[Tournament]:
    """The demo club's tournaments being played (one per series: ``repeat`` never runs two at once)."""
    rows = Tournament.objects.filter(options__repeat=True).exclude(status=FINISHED)
    if game is not None:
        rows = rows.filter(game=game)
    return list(rows.order_by("-pk")[:3])


def _to_play(game: Game, mine: list[int]) -> bool:
    """Whether one of these seats is to act now (the kept fold makes this cheap)."""
    table = load_table(game)
    if table.timeline.paused or table.timeline.abandoned:
        return False
    return bool(set(table.to_act()) & set(mine))
