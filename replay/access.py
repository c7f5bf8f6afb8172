"""Who is looking, from where they may look, and where a link lands.

Every decision about hidden information is ``frames.allowed``'s; this module only asks it. A viewer's
own seats are the ones they hold at the live table (``games.access.seats.held``: the signed-in user's seats
and the seat credentials their session keeps), so a replay never opens more than the live table did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games import bounds
from games.access import seats as seat_holders
from games.engines.base import _
from games.errors import ServiceError
from games.models import Game
from replay import frames
from replay.frames import ALL, PUBLIC, NotAllowed, Replay

Perspective = str | int

# Why a perspective was refused (the codes of frames.NotAllowed), in words a player understands.
REASONS: dict[str, str] = {
    "no_such_moment": _("There is no such moment in this game."),
    "not_public_yet": _("Spectators cannot see this moment yet."),
    "hand_not_over": _("All cards are shown only once the game is over."),
    "no_such_seat": _("There is no such seat at this table."),
    "not_your_seat": _("While the game is being played you can only look from your own seat."),
}
FALLBACK = _("You see what spectators saw.")
BAD_PERSPECTIVE = _("Choose a seat, the spectators, or all cards open.")
BAD_LINK = _("This link names no moment of this game.")


@dataclass(frozen=True)
class Viewer:
    """One person looking at a replay: their account (if signed in) and the seats they play."""

    user_id: int | None
    seats: frozenset[int]
    staff: bool = False

    def moderates(self, game: Game) -> bool:
        """Staff and whoever made the table may hide comments."""
        return self.staff or (self.user_id is not None and game.created_by_id == self.user_id)


def viewer_of(requester: seat_holders.Requester, game: Game) -> Viewer:
    """The viewer behind a request or a socket's handshake (``Requester.of_request``, ``of_scope``).
    Touches the database: call it from synchronous code."""
    user = requester.user
    seats = frozenset(seat_holders.held(requester, game))
    if requester.user_id is None:
        return Viewer(user_id=None, seats=seats)
    return Viewer(user_id=requester.user_id, seats=seats, staff=bool(user.is_staff))


def refusal(code: str) -> ServiceError:
    """A NotAllowed code as an error with its sentence."""
    return ServiceError(code, REASONS.get(code, REASONS["no_such_moment"]))


def parse_perspective(value: Any) -> Perspective:
    """ "public", "all", or a seat number (an int, or its digits as a string, as links write it)."""
    if value in (PUBLIC, ALL):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    # isdigit() alone lets "²" through, which int() refuses: only ASCII digits are a seat.
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2:
        return int(value)
    raise ServiceError("bad_perspective", BAD_PERSPECTIVE)


def may_see(replay: Replay, perspective: Perspective, index: int, viewer: Viewer) -> str | None:
    """None when the viewer may see ``perspective`` at ``index``, else the refusal's code."""
    try:
        frames.allowed(replay, perspective, index, viewer.seats)
    except NotAllowed as exc:
        return str(exc.args[0]) if exc.args else "no_such_moment"
    return None


def last_visible(replay: Replay, viewer: Viewer) -> int:
    """The last moment this viewer may see from some perspective (now, for a live game)."""
    last = len(replay.moments) - 1
    if replay.finished or any(may_see(replay, seat, last, viewer) is None for seat in viewer.seats):
        return last
    return min(replay.public_upto, last)


def offered(replay: Replay, viewer: Viewer) -> list[Perspective]:
    """The perspectives to offer this viewer: each seat, the spectators, all cards open — those
    ``frames.allowed`` lets them take somewhere in the game."""
    last = last_visible(replay, viewer)
    choices: list[Perspective] = [*range(replay.players), PUBLIC, ALL]
    return [p for p in choices if may_see(replay, p, last if p == ALL else 0, viewer) is None]


def hand_spans(replay: Replay) -> list[tuple[int, int, int]]:
    """``Replay.hands()`` with the moments before the first deal (hand 0: the setup event) counted
    in the first hand: they are the first half of the opening command, never shown on their own."""
    spans = replay.hands()
    if len(spans) > 1 and spans[0][0] == 0:
        (_, first, _), (hand, _, end) = spans[0], spans[1]
        spans = [(hand, first, end), *spans[2:]]
    return spans


def hand_at(replay: Replay, index: int) -> int:
    return next((hand for hand, first, end in hand_spans(replay) if first <= index <= end), 0)


def visible_hands(replay: Replay, viewer: Viewer) -> list[tuple[int, int, int]]:
    """The hands (number, first index, last index) this viewer may step through, cut at what
    they may see now."""
    last = last_visible(replay, viewer)
    return [(hand, first, min(end, last)) for hand, first, end in hand_spans(replay) if first <= last]


@dataclass(frozen=True)
class Position:
    index: int
    perspective: Perspective
    notice: str | None = None  # why the viewer does not see what was asked (a NotAllowed code)

    def seq(self, replay: Replay) -> int:
        return replay.moments[self.index].seq

    def hand(self, replay: Replay) -> int:
        return hand_at(replay, self.index)


def default_perspective(viewer: Viewer, replay: Replay) -> Perspective:
    """A player looks from their own seat first ("what did I know here?"); others as spectators."""
    for seat in sorted(viewer.seats):
        if 0 <= seat < replay.players:
            return seat
    return PUBLIC


def settle(replay: Replay, viewer: Viewer, index: int, perspective: Perspective) -> Position:
    """The position to show when ``perspective`` at ``index`` is asked for: that, if allowed;
    otherwise the spectators' picture there (or at the last moment spectators may see now)."""
    index = max(0, min(index, len(replay.moments) - 1))
    why = may_see(replay, perspective, index, viewer)
    if why is None:
        return Position(index, perspective)
    if may_see(replay, PUBLIC, index, viewer) is None:
        return Position(index, PUBLIC, why)
    return Position(min(replay.public_upto, index), PUBLIC, why)


def land(replay: Replay, viewer: Viewer, at: Any, as_: Any) -> Position:
    """Where a link (``?at=SEQ&as=PERSPECTIVE``) lands. Bad values are ignored with a notice."""
    notice = None
    perspective = default_perspective(viewer, replay)
    if as_ not in (None, ""):
        try:
            perspective = parse_perspective(as_)
        except ServiceError as exc:
            notice = exc.code
    start = 0 if replay.finished else last_visible(replay, viewer)
    index = start
    if at not in (None, ""):
        seq = bounds.read_int(at)
        if seq is None or not bounds.SEQ.accepts(seq):
            notice = notice or "bad_seq"
        else:
            index = replay.index_of(seq)
    position = settle(replay, viewer, index, perspective)
    return Position(position.index, position.perspective, position.notice or notice)


def notice_text(code: str | None) -> str:
    """A notice about a refused perspective: why, and what is shown instead."""
    if code is None:
        return ""
    if code == "bad_perspective":
        return gettext(BAD_PERSPECTIVE)
    if code == "bad_seq":
        return gettext(BAD_LINK)
    return f"{gettext(REASONS.get(code, REASONS['no_such_moment']))} {gettext(FALLBACK)}"
