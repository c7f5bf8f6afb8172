"""The public API's tables: the lobby, making a table, taking a seat, a seat's or a spectator's
picture, and moves (docs/api.md). Everything goes through the games service, as the pages do."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.http import HttpRequest
from django.urls import reverse
from ninja import Query, Router, Status

from frontend.api import schemas
from frontend.api.auth import TokenAuth, caller
from frontend.lobby import in_demo_tournament
from games import bounds, engines
from games.access import invites, ratelimit, seats
from games.commands import moves, resignation, runner
from games.commands.create import SeatSpec, create_game
from games.engines.base import _
from games.errors import Forbidden, NotFound, ServiceError, database_guard
from games.eventlog.tables import get_seen_game, load_table
from games.ids import fits
from games.live import publish, resume
from games.models import ApiToken, Game, Seat
from tournaments.models import Tournament

router = Router(tags=["tables"], auth=TokenAuth())
ERRORS: dict[int | frozenset[int], Any] = {
    frozenset({400, 401, 403, 404, 409, 410, 429, 503}): schemas.ErrorOut
}
PLAY, READ = ApiToken.Scope.PLAY, ApiToken.Scope.READ
LOBBY_TABLES = 50
TABLES_GROUP = "api.tables"


@router.get("/me", response={200: schemas.Me, **ERRORS}, url_name="me", tags=["tokens"])
def me(request: HttpRequest) -> dict[str, Any]:
    """Whose token this is, and what it may do."""
    who = caller(request)
    if who.token is None:
        who.need(PLAY)  # says how to send one
    assert who.token is not None
    return {
        "username": who.user.get_username(),
        "token": who.token.name,
        "scopes": sorted(who.token.scope_set),
    }


@router.get("/lobby", response={200: schemas.Lobby, **ERRORS}, url_name="lobby")
def lobby(request: HttpRequest) -> dict[str, Any]:
    """Live tables (newest first) with their seats, and the tournaments not over yet."""
    with database_guard():
        # A club-only table is listed to its club's members and its players only (#33).
        reader = caller(request).requester(READ, PLAY).user
        live = (
            seats.seen_by(reader, Game.objects.tables())
            .without_secret_deals()  # nothing to watch but its opening, and it tells another table's result
            .filter(status=Game.Status.ACTIVE, is_demo=False)
            .exclude(in_demo_tournament())  # the demo club's Swiss: dozens of games an evening (#33)
            .order_by("-created_at")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("number")))[:LOBBY_TABLES]
        )
        tables = [
            {
                "id": game.pk,
                "game": game.engine,
                "kind": game.kind,
                "created_at": game.created_at.isoformat(),
                "seats": [
                    {
                        "number": s.number,
                        "name": s.display_name,
                        "computer": s.bot_level or None,
                        "open": s.awaiting_player,
                        "joinable": s.awaiting_player and s.open_to_all,
                    }
                    for s in game.seats.all()
                ],
                "state": reverse("api_v1:state", args=[game.pk]),
            }
            for game in live
        ]
        cups = Tournament.objects.exclude(status=Tournament.Status.FINISHED).order_by("-pk")[:LOBBY_TABLES]
        tournaments = [
            {
                "id": t.pk,
                "name": t.name,
                "game": t.game,
                "format": t.format,
                "status": t.status,
                "round": t.round,
                "url": reverse("frontend:tournament", args=[t.pk]),
            }
            for t in cups
        ]
    return {"tables": tables, "tournaments": tournaments}


def _count_table(request: HttpRequest) -> None:
    """One more table made or joined by this token (RateLimited past API_TABLES_RATE_LIMIT)."""
    token = caller(request).token
    if token is not None:
        ratelimit.check_seat(f"token:{token.digest}", group=TABLES_GROUP, rate=settings.API_TABLES_RATE_LIMIT)


#: Options that choose who leads (dominoes ``first``) or deals (Pitch ``dealer``): casual tables only.
SEATING_OPTIONS = frozenset({"first", "dealer"})


def _seat_spec(seat: schemas.SeatIn, number: int, user: Any) -> SeatSpec:
    if seat.kind == "computer":
        return SeatSpec.computer(number + 1, seat.level)
    if seat.kind in ("open", "invite"):
        return SeatSpec("Open seat", awaiting_player=True, open_to_all=seat.kind == "open")
    return SeatSpec(user.get_username(), user=user)


@router.post("/tables", response={201: schemas.Created, **ERRORS}, url_name="create")
def create(request: HttpRequest, body: schemas.CreateIn) -> Status:
    """Make a table (needs the `play` scope). Returns the credential of each of your seats, and the
    invite code of each seat kept by invite."""
    user = caller(request).need(PLAY)
    _count_table(request)
    kinds = [s.kind for s in body.seats]
    if "me" not in kinds:
        raise ServiceError("no_human", _("Take at least one seat yourself."), fields=["seats"])
    if body.kind == "rated" and kinds.count("me") > 1:
        raise ServiceError(
            "rated_needs_accounts",
            _("In a rated game every player plays on their own account: choose casual to pass the device."),
        )
    if "players" in body.options and body.options["players"] != len(body.seats):
        # The seats say how many play: a contradicting count was silently dropped (#37).
        raise ServiceError(
            "wrong_seat_count",
            _("This table has {players} seats, but {given} players were given."),
            players=len(body.seats),
            given=str(body.options["players"])[:20],
            fields=["options.players"],
        )
    if body.kind == "rated" and (chosen := sorted(set(body.options) & SEATING_OPTIONS)):
        # Who leads or deals first is the rules' (or the shuffle's) at a table that counts (#37).
        raise ServiceError(
            "not_in_rated",
            _("At a rated table the rules choose who plays or deals first: leave out {name}."),
            name=chosen[0],
            fields=[f"options.{chosen[0]}"],
        )
    with database_guard():
        try:
            config = engines.compose(body.game, body.options, len(body.seats))
        except engines.IllegalAction as exc:
            raise ServiceError.from_illegal(exc) from None
        if body.club is not None and body.club not in seats.clubs_of(user):
            raise ServiceError("not_a_member", _("Choose one of your clubs."), fields=["club"])
        specs = [_seat_spec(seat, n, user) for n, seat in enumerate(body.seats)]
        game = create_game(
            body.game,
            config,
            specs,
            kind=body.kind,
            created_by=user,
            absent_after=body.absent_after,
            club_id=body.club,
        )
        rows = list(game.seats.order_by("number"))
        codes = {i.seat.number: i.code for i in invites.current(game)}
    credentials = [{"seat": s.number, "credential": s.token} for s in rows if kinds[s.number] == "me"]
    invitations = [
        {
            "seat": n,
            "code": code,
            "url": request.build_absolute_uri(reverse("frontend:invite", args=[game.pk, code])),
        }
        for n, code in sorted(codes.items())
        if kinds[n] == "invite"
    ]
    head = load_table(game.pk).seq
    return Status(
        201,
        {
            "table": game.pk,
            "game": game.engine,
            "seq": head,
            "credentials": credentials,
            "invites": invitations,
        },
    )


@router.post("/tables/{table}/join", response={200: schemas.Credential, **ERRORS}, url_name="join")
def join(request: HttpRequest, table: str, body: schemas.JoinIn | None = None) -> dict[str, Any]:
    """Take an open seat (needs the `play` scope): one open to all, or one kept by invite with its
    `code`. Returns the seat's new credential. Every field is optional: the body may be left out."""
    body = body if body is not None else schemas.JoinIn.model_validate({})
    user = caller(request).need(PLAY)
    _count_table(request)
    with database_guard():
        game = game_of(table, request)
        if body.code is not None:
            seat = invites.claim(game.pk, body.code, user=user)
        else:
            seat = invites.take_open(game.pk, user=user, number=body.seat)
    return {"seat": seat.number, "credential": seat.token}


class StateQuery(schemas.Schema):
    seat: int | None = bounds.SEAT.schema(strict=False, default=None)


def _holder(request: HttpRequest, game: Game, number: int, *scopes: str) -> Seat:
    """The seat ``number`` if the caller holds it (its credential, or a token of ``scopes`` whose
    player sits there); Forbidden otherwise."""
    row = seats.holds(caller(request).requester(*scopes), game, number)
    if row is not None:
        return row
    # Asked only on a refusal, so a move costs no query for it.
    if not Seat.objects.filter(game=game, number=number).exists():
        raise Forbidden("not_your_seat", _("There is no such seat at this table."))
    raise Forbidden("not_your_seat", _("You do not play this seat."))


def audience_of(request: HttpRequest, game: Game, seat: int | None) -> int | None:
    """The seat whose picture the caller reads (it must hold it), or None for the spectators'. A seat
    credential of another table is refused, not taken for a spectator."""
    if seat is not None:
        return _holder(request, game, seat, READ, PLAY).number
    who = caller(request)
    if who.seat_token is not None and not seats.held(who.requester(READ, PLAY), game):
        raise Forbidden("not_your_seat", _("This seat credential is not for this table."))
    return None


def _only_seat(request: HttpRequest, game: Game, *scopes: str) -> Seat:
    """The one seat the caller holds at ``game`` (an action that names none)."""
    mine = seats.held(caller(request).requester(*scopes), game)
    if len(mine) != 1:
        raise ServiceError(
            "bad_request",
            _("Say which seat you play (the field seat): you hold {count} seats at this table."),
            count=len(mine),
            fields=["seat"],
        )
    return next(iter(mine.values()))


@router.get("/tables/{table}/state", response={200: schemas.TableState, **ERRORS}, url_name="state")
def state(request: HttpRequest, table: str, query: Query[StateQuery]) -> dict[str, Any]:
    """A seat's picture (`?seat=N`, with its credential or a `read`/`play` token of its player), or
    the spectators' (no seat: the public view, with the table's spectator delay)."""
    with database_guard():
        game = game_of(table, request)
        number = audience_of(request, game, query.seat)
        loaded = load_table(game)
        return publish.snapshot(loaded, number)


class UpdatesQuery(schemas.Schema):
    since: int = bounds.SINCE.schema(
        strict=False, description="The last seq you have (a `seq` of a state or an update)."
    )
    seat: int | None = bounds.SEAT.schema(strict=False, default=None)


@router.get("/tables/{table}/updates", response={200: schemas.Updates, **ERRORS}, url_name="updates")
def updates(request: HttpRequest, table: str, query: Query[UpdatesQuery]) -> dict[str, Any]:
    """What you missed since `since`: exactly the updates this audience (your seat, or the spectators
    with their delay) was sent live after it, oldest first; or the whole state when `since` is too old
    (more than 200 commands back, or no update's seq)."""
    with database_guard():
        game = game_of(table, request)
        number = audience_of(request, game, query.seat)
        loaded = load_table(game)
        missed = resume.updates_after(loaded, number, query.since)
        if missed is None:
            return {"updates": None, "state": publish.snapshot(loaded, number)}
    return {"updates": [json.loads(m) for m in missed], "state": None}


@router.post("/tables/{table}/actions", response={200: schemas.Acted, **ERRORS}, url_name="act")
def act(request: HttpRequest, table: str, body: schemas.ActionIn) -> dict[str, Any]:
    """Play an action for your seat (its credential, or a `play` token of its player)."""
    with database_guard():
        game = game_of(table, request)
        if body.seat is None:
            seat = _only_seat(request, game, PLAY)
        else:
            seat = _holder(request, game, body.seat, PLAY)
        ratelimit.check_seat(seat.token)
        command_id = body.command_id if body.command_id is not None else f"api:{uuid.uuid4().hex}"
        runner.check_client_command_id(command_id)
        if body.expected_seq is None:
            result = moves.submit_now(game.pk, seat.number, body.action, command_id)
        else:
            result = moves.submit(game.pk, seat.number, body.action, command_id, body.expected_seq)
    return {**result.as_dict(), "command_id": command_id}


def _seat_command(
    request: HttpRequest, table: str, body: schemas.SeatCommandIn | None, command: Any
) -> dict[str, Any]:
    body = body if body is not None else schemas.SeatCommandIn.model_validate({})
    with database_guard():
        game = game_of(table, request)
        seat = (
            _only_seat(request, game, PLAY) if body.seat is None else _holder(request, game, body.seat, PLAY)
        )
        ratelimit.check_seat(seat.token)
        command_id = body.command_id if body.command_id is not None else f"api:{uuid.uuid4().hex}"
        runner.check_client_command_id(command_id)
        result = command(game.pk, command_id, by=f"seat:{seat.number}")
    return {**result.as_dict(), "command_id": command_id}


@router.post("/tables/{table}/resign", response={200: schemas.Acted, **ERRORS}, url_name="resign")
def resign(request: HttpRequest, table: str, body: schemas.SeatCommandIn | None = None) -> dict[str, Any]:
    """Give the game up for your seat: your side is last, and the game is over (and rated, at a rated
    or tournament table)."""
    return _seat_command(request, table, body, resignation.resign)


@router.post("/tables/{table}/claim", response={200: schemas.Acted, **ERRORS}, url_name="claim")
def claim(request: HttpRequest, table: str, body: schemas.SeatCommandIn | None = None) -> dict[str, Any]:
    """At a rated or tournament table: end the game of an opponent who left (no connection to the
    table, socket or stream, for the table's `absent_after` seconds); their side is last. Refused
    (`not_absent`) while every opponent is connected, however long they think."""
    return _seat_command(request, table, body, resignation.claim)


def game_of(table: str, request: HttpRequest) -> Game:
    """The table's game; NotFound for an address no table has (not a number, past a 64-bit integer),
    and for a table the caller may not see (``games.access.seats.may_see``: a secret deal's), word for
    word."""
    number = int(table) if table.isascii() and table.isdigit() and len(table) <= 19 else 0
    if not fits(number, low=1):
        raise NotFound("unknown_game", _("There is no such game."))
    who = caller(request)
    # Whoever the token names, whatever its scopes: seeing that a table exists needs none.
    return get_seen_game(number, seats.Requester(user=who.user, token=who.seat_token))
