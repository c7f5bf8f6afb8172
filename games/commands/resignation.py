"""Rated games end (#37): a seat resigns, or the others claim the game of a seat that **left**.

A losing player could escape a rated loss by stopping: ratings count finished games only, and the
rules have no clock ("Walang orasan": thinking time stays unlimited). So:

- **Resign** (``resign``): a seat ends the game at once, its side last. Any table but a lesson.
- **Claim** (``claim``): at a rated or tournament table, a seat may end the game when a seat of another
  side has had no connection to the table (no socket, no stream: games/live/presence.py) for the table's
  ``absent_after`` seconds (bounds.ABSENT_AFTER, chosen when the table is made), as lichess's "claim
  victory" works. That side is last. A seat that is connected is never claimed against, however
  long it thinks; a computer seat never leaves.

Both append one ``table.resign`` event (``{"seat", "reason": "resigned" | "left", "by"}``); the game is
then finished, and its outcome (``outcome``) is what the ratings and the tournament read: the seat's side
last, every other side sharing first place, no points scored (the game did not reach its end).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.commands import runner
from games.commands.runner import Result
from games.engines.base import _
from games.errors import Forbidden, ServiceError
from games.eventlog import timeline
from games.eventlog.resigned import sides
from games.eventlog.tables import Table
from games.live import presence
from games.models import Game

RESIGNED = "resigned"
LEFT = "left"


def _seat_of(by: str) -> int:
    kind, _colon, number = by.partition(":")
    if kind != "seat" or not number.isascii() or not number.isdigit():
        raise Forbidden("spectator", _("Spectators watch; they cannot play."))
    return int(number)


def _still_played(table: Table) -> None:
    if table.game.status != Game.Status.ACTIVE or table.over():
        raise ServiceError("game_over", _("This game is over."))
    if table.game.kind == Game.Kind.LESSON:
        raise Forbidden("not_in_lesson", _("A lesson cannot be resigned: leave it or start it again."))


def _command(
    game_id: int, command_id: Any, by: str, build: Callable[[Table], list[dict[str, Any]]]
) -> Result:
    return runner.system_command(
        game_id, command_id, build, same=runner.same_table_command(timeline.RESIGN, by)
    )


def resign(game_id: int, command_id: Any, expected_seq: Any = None, *, by: str) -> Result:
    """Seat ``by`` ("seat:N") gives the game up: its side is last. Applies to the table as it is."""
    seat = _seat_of(by)

    def build(table: Table) -> list[dict[str, Any]]:
        _still_played(table)
        return [{"type": timeline.RESIGN, "seat": seat, "reason": RESIGNED, "by": by}]

    return _command(game_id, command_id, by, build)


def absent_seat(table: Table, claimant: int, now: datetime) -> int | None:
    """A seat of another side than ``claimant``'s that has been gone for the table's ``absent_after``
    seconds (the first such seat), or None. Computers never leave; a connected seat is never gone."""
    game = table.game
    teams = sides(table.engine, game.config)
    mine = next(team for team in teams if claimant in team)
    computers = table.computer_seats()
    wait = timedelta(seconds=game.absent_after)
    for seat in range(int(game.config["players"])):
        if seat in mine or seat in computers:
            continue
        since = presence.absent_since(game.pk, seat, last_move_at=_last_move(table, seat) or game.created_at)
        if since is not None and now - since >= wait:
            return seat
    return None


def _last_move(table: Table, seat: int) -> datetime | None:
    actor = f"seat:{seat}"
    for event in reversed(table.events):
        if event.actor == actor:
            return event.created_at  # type: ignore[no-any-return]
    return None


def claim(
    game_id: int, command_id: Any, expected_seq: Any = None, *, by: str, now: datetime | None = None
) -> Result:
    """Seat ``by`` claims the game of an opponent who left (rated and tournament tables): that seat's
    side is last. Refused (``not_absent``) while every opponent is connected or gone for less time."""
    seat = _seat_of(by)

    def build(table: Table) -> list[dict[str, Any]]:
        _still_played(table)
        if not table.game.is_rated:
            raise Forbidden(
                "not_rated",
                _("Only at rated and tournament tables can the game of a player who left be claimed."),
            )
        gone = absent_seat(table, seat, now or timezone.now())
        if gone is None:
            raise ServiceError(
                "not_absent",
                _("No opponent has been away for {seconds} seconds: wait, or keep playing."),
                seconds=table.game.absent_after,
            )
        return [{"type": timeline.RESIGN, "seat": gone, "reason": LEFT, "by": by}]

    return _command(game_id, command_id, by, build)
