"""Every HTTP endpoint of the site, how to call it, and what each role gets (docs/security.md).

``ENDPOINTS`` is the authorisation matrix: one row per URL name and method (some URLs have a row per
kind of table). ``test_every_url_is_in_the_matrix`` fails when a URL appears that no row covers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.eventlog import queries, store, streams
from games.models import ApiToken, Game, Seat, Seek
from replay.models import Annotation, Room, RoomMember
from seasons import log as season_log
from tournaments.models import Club, Entry, Match, Member, Tournament

from .world import ROLES, World, api_headers, v1_headers


@dataclass(frozen=True)
class Expect:
    """What one role gets: a status; for JSON refusals, the error code; ``login``: a redirect to
    the sign-in page; ``changes``: whether the row's effect is seen (None: decided by the status)."""

    status: int
    code: str | None = None
    login: bool = False
    changes: bool | None = None

    def should_change(self) -> bool:
        if self.changes is not None:
            return self.changes
        return self.status < 400 and not self.login and self.code is None


OK = Expect(200)
SHOWN = Expect(200, changes=False)  # the page shows, and changes nothing
CREATED = Expect(201)
FOUND = Expect(302)
LOGIN = Expect(302, login=True)
NOT_FOUND = Expect(404)
NO_HINT = Expect(403, "no_hint")
GONE = Expect(410)  # an invite that can no longer be claimed: the page says why, nothing changes


def refused(status: int, code: str) -> Expect:
    return Expect(status, code)


def cells(default: Expect | None = None, **roles: Expect) -> dict[str, Expect]:
    """A row of the matrix: ``default`` for every role not named."""
    assert set(roles) <= set(ROLES), set(roles) - set(ROLES)
    row = {role: roles.get(role, default) for role in ROLES}
    assert all(e is not None for e in row.values()), "a row must give every role an outcome"
    return row  # type: ignore[return-value]


SEAT_ONLY = {"owner": OK, "guest": OK}


@dataclass(frozen=True)
class Endpoint:
    name: str  # the URL's name, with its namespace
    method: str
    url: Callable[[World], str]
    expect: dict[str, Expect]
    label: str = ""
    data: Callable[[World], Any] | None = None
    json_body: bool = False
    headers: Callable[[World, str], dict[str, str]] = field(default=lambda world, role: {})
    effect: Callable[[World], Any] | None = None  # a snapshot of what the row may change

    @property
    def id(self) -> str:
        return f"{self.method} {self.name}{' ' + self.label if self.label else ''}"


def _move(world: World) -> str:
    game = world.live
    return json.dumps(
        {
            "seat": 0,
            "action": {"type": "add", "n": 1},
            "command_id": "m1",
            "expected_seq": store.head(game.pk)[0],
        }
    )


def _open_seat(world: World) -> Any:
    """Seat 1 of the invite table: whether it is open, and who holds it by which credential."""
    return (
        Seat.objects.filter(game=world.invite, number=1).values_list("awaiting_player", "user", "token").get()
    )


def _owners_wait(world: World) -> int:
    """The owner's Play now, waiting (made when a row asks for it; a key of this world's own, so that
    no other world's player is seated with it)."""
    seek = getattr(world, "the_wait", None)
    if seek is None:
        now = timezone.now()
        seek = Seek.objects.create(
            user=world.users["owner"],
            engine="tiny",
            config={"players": 2, "goal": 50},
            kind="casual",
            key=f"matrix-{world.live.pk}",
            expires_at=now + timedelta(minutes=10),
        )
        world.the_wait = seek  # type: ignore[attr-defined]
    return seek.pk


def _wait_status(world: World) -> Any:
    return Seek.objects.filter(pk=_owners_wait(world)).values_list("status", flat=True).get()


def _claimed_seat(world: World) -> Any:
    return Seat.objects.filter(game=world.invite, number=2).values_list("user", "display_name", "token").get()


def _live_seat_0(world: World) -> Any:
    return Seat.objects.filter(game=world.live, number=0).values_list("user", "display_name", "token").get()


def _head(game: Callable[[World], Game]) -> Callable[[World], Any]:
    return lambda world: store.head(game(world).pk)


def _members(world: World) -> Any:
    return sorted(Member.objects.filter(club=world.club()).values_list("user_id", "role"))


# An organiser's button of the club: the organiser and staff may; the owner (a member) is refused; to
# anyone else it is a club that does not exist.
_ORGANISERS_ONLY = cells(
    NOT_FOUND, organiser=FOUND, staff=FOUND, owner=Expect(403), guest=LOGIN, anonymous=LOGIN
)


def _season_head(world: World) -> Any:
    """The head of the season's own stream: every change of a season is an event appended to it."""
    return store.head(world.season())


def _cup_head(world: World) -> Any:
    """The head of the held cup's log: every clock action is an event appended to it."""
    return store.head(world.held_cup().stream_id)


def _season_form(world: World) -> dict[str, Any]:
    return {
        "name": "Renamed Season",
        "start": "2026-01-01",
        "end": "2026-12-31",
        "games": ["kazino"],
        "scoring": "table",
        "table": "10, 5",
        "tie_break_1": "wins",
    }


FORBIDDEN = Expect(403, changes=False)  # a page's plain refusal: nothing changed


ENDPOINTS: list[Endpoint] = [
    # --- The JSON API (games/api.py): a seat's token or its signed-in user ---------------------------
    Endpoint(
        "games:submit",
        "POST",
        lambda w: f"/api/games/{w.live.pk}/actions",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        data=_move,
        json_body=True,
        headers=lambda w, role: api_headers(w, role, w.live),
        effect=_head(lambda w: w.live),
    ),
    Endpoint(
        "games:state",
        "GET",
        lambda w: f"/api/games/{w.live.pk}/state?seat=0",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="of seat 0",
        headers=lambda w, role: api_headers(w, role, w.live),
    ),
    Endpoint("games:state", "GET", lambda w: f"/api/games/{w.live.pk}/state", cells(OK), label="public"),
    Endpoint(
        "games:no_such_game",
        "POST",
        lambda w: "/api/games/99999999999999999999/actions",
        cells(refused(404, "unknown_game")),
        label="an id past 64 bits",
        data=_move,
        json_body=True,
        headers=lambda w, role: api_headers(w, role, w.live),
    ),
    Endpoint(
        "games:no_such_game",
        "GET",
        lambda w: "/api/games/99999999999999999999/state?seat=0",
        cells(refused(404, "unknown_game")),
        label="an id past 64 bits",
        headers=lambda w, role: api_headers(w, role, w.live),
    ),
    # --- The public API, version 1 (frontend/api/): a personal token of some scopes, or (guest) seat 0's
    # credential; the session is never read, so no role is anything by its cookie alone. ------------------
    Endpoint("api_v1:openapi-json", "GET", lambda w: "/api/v1/schema", cells(OK)),
    Endpoint("api_v1:api-root", "GET", lambda w: "/api/v1/", cells(NOT_FOUND)),
    Endpoint(
        "api_v1:me",
        "GET",
        lambda w: "/api/v1/me",
        cells(OK, guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")),
        headers=v1_headers("read"),
    ),
    Endpoint("api_v1:lobby", "GET", lambda w: "/api/v1/lobby", cells(OK), headers=v1_headers("read")),
    Endpoint(
        "api_v1:create",
        "POST",
        lambda w: "/api/v1/tables",
        cells(CREATED, guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")),
        label="with a play token",
        data=lambda w: json.dumps({"game": "dominoes", "seats": [{"kind": "me"}, {"kind": "computer"}]}),
        json_body=True,
        headers=v1_headers("play"),
        effect=lambda w: Game.objects.count(),
    ),
    Endpoint(
        "api_v1:create",
        "POST",
        lambda w: "/api/v1/tables",
        cells(
            refused(403, "missing_scope"), guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")
        ),
        label="with a read and organise token",
        data=lambda w: json.dumps({"game": "dominoes", "seats": [{"kind": "me"}, {"kind": "computer"}]}),
        json_body=True,
        headers=v1_headers("read", "organise"),
        effect=lambda w: Game.objects.count(),
    ),
    Endpoint(
        "api_v1:join",
        "POST",
        lambda w: f"/api/v1/tables/{w.invite.pk}/join",
        # Seat 1 is kept by invite, not open to all: without its code nobody takes it.
        cells(refused(410, "seat_taken"), guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")),
        label="an invite's seat without its code",
        data=lambda w: json.dumps({}),
        json_body=True,
        headers=v1_headers("play"),
        effect=_open_seat,
    ),
    Endpoint(
        "api_v1:join",
        "POST",
        lambda w: f"/api/v1/tables/{w.invite.pk}/join",
        cells(OK, guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")),
        label="with the invite's code",
        data=lambda w: json.dumps({"code": w.invite_codes[1]}),
        json_body=True,
        headers=v1_headers("play"),
        effect=_open_seat,
    ),
    Endpoint(
        "api_v1:join",
        "POST",
        lambda w: f"/api/v1/tables/{w.invite.pk}/join",
        cells(
            refused(403, "missing_scope"), guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")
        ),
        label="with a read token",
        data=lambda w: json.dumps({"code": w.invite_codes[1]}),
        json_body=True,
        headers=v1_headers("read"),
        effect=_open_seat,
    ),
    Endpoint(
        "api_v1:state",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/state?seat=0",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="of seat 0 with a read token",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:state",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/state?seat=0",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="of seat 0 with a play token",
        headers=v1_headers("play"),
    ),
    Endpoint(
        "api_v1:state",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/state?seat=0",
        cells(refused(403, "missing_scope"), guest=OK, anonymous=refused(403, "not_your_seat")),
        label="of seat 0 with an organise token",
        headers=v1_headers("organise"),
    ),
    Endpoint(
        "api_v1:state",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/state",
        cells(OK),
        label="public",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:stream",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/stream?seat=0",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="of seat 0 with a read token",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:stream",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/stream",
        cells(OK),
        label="public",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:updates",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/updates?since=0&seat=0",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="of seat 0 with a read token",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:updates",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/updates?since=0",
        cells(OK),
        label="the spectators'",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:act",
        "POST",
        lambda w: f"/api/v1/tables/{w.live.pk}/actions",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="for seat 0 with a play token",
        data=_move,
        json_body=True,
        headers=v1_headers("play"),
        effect=_head(lambda w: w.live),
    ),
    Endpoint(
        "api_v1:act",
        "POST",
        lambda w: f"/api/v1/tables/{w.live.pk}/actions",
        cells(refused(403, "missing_scope"), guest=OK, anonymous=refused(403, "not_your_seat")),
        label="for seat 0 with a read and organise token",
        data=_move,
        json_body=True,
        headers=v1_headers("read", "organise"),
        effect=_head(lambda w: w.live),
    ),
    Endpoint(
        "api_v1:resign",
        "POST",
        lambda w: f"/api/v1/tables/{w.live.pk}/resign",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="for seat 0 with a play token",
        data=lambda w: json.dumps({"seat": 0, "command_id": "r1"}),
        json_body=True,
        headers=v1_headers("play"),
        effect=_head(lambda w: w.live),
    ),
    Endpoint(
        "api_v1:claim",
        "POST",
        lambda w: f"/api/v1/tables/{w.live.pk}/claim",
        cells(
            refused(403, "not_your_seat"), owner=refused(403, "not_rated"), guest=refused(403, "not_rated")
        ),
        label="at a casual table, for seat 0 with a play token",
        data=lambda w: json.dumps({"seat": 0, "command_id": "c1"}),
        json_body=True,
        headers=v1_headers("play"),
        effect=_head(lambda w: w.live),
    ),
    Endpoint(
        "api_v1:tournaments",
        "GET",
        lambda w: "/api/v1/tournaments?status=finished",
        cells(OK),
        headers=v1_headers("read"),
    ),
    # Tournament creation and start (#37): the organise scope; start is the tournament's organiser's.
    Endpoint(
        "api_v1:tournaments",
        "POST",
        lambda w: "/api/v1/tournaments",
        cells(CREATED, guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")),
        label="create, with an organise token",
        data=lambda w: json.dumps({"name": "Matrix Cup", "game": "kazino"}),
        json_body=True,
        headers=v1_headers("organise"),
        effect=lambda w: Tournament.objects.count(),
    ),
    Endpoint(
        "api_v1:tournaments",
        "POST",
        lambda w: "/api/v1/tournaments",
        cells(
            refused(403, "missing_scope"), guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")
        ),
        label="create, with a play token",
        data=lambda w: json.dumps({"name": "Matrix Cup", "game": "kazino"}),
        json_body=True,
        headers=v1_headers("play", "read"),
        effect=lambda w: Tournament.objects.count(),
    ),
    Endpoint(
        "api_v1:tournament_start",
        "POST",
        lambda w: f"/api/v1/tournaments/{w.ready_cup().pk}/start",
        cells(
            refused(403, "not_organiser"),
            organiser=OK,
            staff=OK,
            guest=refused(401, "sign_in"),
            anonymous=refused(401, "sign_in"),
        ),
        label="with an organise token",
        json_body=True,
        headers=v1_headers("organise"),
        effect=lambda w: Tournament.objects.get(pk=w.ready_cup().pk).status,
    ),
    Endpoint(
        "api_v1:tournament_start",
        "POST",
        lambda w: f"/api/v1/tournaments/{w.ready_cup().pk}/start",
        cells(
            refused(403, "missing_scope"), guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")
        ),
        label="with a play token",
        json_body=True,
        headers=v1_headers("play", "read"),
        effect=lambda w: Tournament.objects.get(pk=w.ready_cup().pk).status,
    ),
    Endpoint(
        "api_v1:tournament_my_table",
        "GET",
        lambda w: f"/api/v1/tournaments/{w.held_cup().pk}/my-table",
        cells(
            refused(404, "no_table"),
            owner=OK,
            opponent=OK,
            guest=refused(401, "sign_in"),
            anonymous=refused(401, "sign_in"),
        ),
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:tournament",
        "GET",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}",
        cells(OK),
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:tournament_register",
        "POST",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/register",
        cells(OK, guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")),
        label="with a play token",
        data=lambda w: json.dumps({}),
        json_body=True,
        headers=v1_headers("play"),
        effect=lambda w: Entry.objects.filter(tournament=w.tournament).count(),
    ),
    Endpoint(
        "api_v1:tournament_register",
        "POST",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/register",
        cells(
            refused(403, "missing_scope"), guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")
        ),
        label="with a read token",
        data=lambda w: json.dumps({}),
        json_body=True,
        headers=v1_headers("read"),
        effect=lambda w: Entry.objects.filter(tournament=w.tournament).count(),
    ),
    Endpoint(
        "api_v1:season",
        "GET",
        lambda w: f"/api/v1/seasons/{w.season()}",
        cells(OK),
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:season",
        "GET",
        lambda w: "/api/v1/seasons/99999999999999999999",
        cells(refused(404, "unknown_season")),
        label="an id past 64 bits",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:season",
        "GET",
        lambda w: f"/api/v1/seasons/{w.live.pk}",
        cells(refused(404, "unknown_season")),
        label="of a table, not a season",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:ranking",
        "GET",
        lambda w: f"/api/v1/rankings/kazino?period=season&season={w.season()}&club={w.club().slug}",
        cells(OK),
        label="of a club's season",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:ranking",
        "GET",
        lambda w: "/api/v1/rankings/dominoes",
        cells(refused(404, "no_points_ranking")),
        label="of a game without points",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:history",
        "GET",
        lambda w: f"/api/v1/tables/{w.finished.pk}/history?perspective=public",
        cells(OK),
        label="public, of a finished game",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:history",
        "GET",
        lambda w: f"/api/v1/tables/{w.finished.pk}/history?perspective=1",
        cells(OK),
        label="a seat's, of a finished game",
        headers=v1_headers("read"),
    ),
    Endpoint(
        "api_v1:history",
        "GET",
        lambda w: f"/api/v1/tables/{w.finished.pk}/history?perspective=all",
        cells(
            refused(403, "not_organiser"),
            organiser=OK,
            staff=OK,
            guest=refused(401, "sign_in"),
            anonymous=refused(401, "sign_in"),
        ),
        label="all, with an organise token",
        headers=v1_headers("organise"),
    ),
    Endpoint(
        "api_v1:history",
        "GET",
        lambda w: f"/api/v1/tables/{w.finished.pk}/history?perspective=all",
        cells(
            refused(403, "missing_scope"), guest=refused(401, "sign_in"), anonymous=refused(401, "sign_in")
        ),
        label="all, with a read and play token",
        headers=v1_headers("read", "play"),
    ),
    Endpoint(
        "api_v1:history",
        "GET",
        lambda w: f"/api/v1/tables/{w.live.pk}/history?perspective=0",
        cells(refused(409, "game_not_over")),
        label="of a live game",
        headers=v1_headers("read"),
    ),
    # --- Tables (frontend/tables.py) ---------------------------------------------------------------------
    Endpoint("frontend:home", "GET", lambda w: "/", cells(OK)),
    Endpoint("frontend:choose_game", "GET", lambda w: "/new/", cells(OK)),
    Endpoint("frontend:new_table", "GET", lambda w: "/new/chess/", cells(NOT_FOUND), label="no such game"),
    Endpoint("frontend:new_table", "GET", lambda w: "/new/dominoes/", cells(OK)),
    Endpoint(
        "frontend:new_table",
        "POST",
        lambda w: "/new/dominoes/",
        cells(FOUND),  # guests may play casual tables
        data=lambda w: {"players": "2", "seat0": "me", "seat1": "bot:random"},
        effect=lambda w: Game.objects.count(),
    ),
    Endpoint(
        "frontend:new_table",
        "POST",
        lambda w: "/new/dominoes/",
        # A rated game needs an account to rate: the form says why and makes nothing.
        cells(FOUND, guest=Expect(200, changes=False), anonymous=Expect(200, changes=False)),
        label="rated",
        data=lambda w: {"players": "2", "kind": "rated", "seat0": "me", "seat1": "bot:random"},
        effect=lambda w: Game.objects.filter(kind=Game.Kind.RATED).count(),
    ),
    Endpoint("frontend:table", "GET", lambda w: f"/tables/{w.live.pk}/", cells(OK)),
    Endpoint(
        "frontend:table",
        "GET",
        lambda w: f"/tables/{w.tournament.stream_id}/",
        cells(NOT_FOUND),
        label="of a tournament's log",
    ),
    # Invites (games/access/invites.py): the link is a single-use claim, never the seat's credential.
    Endpoint(
        "frontend:invite",
        "GET",
        lambda w: f"/tables/{w.invite.pk}/invite/{w.invite_codes[1]}/",
        cells(SHOWN),  # asks first: a link preview must not take the seat
        effect=_open_seat,
    ),
    Endpoint(
        "frontend:invite",
        "POST",
        lambda w: f"/tables/{w.invite.pk}/invite/{w.invite_codes[1]}/",
        cells(FOUND),  # whoever holds the link may claim the seat, once
        effect=_open_seat,
    ),
    Endpoint(
        "frontend:invite",
        "GET",
        lambda w: f"/tables/{w.invite.pk}/invite/{w.invite_codes[2]}/",
        cells(GONE),
        label="already claimed",
        effect=_open_seat,
    ),
    Endpoint(
        "frontend:invite",
        "POST",
        lambda w: f"/tables/{w.invite.pk}/invite/{w.invite_codes[2]}/",
        cells(GONE),
        label="already claimed",
        effect=_claimed_seat,
    ),
    Endpoint(
        "frontend:invite",
        "POST",
        lambda w: f"/tables/{w.invite.pk}/invite/{w.token(w.invite, 1)}/",
        cells(NOT_FOUND),
        label="with the seat's credential for a code",
        effect=_open_seat,
    ),
    Endpoint(
        "frontend:invite",
        "POST",
        lambda w: f"/tables/{w.live.pk}/invite/{w.invite_codes[1]}/",
        cells(NOT_FOUND),
        label="of another table",
        effect=_open_seat,
    ),
    # The lobby's "Take the open seat" (#33): only a seat open to all, never one kept for an invite.
    Endpoint(
        "frontend:take_seat",
        "POST",
        lambda w: f"/tables/{w.invite.pk}/take/",
        cells(GONE, guest=LOGIN, anonymous=LOGIN),
        label="a seat kept for an invited friend",
        effect=_open_seat,
    ),
    # Play now (#33, frontend/playnow.py): signed-in players only; a wait is its player's alone.
    Endpoint(
        "frontend:play_now",
        "POST",
        lambda w: "/play/dominoes/",
        cells(FOUND, guest=LOGIN, anonymous=LOGIN),
        data=lambda w: {"players": "2", "kind": "casual"},
        effect=lambda w: Seek.objects.count(),
    ),
    Endpoint(
        "frontend:play_wait",
        "GET",
        lambda w: f"/play/waits/{_owners_wait(w)}/",
        cells(NOT_FOUND, owner=OK),
    ),
    Endpoint(
        "frontend:play_state",
        "GET",
        lambda w: f"/play/waits/{_owners_wait(w)}/state",
        cells(NOT_FOUND, owner=OK),
    ),
    Endpoint(
        "frontend:play_cancel",
        "POST",
        lambda w: f"/play/waits/{_owners_wait(w)}/cancel",
        cells(NOT_FOUND, owner=FOUND),
        effect=_wait_status,
    ),
    # The links of old carried the seat's credential: they grant nothing, whoever follows them.
    Endpoint(
        "frontend:old_invite",
        "GET",
        lambda w: f"/tables/{w.live.pk}/join/{w.token(w.live, 0)}/",
        cells(GONE),
        effect=_live_seat_0,
    ),
    Endpoint(
        "frontend:old_invite",
        "POST",
        lambda w: f"/tables/{w.invite.pk}/join/{w.token(w.invite, 1)}/",
        cells(GONE),
        label="of an open seat",
        effect=_open_seat,
    ),
    Endpoint(
        "frontend:hint",
        "GET",
        lambda w: f"/tables/{w.dominoes.pk}/hint?seat=0",
        cells(refused(403, "not_your_seat"), **SEAT_ONLY),
        label="casual",
    ),
    # No engine help in a game that counts: the seat's owner is refused too.
    Endpoint(
        "frontend:hint",
        "GET",
        lambda w: f"/tables/{w.rated.pk}/hint?seat=0",
        cells(refused(403, "not_your_seat"), owner=NO_HINT, guest=NO_HINT),
        label="rated",
    ),
    Endpoint(
        "frontend:hint",
        "GET",
        lambda w: f"/tables/{w.counted.pk}/hint?seat=0",
        cells(refused(403, "not_your_seat"), owner=NO_HINT, guest=NO_HINT),
        label="tournament",
    ),
    Endpoint("frontend:rules", "GET", lambda w: "/rules/kazino/", cells(OK)),
    # --- Lessons (frontend/lessons.py): anyone may take one; a lesson table counts nowhere ----------
    Endpoint("frontend:learn_index", "GET", lambda w: "/learn/", cells(OK)),
    Endpoint("frontend:learn", "GET", lambda w: "/learn/kazino/", cells(SHOWN)),
    Endpoint(
        "frontend:learn",
        "POST",
        lambda w: "/learn/kazino/",
        cells(FOUND),
        label="deal the lesson",
        effect=lambda w: Game.objects.filter(kind=Game.Kind.LESSON).count(),
    ),
    # A lesson's progress is the learner's number of moves (public, as every move is); other tables
    # have none.
    Endpoint(
        "frontend:lesson_progress",
        "GET",
        lambda w: f"/learn/tables/{w.dominoes.pk}/progress",
        cells(NOT_FOUND),
    ),
    # --- Tournaments (frontend/tournament_*.py) ----------------------------------------------------
    Endpoint("frontend:tournaments", "GET", lambda w: "/tournaments/", cells(OK)),
    # The tournament form's round-length estimate: public figures, nothing stored.
    Endpoint(
        "frontend:tournament_estimate",
        "GET",
        lambda w: "/tournaments/estimate?game=kazino&format=swiss&best_of=3",
        cells(OK),
    ),
    Endpoint(
        "frontend:new_tournament",
        "GET",
        lambda w: "/tournaments/new/",
        cells(OK, guest=LOGIN, anonymous=LOGIN),
    ),
    Endpoint("frontend:tournament", "GET", lambda w: f"/tournaments/{w.tournament.pk}/", cells(OK)),
    # Each console button posts its own form to /do/ACTION (frontend/console.py): a refusal is the
    # page again at a 4xx with the reason, nothing changed.
    Endpoint(
        "frontend:tournament_do",
        "POST",
        lambda w: f"/tournaments/{w.tournament.pk}/do/add_bot",
        cells(Expect(403, changes=False), organiser=FOUND, staff=FOUND),
        label="add a computer player",
        data=lambda w: {"level": "random"},
        effect=lambda w: Entry.objects.filter(tournament=w.tournament).count(),
    ),
    Endpoint(
        "frontend:tournament_do",
        "POST",
        lambda w: f"/tournaments/{w.tournament.pk}/do/register",
        cells(FOUND, guest=Expect(403, changes=False), anonymous=Expect(403, changes=False)),
        label="register",
        effect=lambda w: Entry.objects.filter(tournament=w.tournament).count(),
    ),
    Endpoint(
        "frontend:tournament_do",
        "POST",
        lambda w: f"/tournaments/{w.held_cup().pk}/do/pause_table",
        # Only the organiser holds a tournament table: its players (owner, opponent) may not stall it.
        cells(Expect(403, changes=False), organiser=FOUND, staff=FOUND),
        label="pause a table",
        data=lambda w: {"game": str(w.running_game())},
        effect=lambda w: queries.paused([w.running_game()]),
    ),
    # The former single address: the same forms, chosen by ``action``.
    Endpoint(
        "frontend:tournament_act",
        "POST",
        lambda w: f"/tournaments/{w.tournament.pk}/act",
        cells(Expect(403, changes=False), organiser=FOUND, staff=FOUND),
        label="add a computer player (former address)",
        data=lambda w: {"action": "add_bot", "level": "random"},
        effect=lambda w: Entry.objects.filter(tournament=w.tournament).count(),
    ),
    Endpoint(
        "frontend:tournament_csv", "GET", lambda w: f"/tournaments/{w.tournament.pk}/standings.csv", cells(OK)
    ),
    Endpoint(
        "frontend:tournament_log", "GET", lambda w: f"/tournaments/{w.tournament.pk}/log.json", cells(OK)
    ),
    # --- Printable sheets (frontend/printables.py): public; table codes only on the organiser's ------------
    Endpoint(
        "frontend:print", "GET", lambda w: f"/tournaments/{w.tournament.pk}/print/standings/", cells(OK)
    ),
    Endpoint(
        "frontend:print_pdf",
        "GET",
        lambda w: f"/tournaments/{w.tournament.pk}/print/standings.pdf",
        cells(OK),
    ),
    # --- The room screen and the round clock (frontend/screen.py, #34/#37): the screens show what the
    # public page shows; the clock is its organiser's (and staff's) only. ----------------------------------
    Endpoint(
        "frontend:tournament_screen",
        "GET",
        lambda w: f"/tournaments/{w.held_cup().pk}/screen/?lang=en,ht",
        cells(SHOWN),
        effect=_cup_head,
    ),
    Endpoint(
        "frontend:tournament_screen",
        "GET",
        lambda w: f"/tournaments/{w.held_cup().pk}/screen/?part=panels",
        cells(SHOWN),
        label="its panels",
        effect=_cup_head,
    ),
    Endpoint(
        "frontend:club_screen",
        "GET",
        lambda w: f"/clubs/{w.club().slug}/screen/",
        cells(SHOWN),
        effect=_season_head,
    ),
    Endpoint("frontend:club_screen", "GET", lambda w: "/clubs/no-such-club/screen/", cells(NOT_FOUND)),
    Endpoint(
        "frontend:tournament_clock",
        "GET",
        lambda w: f"/tournaments/{w.held_cup().pk}/clock/",
        cells(FORBIDDEN, organiser=SHOWN, staff=SHOWN),
        effect=_cup_head,
    ),
    Endpoint(
        "frontend:tournament_clock",
        "POST",
        lambda w: f"/tournaments/{w.held_cup().pk}/clock/",
        # Its players (owner, opponent) may not set the clock of their own round.
        cells(FORBIDDEN, organiser=FOUND, staff=FOUND),
        label="set the round's time",
        data=lambda w: {"clock": "set", "minutes": "30"},
        effect=_cup_head,
    ),
    Endpoint(
        "frontend:tournament_clock",
        "POST",
        lambda w: f"/tournaments/{w.held_cup().pk}/clock/",
        cells(FORBIDDEN, organiser=Expect(400, changes=False), staff=Expect(400, changes=False)),
        label="start a clock never set",
        data=lambda w: {"clock": "start"},
        effect=_cup_head,
    ),
    # The round's clock for a table page's countdown (frontend/round_clock.py): public, as on the screen.
    Endpoint(
        "frontend:tournament_clock_json",
        "GET",
        lambda w: f"/tournaments/{w.held_cup().pk}/clock.json",
        cells(OK),
    ),
    Endpoint(
        "frontend:tournament_do",
        "POST",
        lambda w: f"/tournaments/{w.held_cup().pk}/do/clock",
        # The console's clock: its players (owner, opponent) may not set the clock of their own round.
        cells(Expect(403, changes=False), organiser=FOUND, staff=FOUND),
        label="set the round's time from the console",
        data=lambda w: {"clock": "set", "minutes": "30"},
        effect=_cup_head,
    ),
    Endpoint(
        "frontend:tournament_do",
        "POST",
        lambda w: f"/tournaments/{w.held_cup().pk}/do/screen_languages",
        cells(Expect(403, changes=False), organiser=FOUND, staff=FOUND),
        label="the room screen's languages",
        data=lambda w: {"languages": ["ht", "tl"]},
        effect=_cup_head,
    ),
    Endpoint(
        "frontend:tournament_do",
        "POST",
        lambda w: f"/tournaments/{w.held_cup().pk}/do/end_at_time",
        # Kazino has no partial score: refused for everyone, nothing changed.
        cells(
            Expect(403, changes=False), organiser=Expect(400, changes=False), staff=Expect(400, changes=False)
        ),
        label="end the round at time (a game with no partial score)",
        effect=_cup_head,
    ),
    # --- Seasons (frontend/seasons.py, #34): public pages; defined by an organiser of the club's
    # tournaments (or staff), changed and closed by whoever defined it (or staff). --------------------------
    Endpoint(
        "frontend:new_season",
        "GET",
        lambda w: f"/clubs/{w.club().slug}/seasons/new/",
        cells(FORBIDDEN, organiser=OK, staff=OK),
    ),
    Endpoint(
        "frontend:new_season",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/seasons/new/",
        cells(FORBIDDEN, organiser=FOUND, staff=FOUND),
        data=_season_form,
        effect=lambda w: len(streams.ids(season_log.STREAM)),
    ),
    Endpoint(
        "frontend:season",
        "GET",
        lambda w: f"/seasons/{w.season()}/",
        cells(SHOWN),
        effect=_season_head,
    ),
    Endpoint(
        "frontend:season",
        "GET",
        lambda w: f"/seasons/{w.season()}/?part=standings",
        cells(SHOWN),
        label="its standings",
        effect=_season_head,
    ),
    Endpoint(
        "frontend:season",
        "GET",
        lambda w: f"/seasons/{w.held_cup().stream_id}/",
        cells(NOT_FOUND),
        label="of a tournament's log",
    ),
    Endpoint(
        "frontend:season_edit",
        "GET",
        lambda w: f"/seasons/{w.season()}/edit/",
        cells(FORBIDDEN, organiser=SHOWN, staff=SHOWN),
        effect=_season_head,
    ),
    Endpoint(
        "frontend:season_edit",
        "POST",
        lambda w: f"/seasons/{w.season()}/edit/",
        cells(FORBIDDEN, organiser=FOUND, staff=FOUND),
        data=_season_form,
        effect=_season_head,
    ),
    Endpoint(
        "frontend:season_close",
        "POST",
        lambda w: f"/seasons/{w.season()}/close",
        cells(FORBIDDEN, organiser=FOUND, staff=FOUND),
        effect=_season_head,
    ),
    Endpoint(
        "frontend:season_close",
        "GET",
        lambda w: f"/seasons/{w.season()}/close",
        cells(Expect(405, changes=False)),
        label="a GET closes nothing",
        effect=_season_head,
    ),
    Endpoint(
        "frontend:season_print",
        "GET",
        lambda w: f"/seasons/{w.season()}/print/",
        cells(SHOWN),
        effect=_season_head,
    ),
    Endpoint("frontend:season_pdf", "GET", lambda w: f"/seasons/{w.season()}/season.pdf", cells(OK)),
    # --- Tables with real cards (frontend/over_the_board.py) -----------------------------------------------
    Endpoint(
        "frontend:score_home",
        "GET",
        lambda w: f"/tournaments/{w.board_cup().pk}/score/",
        cells(OK, owner=FOUND, opponent=FOUND),
    ),
    Endpoint(
        "frontend:score_home",
        "POST",
        lambda w: f"/tournaments/{w.board_cup().pk}/score/",
        cells(Expect(302, changes=False)),
        label="a wrong table code",
        data=lambda w: {"code": "ZZZZZZ"},
        effect=lambda w: w.board_cup().seq,
    ),
    Endpoint(
        "frontend:score_table",
        "GET",
        lambda w: f"/tournaments/{w.board_cup().pk}/score/R1-T1/",
        # The table's players and the organiser see it; anyone else is sent to type the table's code.
        cells(FOUND, owner=OK, opponent=OK, organiser=OK, staff=OK),
    ),
    Endpoint(
        "frontend:score_table",
        "POST",
        lambda w: f"/tournaments/{w.board_cup().pk}/score/R1-T1/",
        cells(Expect(302, changes=False), owner=FOUND, opponent=FOUND, organiser=FOUND, staff=FOUND),
        label="enter a result",
        data=lambda w: {"action": "enter", "game": "1", "count": "1", "h0-cards-1": "30", "h0-cards-2": "22"},
        effect=lambda w: Match.objects.get(tournament=w.board_cup(), key="R1-T1").board,
    ),
    Endpoint(
        "frontend:board",
        "GET",
        lambda w: f"/tournaments/{w.board_cup().pk}/board/",
        cells(NOT_FOUND, organiser=OK, staff=OK),
    ),
    Endpoint(
        "frontend:board",
        "POST",
        lambda w: f"/tournaments/{w.tournament.pk}/board/",
        cells(NOT_FOUND, organiser=FOUND, staff=FOUND),
        label="a round with real cards",
        data=lambda w: {"action": "round", "round": "2", "on": "1"},
        effect=lambda w: Tournament.objects.get(pk=w.tournament.pk).board_rounds,
    ),
    # The organiser's round grid (frontend/round_grid.py): a refused grid (cards not adding up to 52)
    # is 400 for the organiser, and stores nothing; no one else learns the page exists.
    Endpoint(
        "frontend:round_grid",
        "GET",
        lambda w: f"/tournaments/{w.board_cup().pk}/board/round/",
        cells(NOT_FOUND, organiser=OK, staff=OK),
    ),
    Endpoint(
        "frontend:round_grid",
        "POST",
        lambda w: f"/tournaments/{w.board_cup().pk}/board/round/",
        cells(
            Expect(404, changes=False), organiser=Expect(400, changes=False), staff=Expect(400, changes=False)
        ),
        label="the round grid",
        data=lambda w: {"t1-game": "1", "t1-count": "1", "t1-h0-cards-1": "30", "t1-h0-cards-2": "20"},
        effect=lambda w: Tournament.objects.get(pk=w.board_cup().pk).seq,
    ),
    # --- Ratings (frontend/ratings.py) --------------------------------------------------------------------
    Endpoint("frontend:leaderboard", "GET", lambda w: "/ratings/", cells(OK)),
    Endpoint("frontend:club", "GET", lambda w: "/clubs/no-such-club/", cells(NOT_FOUND)),
    Endpoint("frontend:player", "GET", lambda w: "/players/user:999999/", cells(NOT_FOUND)),
    # --- Club members (frontend/clubs.py, #33): the club's organiser made it, the owner is a member.
    # To a non-member the members' page and its buttons are a club that does not exist.
    Endpoint(
        "frontend:club_members",
        "GET",
        lambda w: f"/clubs/{w.club().slug}/members/",
        cells(NOT_FOUND, owner=OK, organiser=OK, staff=OK),
    ),
    Endpoint(
        "frontend:club_join",
        "GET",
        lambda w: f"/clubs/{w.club().slug}/join/{w.club().join_code}/",
        cells(SHOWN, guest=LOGIN, anonymous=LOGIN),
        effect=_members,
    ),
    Endpoint(
        "frontend:club_join",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/join/{w.club().join_code}/",
        cells(
            FOUND,
            owner=Expect(302, changes=False),
            organiser=Expect(302, changes=False),
            guest=LOGIN,
            anonymous=LOGIN,
        ),
        effect=_members,
    ),
    Endpoint(
        "frontend:club_join",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/join/not-the-code/",
        cells(NOT_FOUND, guest=LOGIN, anonymous=LOGIN),
        label="an old code",
        effect=_members,
    ),
    Endpoint(
        "frontend:club_add",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/members/add",
        _ORGANISERS_ONLY,
        data=lambda w: {"username": w.users["spectator"].username},
        effect=_members,
    ),
    Endpoint(
        "frontend:club_change",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/members/change",
        _ORGANISERS_ONLY,
        label="remove the owner",
        data=lambda w: {"user": w.users["owner"].pk},
        effect=_members,
    ),
    Endpoint(
        "frontend:club_change",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/members/change",
        _ORGANISERS_ONLY,
        label="make the owner an organiser",
        data=lambda w: {"user": w.users["owner"].pk, "role": "organiser"},
        effect=_members,
    ),
    Endpoint(
        "frontend:club_rotate",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/members/new-code",
        _ORGANISERS_ONLY,
        effect=lambda w: Club.objects.filter(pk=w.club().pk).values_list("join_code", flat=True).get(),
    ),
    Endpoint(
        "frontend:club_leave",
        "POST",
        lambda w: f"/clubs/{w.club().slug}/leave",
        # The organiser is the last one of a club with members; staff is no member.
        cells(NOT_FOUND, owner=FOUND, organiser=Expect(400), staff=Expect(400), guest=LOGIN, anonymous=LOGIN),
        effect=_members,
    ),
    # --- Replays (replay/views.py) -------------------------------------------------------------------
    Endpoint("replay:page", "GET", lambda w: f"/games/{w.live.pk}/replay/", cells(OK)),
    Endpoint(
        "replay:open_room",
        "POST",
        lambda w: f"/games/{w.finished.pk}/replay/rooms/",
        cells(FOUND, guest=LOGIN, anonymous=LOGIN),
        effect=lambda w: Room.objects.count(),
    ),
    Endpoint(
        "replay:room",
        "GET",
        lambda w: f"/replays/rooms/{w.room}/",
        # Opening the room's page makes a signed-in visitor a member (who may be handed the wheel).
        cells(OK, owner=SHOWN, guest=SHOWN, anonymous=SHOWN),
        effect=lambda w: RoomMember.objects.count(),
    ),
    Endpoint("replay:comments", "GET", lambda w: f"/games/{w.finished.pk}/replay/comments/", cells(OK)),
    Endpoint(
        "replay:comments",
        "POST",
        lambda w: f"/games/{w.finished.pk}/replay/comments/",
        cells(CREATED, guest=refused(403, "sign_in"), anonymous=refused(403, "sign_in")),
        label="on a finished game",
        data=lambda w: {"seq": str(w.last_moment[w.finished.pk]), "text": "a fine move"},
        effect=lambda w: Annotation.objects.count(),
    ),
    Endpoint(
        "replay:comments",
        "POST",
        lambda w: f"/games/{w.live.pk}/replay/comments/",
        cells(
            refused(403, "not_a_player"),
            owner=CREATED,
            opponent=CREATED,
            guest=refused(403, "sign_in"),
            anonymous=refused(403, "sign_in"),
        ),
        label="on a live game",
        data=lambda w: {"seq": str(w.last_moment[w.live.pk]), "text": "my plan"},
        effect=lambda w: Annotation.objects.count(),
    ),
    Endpoint(
        "replay:moderate",
        "POST",
        lambda w: f"/games/{w.finished.pk}/replay/comments/{w.comment}/",
        cells(refused(403, "not_moderator"), organiser=OK, staff=OK),
        data=lambda w: {"hidden": "1"},
        effect=lambda w: Annotation.objects.get(pk=w.comment).hidden,
    ),
    Endpoint("replay:review", "GET", lambda w: f"/games/{w.finished.pk}/replay/review/", cells(OK)),
    Endpoint(
        "replay:review",
        "POST",
        lambda w: f"/games/{w.finished.pk}/replay/review/",
        # Signed-in users get past the door, to a game of a kind that has no review.
        cells(
            refused(400, "not_reviewable"), guest=refused(403, "sign_in"), anonymous=refused(403, "sign_in")
        ),
    ),
    # The better move on the board: a game with no review names no better move (400, nothing changes).
    Endpoint(
        "replay:better",
        "GET",
        lambda w: f"/games/{w.finished.pk}/replay/better/?at=1&as=public",
        cells(refused(400, "no_better_move")),
    ),
    # --- Accounts and languages -------------------------------------------------------------------------
    Endpoint("frontend:signup", "GET", lambda w: "/accounts/signup/", cells(OK)),
    # The profile page: one's own API tokens, made and revoked by their player only.
    Endpoint(
        "frontend:profile", "GET", lambda w: "/accounts/profile/", cells(OK, guest=LOGIN, anonymous=LOGIN)
    ),
    Endpoint(
        "frontend:profile",
        "POST",
        lambda w: "/accounts/profile/",
        cells(FOUND, guest=LOGIN, anonymous=LOGIN),
        label="make a token",
        data=lambda w: {"action": "create", "name": "bot", "scopes": ["play"]},
        effect=lambda w: ApiToken.objects.count(),
    ),
    Endpoint(
        "frontend:profile",
        "POST",
        lambda w: "/accounts/profile/",
        # Only the owner's own token can be revoked by the owner: everyone else changes nothing.
        cells(Expect(302, changes=False), owner=FOUND, guest=LOGIN, anonymous=LOGIN),
        label="revoke the owner's token",
        data=lambda w: {"action": "revoke", "token": str(w.owner_token())},
        effect=lambda w: (w.owner_token(), ApiToken.objects.filter(revoked_at__isnull=True).count()),
    ),
    Endpoint("login", "GET", lambda w: "/accounts/login/", cells(OK)),
    Endpoint("logout", "POST", lambda w: "/accounts/logout/", cells(FOUND)),
    Endpoint(
        "password_change",
        "GET",
        lambda w: "/accounts/password_change/",
        cells(OK, guest=LOGIN, anonymous=LOGIN),
    ),
    Endpoint(
        "password_change_done",
        "GET",
        lambda w: "/accounts/password_change/done/",
        cells(OK, guest=LOGIN, anonymous=LOGIN),
    ),
    Endpoint("password_reset", "GET", lambda w: "/accounts/password_reset/", cells(OK)),
    Endpoint("password_reset_done", "GET", lambda w: "/accounts/password_reset/done/", cells(OK)),
    Endpoint("password_reset_confirm", "GET", lambda w: "/accounts/reset/MQ/not-a-token/", cells(OK)),
    Endpoint("password_reset_complete", "GET", lambda w: "/accounts/reset/done/", cells(OK)),
    Endpoint(
        "set_language", "POST", lambda w: "/i18n/setlang/", cells(FOUND), data=lambda w: {"language": "ht"}
    ),
    Endpoint("javascript-catalog", "GET", lambda w: "/jsi18n/", cells(OK)),
    Endpoint("frontend:favicon", "GET", lambda w: "/favicon.ico", cells(Expect(301))),
    # --- The admin: staff only (one row stands for every URL of the admin namespace) -----------------
    Endpoint("admin:index", "GET", lambda w: "/admin/", cells(Expect(302, login=True), staff=OK)),
]

# Operators' endpoints, owned by infra (health checks, Prometheus): no role may change the answer.
ROLE_BLIND = ("healthz", "metrics")
