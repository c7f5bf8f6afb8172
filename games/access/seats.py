"""Which seats of a game a requester holds, and whether they may see its table at all (``may_see``:
a secret duplicate deal's table is not there for outsiders): the one answer for the table page, the
hint, the table socket, the HTTP API and replays (docs/security.md "Seat credentials").

A seat is held in one of three ways:
- by its signed-in user (a person's seat, not a computer's);
- by its credential (``Seat.token``) kept in the browser's session: the guest who made the table or
  claimed an invite, a pass-and-play device. The browser never sees it: pages and sockets are
  authorised by the session, so it is in no page, no address and no log;
- by its credential presented by a script in the ``X-Seat-Token`` header (the HTTP API, the table
  socket's handshake). A request that presents one is decided by it alone, the session unread, so
  that a credential cannot ride on a forged cross-site request (docs/security.md "Forged requests").

An open seat (waiting for a friend's claim) is held by nobody: its credential was never given out, and
the claim replaces it (games/access/invites.py). Credentials are compared in constant time.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db.models import Exists, OuterRef, Q, QuerySet

from games.models import Game, Seat

Rows = TypeVar("Rows", bound=QuerySet[Any])
SESSION_KEY = "seat_tokens"
TOKEN_HEADER = "X-Seat-Token"
_SCOPE_HEADER = TOKEN_HEADER.lower().encode()


@dataclass(frozen=True)
class Requester:
    """Who asks: their signed-in user, the credentials their session keeps, the credential they
    present (``None``: none presented; the session decides)."""

    user: Any = None
    kept: Mapping[str, Any] = field(default_factory=dict)
    token: str | None = None

    @classmethod
    def of_request(cls, request: Any, *, header: bool = True) -> Requester:
        """An HTTP request. ``header``: whether a presented credential counts (the pages of a browser
        are authorised by its session only)."""
        token = request.headers.get(TOKEN_HEADER) if header else None
        return cls(getattr(request, "user", None), _kept(getattr(request, "session", None)), token or None)

    @classmethod
    def of_scope(cls, scope: Mapping[str, Any]) -> Requester:
        """A socket's handshake: the session and user Channels' AuthMiddlewareStack read, and the
        header a script sends (a browser cannot send one: its session speaks for it)."""
        token = None
        for name, value in scope.get("headers") or []:
            if name.lower() == _SCOPE_HEADER:
                token = value.decode("latin-1") or None  # never fails: any bytes are latin-1
                break
        return cls(scope.get("user"), _kept(scope.get("session")), token)

    @property
    def user_id(self) -> int | None:
        user = self.user
        return user.pk if user is not None and user.is_authenticated else None


def _kept(session: Any) -> Mapping[str, Any]:
    try:
        kept = session.get(SESSION_KEY) if session is not None else None
    except AttributeError:
        return {}
    return kept if isinstance(kept, dict) else {}


def same_credential(given: Any, stored: str) -> bool:
    """Whether ``given`` is the credential ``stored``, in time that does not depend on where they differ."""
    if not isinstance(given, str) or not given:
        return False
    return secrets.compare_digest(given.encode("utf-8", "replace"), stored.encode())


def held(requester: Requester, game: Game) -> dict[int, Seat]:
    """The seats of ``game`` the requester holds, by number (in order)."""
    return held_among(requester, Seat.objects.filter(game=game).order_by("number"))


def held_among(requester: Requester, seats: Iterable[Seat]) -> dict[int, Seat]:
    """The seats among ``seats`` (one game's, already loaded: the lobby's) the requester holds."""
    mine: dict[int, Seat] = {}
    user_id = requester.user_id
    for seat in seats:
        if seat.awaiting_player:
            continue  # an open seat is nobody's until it is claimed
        if requester.token is not None:
            holds = same_credential(requester.token, seat.token)
        else:
            kept = requester.kept.get(str(seat.game_id))
            kept = kept if isinstance(kept, dict) else {}
            holds = (user_id is not None and seat.user_id == user_id and not seat.is_bot) or (
                same_credential(kept.get(str(seat.number)), seat.token)
            )
        if holds:
            mine[seat.number] = seat
    return mine


def clubs_of(user: Any) -> frozenset[int]:
    """The ids of the clubs ``user`` belongs to (``CLUBS``: the app that keeps clubs answers)."""
    if user is None or not user.is_authenticated:
        return frozenset()
    found: frozenset[int] = frozenset()
    for hook in CLUBS:
        found |= hook(user)
    return found


def in_club(requester: Requester, game: Game) -> bool:
    """Whether ``requester`` may see a club-only table (#33): a member of its club, one of its seated
    players, or staff. Any table of no club: yes."""
    if game.club_id is None:
        return True
    user = requester.user
    if user is not None and user.is_authenticated and (user.is_staff or game.club_id in clubs_of(user)):
        return True
    return bool(held(requester, game))


def seen_by(user: Any, rows: Rows, clubs: frozenset[int] | None = None) -> Rows:
    """``rows`` without the club-only tables ``user`` may not see (``in_club``): the lobby's, the API's
    and a player page's lists. A player seated at one by their account sees it. ``clubs``: the user's
    ``clubs_of``, when the caller has read them already."""
    if user is not None and user.is_authenticated and user.is_staff:
        return rows
    visible = Q(club_id__isnull=True)
    if user is not None and user.is_authenticated:
        mine = Seat.objects.filter(game=OuterRef("pk"), user=user, bot_level="")
        visible |= Q(club_id__in=clubs_of(user) if clubs is None else clubs) | Q(Exists(mine))
    return rows.filter(visible)


def may_see(requester: Requester, game: Game) -> bool:
    """Whether ``requester`` may know that ``game``'s table exists at all.

    A club-only table is its club's members', seated players' and staff's only (``in_club``); to
    anyone else it is not there, on every path, as an id no table has.

    A table dealt a duplicate deal not released yet (``Game.deal_is_secret``) is its seated players',
    its organiser's (who made the table, or the tournament it is played for: ``ORGANISES``) and
    staff's only. To anyone else it is not there, on every path, with the answer an id no table has
    gets: that it exists — a best-of-3's third game, say — tells another match's withheld result
    (#37), and game ids are sequential. Read afresh: a release opens the table at once.
    """
    if not in_club(requester, game):
        return False
    if not game.deal_is_secret():
        return True
    user = requester.user
    if user is not None and user.is_authenticated:
        if user.is_staff or game.created_by_id == user.pk:
            return True
        if any(organises(game, user) for organises in ORGANISES):
            return True
    return bool(held(requester, game))


#: The ids of the clubs a user belongs to (tournaments keeps clubs and their members and registers
#: here, so games imports no other app).
CLUBS: list[Callable[[Any], frozenset[int]]] = []

#: Whether a user organises a game another app made for them (a tournament's table: the tournament
#: made it, its organiser runs it). The apps above register here, so games imports none of them.
ORGANISES: list[Callable[[Game, Any], bool]] = []


def holds(requester: Requester, game: Game, number: Any) -> Seat | None:
    """The seat ``number`` if the requester holds it, else None (whatever ``number`` is)."""
    if isinstance(number, bool) or not isinstance(number, int):
        return None
    return held(requester, game).get(number)


def remember(session: Any, seat: Seat) -> None:
    """Keep ``seat``'s credential in the browser's session (a guest's table, a claim, pass-and-play)."""
    kept = session.get(SESSION_KEY)
    kept = dict(kept) if isinstance(kept, dict) else {}
    game = kept.get(str(seat.game_id))
    kept[str(seat.game_id)] = {**(game if isinstance(game, dict) else {}), str(seat.number): seat.token}
    session[SESSION_KEY] = kept


def parse_number(value: Any) -> int | None:
    """A seat number as an address writes it (``?seat=2``): ASCII digits only, else None."""
    from games import bounds

    if not isinstance(value, str):
        return None
    number = bounds.read_int(value)
    return number if number is not None and bounds.SEAT.accepts(number) else None
