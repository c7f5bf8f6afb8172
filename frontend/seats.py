"""Which seats this browser may play: its signed-in user's seats and the seat tokens in its session.

Guests (and pass-and-play devices) hold seat tokens in their session; nothing else identifies them.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _

from games import computers
from games.models import Game, Seat

SESSION_KEY = "seat_tokens"

BOT_LEVELS = computers.LEVEL_NAMES


def seat_name(seat: Seat) -> str:
    """How a seat is called on a page. Computer seats and open seats are named in the reader's
    language, computers by their number and level ("Computer 3 (Strong)": a tournament's entrant
    keeps its own number at its tables); people keep their name."""
    if seat.bot_level:
        return computers.name(seat.bot_number or seat.number + 1, seat.bot_level)
    if seat.awaiting_player:
        return _("Open seat")
    return seat.display_name


def remember(request: HttpRequest, seat: Seat) -> None:
    tokens = request.session.get(SESSION_KEY, {})
    tokens.setdefault(str(seat.game_id), {})[str(seat.number)] = seat.token
    request.session[SESSION_KEY] = tokens


def my_seats(request: HttpRequest, game: Game) -> dict[int, str]:
    """Seat number → token for every seat this browser plays at ``game``."""
    held = request.session.get(SESSION_KEY, {}).get(str(game.pk), {})
    seats = {s.number: s for s in game.seats.all()}
    mine = {int(n): t for n, t in held.items() if int(n) in seats and seats[int(n)].token == t}
    if request.user.is_authenticated:
        for seat in seats.values():
            if seat.user_id == request.user.pk and not seat.is_bot:
                mine[seat.number] = seat.token
    return dict(sorted(mine.items()))
