"""What seats are called on a page, in the reader's language (the table, the lobby, replays)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import computers
from games.models import Seat

BOT_LEVELS = computers.LEVEL_NAMES


def guest_name(number: int) -> str:
    """The name of a seat taken by a guest (nobody signed in), stored in the guest's language."""
    return _("Guest %(n)s") % {"n": number + 1}


def seat_name(seat: Seat) -> str:
    """How a seat is called on a page. Computer seats and open seats are named in the reader's
    language, computers by their number and level ("Computer 3 (Strong)": a tournament's entrant
    keeps its own number at its tables); people keep their name."""
    if seat.bot_level:
        return computers.name(seat.bot_number or seat.number + 1, seat.bot_level)
    if seat.awaiting_player:
        return _("Open seat")
    return seat.display_name
