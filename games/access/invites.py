"""Invites: single-use claims on an open seat, distinct from the seat's credential.

An open ("friend") seat gets an invite when the table is made; its link, /tables/ID/invite/CODE/, is
shown to the players seated at that table while the seat is open. The code is no credential: it
plays nothing and shows no hand. It can be claimed once, by a POST (link previews only GET it), while
the seat is open, the game is being played and the invite has not expired. The claim gives the seat a
new credential, which goes to the claimer's session only (games/access/seats.py): whatever an old link, a log
or a page ever carried holds nothing. (An open seat is held by nobody, so no socket or script was
playing it with the credential the claim replaces.)
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.access import seats
from games.engines.base import _
from games.errors import ServiceError
from games.eventlog import tables
from games.live import publish
from games.models import Game, Invite, Seat
from games.words import names

# A link found in an old chat or log a week later should not open a seat: an open seat whose invite
# has expired gets a fresh one when a player at the table next opens its page (``current``).
LIFETIME = timedelta(days=7)
MAX_CODE = 64  # codes are 43 characters (secrets.token_urlsafe()): anything longer is no code


class Gone(ServiceError):
    """The invite exists, or existed, and can no longer be claimed."""

    status = 410


class UnknownInvite(ServiceError):
    status = 404


class AlreadySeated(ServiceError):
    """A signed-in player who plays a seat of this table asked for another (one person, one seat)."""

    status = 409


TAKEN = _("This seat is taken.")
EXPIRED = _("This invite has expired: ask the players at the table for a new link.")
GAME_OVER = _("This game is over.")
UNKNOWN = _("There is no such invite.")
SEATED = _("You already play a seat at this table.")
OLD_LINK = _("This invite link no longer works: ask the players at the table for a new one.")


def create(seat: Seat) -> Invite:
    now = timezone.now()
    return Invite.objects.create(seat=seat, created_at=now, expires_at=now + LIFETIME)


def current(game: Game) -> list[Invite]:
    """The invite of each open seat of a game being played, in seat order: the last unused one that
    has not expired, or a fresh one when it has."""
    if game.status != Game.Status.ACTIVE:
        return []
    now = timezone.now()
    invites = []
    for seat in Seat.objects.filter(game=game, awaiting_player=True).order_by("number"):
        invite = (
            Invite.objects.filter(seat=seat, used_at__isnull=True, expires_at__gt=now)
            .order_by("-expires_at")
            .first()
        )
        invites.append(invite or create(seat))
    return invites


def _find(game_id: int, code: Any, *, lock: bool = False) -> Invite:
    if not isinstance(code, str) or not code or len(code) > MAX_CODE:
        raise UnknownInvite("unknown_invite", UNKNOWN)
    rows = Invite.objects.select_related("seat", "seat__game")
    if lock:
        rows = rows.select_for_update(of=("self",))  # the invite's row, not its table's
    invite = rows.filter(code=code).first()
    # The table is compared here, not in the query: a table number past the database's integers
    # (the address takes any digits) must be an unknown invite, not an overflow.
    if invite is None or invite.seat.game_id != game_id:
        raise UnknownInvite("unknown_invite", UNKNOWN)
    return invite


def _check(invite: Invite) -> None:
    """Raise Gone unless the invite can be claimed now."""
    if invite.seat.game.status != Game.Status.ACTIVE:
        raise Gone("game_over", GAME_OVER)
    if invite.used_at is not None or not invite.seat.awaiting_player:
        raise Gone("seat_taken", TAKEN)
    if invite.expires_at <= timezone.now():
        raise Gone("invite_expired", EXPIRED)


def _for_members(invite: Invite, user: Any) -> None:
    """A club-only table's seats are its club's members' (#33): to anyone else its invite is no
    invite, as for a table that does not exist (no hint that it does)."""
    if not seats.in_club(seats.Requester(user), invite.seat.game):
        raise UnknownInvite("unknown_invite", UNKNOWN)


def open_seat(game_id: int, code: Any, *, user: Any = None) -> Seat:
    """The seat an invite offers, if it can be claimed now (UnknownInvite or Gone otherwise).
    Reads only: opening a link never takes the seat."""
    invite = _find(game_id, code)
    _for_members(invite, user)
    _check(invite)
    return invite.seat


def claim(game_id: int, code: Any, *, user: Any, one_seat: bool = False) -> Seat:
    """Take the seat an invite offers, for ``user`` (signed in, or a guest), and give it a new
    credential; the returned seat carries it, for the claimer's session only.

    One transaction, the invite and the seat locked: of two claims at once, the second waits, then
    finds the invite used and gets ``seat_taken``. ``one_seat`` (the lobby's open seats): a signed-in
    user who already plays a seat of this table is refused (``already_seated``); the table's row is
    locked first, so two of their claims at once are decided one after the other.
    """
    with transaction.atomic():
        signed_in = user is not None and user.is_authenticated
        if one_seat and signed_in:
            # Locked before the invite and the seat (every claim locks in this order: no deadlock).
            Game.objects.select_for_update().filter(pk=game_id).first()
        invite = _find(game_id, code, lock=True)
        seat = Seat.objects.select_for_update(of=("self",)).select_related("game").get(pk=invite.seat_id)
        invite.seat = seat  # read again under the lock
        _for_members(invite, user)
        _check(invite)
        if one_seat and signed_in and Seat.objects.filter(game_id=game_id, user=user, bot_level="").exists():
            raise AlreadySeated("already_seated", SEATED)
        now = timezone.now()
        invite.used_at = now
        invite.save(update_fields=["used_at"])
        # Any other invite to this seat (an expired one renewed) dies with it.
        Invite.objects.filter(seat=seat, used_at__isnull=True).update(used_at=now)
        seat.awaiting_player = False
        seat.open_to_all = False
        if user is not None and user.is_authenticated:
            seat.user = user
            seat.display_name = user.get_username()
            seat.name_role = ""
        else:
            seat.display_name = names.stored_name(names.GUEST, seat.number)
            seat.name_role = names.GUEST
        seat.token = secrets.token_urlsafe()
        seat.save(
            update_fields=["awaiting_player", "open_to_all", "user", "display_name", "name_role", "token"]
        )
        # This process's kept fold knows the seats as they were: forget it (games/eventlog/tables.py).
        transaction.on_commit(partial(tables.invalidate, seat.game_id))
        # The pages already open at this table name the seat as it was ("Open seat"): they read it again.
        transaction.on_commit(partial(publish.seats_changed, seat.game_id, seat.game.config["players"]))
    return seat


def take_open(game_id: int, *, user: Any, number: int | None = None) -> Seat:
    """Take a seat of this table that is open to all (the lobby's "Take the open seat", the API's
    join without a code): the first such seat, or seat ``number``. ``seat_taken`` when none is open,
    ``already_seated`` when ``user`` plays a seat of this table already."""
    wanted = Seat.objects.filter(game_id=game_id, awaiting_player=True, open_to_all=True).order_by("number")
    if number is not None:
        wanted = wanted.filter(number=number)
    row = wanted.select_related("game").first()
    if row is not None and not seats.in_club(seats.Requester(user), row.game):
        row = None  # a club-only table's seat, to a non-member: as at a table with none (#33)
    if row is None:
        raise Gone("seat_taken", _("No seat of this table is open to all: ask for an invite."))
    invite = next((i for i in current(row.game) if i.seat_id == row.pk), None)
    if invite is None:  # the game ended, or someone took the seat since it was read (a race: #33)
        if row.game.status != Game.Status.ACTIVE:
            raise Gone("game_over", GAME_OVER)
        raise Gone("seat_taken", TAKEN)
    return claim(game_id, invite.code, user=user, one_seat=True)
