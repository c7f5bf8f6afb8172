"""What seats are called on a page, in the reader's language (the table, the lobby, replays)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Seat
from games.words import computers

BOT_LEVELS = computers.LEVEL_NAMES

GUEST = "guest"
PLAYER = "player"
ROLES = (GUEST, PLAYER)


def role_name(role: str, number: int) -> str:
    """A seat called by its role and number ("Guest 2", "Player 3") in the active language."""
    if role == GUEST:
        return _("Guest %(n)s") % {"n": number + 1}
    return _("Player %(n)s") % {"n": number + 1}


def stored_name(role: str, number: int) -> str:
    """The English name kept in ``display_name`` for logs and exports: pages translate the role."""
    with translation.override("en"):
        return role_name(role, number)


def guest_name(number: int) -> str:
    """The name of a seat taken by a guest (nobody signed in), in the active language."""
    return role_name(GUEST, number)


def seat_name(seat: Seat) -> str:
    """How a seat is called on a page. Computer seats, open seats and seats without a name of their
    own (a guest's, another player's on this device) are named in the reader's language, computers
    by their number and level ("Computer 3 (Strong)": a tournament's entrant keeps its own number at
    its tables); people keep their name."""
    if seat.bot_level:
        return computers.name(seat.bot_number or seat.number + 1, seat.bot_level)
    if seat.awaiting_player:
        return _("Open seat")
    if seat.name_role in ROLES:
        return role_name(seat.name_role, seat.number)
    return seat.display_name
