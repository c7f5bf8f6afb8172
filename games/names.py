"""What seats are called on a page, in the reader's language (the table, the lobby, replays)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Seat

BOT_LEVELS = {
    "random": gettext_lazy("Beginner"),
    "greedy": gettext_lazy("Easy"),
    "strong": gettext_lazy("Strong"),
}


def computer_name(number: int, level: str) -> str:
    """A computer seat's name in the active language: "Computer 2 (Easy)", "Òdinatè 2 (fasil)"."""
    return _("Computer %(n)s (%(level)s)") % {"n": number + 1, "level": BOT_LEVELS.get(level, level)}


def guest_name(number: int) -> str:
    """The name of a seat taken by a guest (nobody signed in), stored in the guest's language."""
    return _("Guest %(n)s") % {"n": number + 1}


def seat_name(seat: Seat) -> str:
    """How a seat is called on a page. Computer seats and open seats are named in the reader's
    language (the name stored with the seat is in the language of whoever made the table); people
    keep their name."""
    if seat.bot_level:
        return computer_name(seat.number, seat.bot_level)
    if seat.awaiting_player:
        return _("Open seat")
    return seat.display_name
