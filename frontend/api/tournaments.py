"""Tournaments over the public API: one's registration, and the standings as the public page shows
them (docs/api.md). Through tournaments.service, as the pages do."""

from __future__ import annotations

from typing import Any, Literal

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from ninja import Query, Router, Schema, Status
from pydantic import Field

from frontend.api.auth import TokenAuth, caller
from frontend.api.schemas import TournamentBrief
from frontend.api.tables import ERRORS
from games import bounds
from games.access import ratelimit
from games.engines.base import _
from games.errors import Forbidden, NotFound, database_guard
from games.ids import fits
from games.models import ApiToken
from tournaments import service
from tournaments.models import Entry, MatchGame, Tournament

router = Router(tags=["tournaments"], auth=TokenAuth())
CREATE_GROUP = "api.tournaments"


class Standing(Schema):
    rank: int | None
    entrant: int
    name: str
    computer: str | None
    withdrawn: bool
    values: dict[str, Any] = Field(description="Each tie-break's value, as the standings page shows it.")


class Listed(TournamentBrief):
    planned_rounds: int | None


class TournamentOut(Listed):
    standings: list[Standing]
    log: str = Field(description="The address of the tournament's whole public log (log.json), not the log.")


class RegisterIn(Schema):
    missed: str = Field("zero", description="A late entrant's score for each round it missed: zero or half.")


class Registered(Schema):
    entrant: int


class ListQuery(Schema):
    status: Literal["registration", "running", "paused", "finished"] = Field(
        "finished", description="Which tournaments: finished (the default), running, paused, registration."
    )
    page: int = bounds.PAGE.schema(strict=False, default=1)
    limit: int = bounds.PAGE_SIZE.schema(strict=False, default=20)


@router.get("/tournaments", response={200: list[Listed], **ERRORS}, url_name="tournaments")
def tournaments(request: HttpRequest, query: Query[ListQuery]) -> list[dict[str, Any]]:
    """Tournaments by status, newest first, a page at a time (#37: finished ones had no route; the
    lobby lists those not over)."""
    start = (query.page - 1) * query.limit
    with database_guard():
        rows = Tournament.objects.filter(status=query.status).order_by("-pk")[start : start + query.limit]
        return [
            {
                "id": r.pk,
                "name": r.name,
                "game": r.game,
                "format": r.format,
                "status": r.status,
                "round": r.round,
                "planned_rounds": r.planned_rounds,
            }
            for r in rows
        ]


class CreateIn(Schema):
    name: str = Field(max_length=120, description="The tournament's name (1 to 120 characters).")
    game: str = Field(max_length=40, description="The game: skyjo, dominoes, kazino, pitch.")
    format: str = Field(
        "swiss",
        max_length=40,
        description="swiss, round_robin, single_elimination, double_elimination or table_elimination.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description=(
            "The options the tournament form sets, by their stored names (docs/api.md): table_size, "
            "best_of, rounds, spectator_delay, no_show_after and absent_after (seconds), tiebreaks, "
            "duplicate, partnerships, check_in, late_entry, chat, auto_start, game_config…; each checked as "
            "the form's are (tournaments/options.py: whole numbers within their bounds)."
        ),
    )


class Created(Schema):
    id: int
    status: str
    url: str = Field(description="The tournament's page.")


class Started(Schema):
    id: int
    status: str
    round: int
    planned_rounds: int | None


@router.post("/tournaments", response={201: Created, **ERRORS}, url_name="tournaments")
def create(request: HttpRequest, body: CreateIn) -> Status:
    """Create a tournament organised by the token's player (needs the `organise` scope), checked as
    the tournament form checks it (#37: the API could not create one). It opens for registration."""
    found = caller(request)
    user = found.need(ApiToken.Scope.ORGANISE)
    assert found.token is not None
    # As many new tournaments a minute as new tables: each is a log kept for good.
    ratelimit.check_seat(
        f"token:{found.token.digest}", group=CREATE_GROUP, rate=settings.API_TABLES_RATE_LIMIT
    )
    with database_guard():
        row = service.create(body.name, body.game, body.format, body.options, by=user)
    return Status(
        201, {"id": row.pk, "status": row.status, "url": reverse("frontend:tournament", args=[row.pk])}
    )


@router.post(
    "/tournaments/{tournament}/start", response={200: Started, **ERRORS}, url_name="tournament_start"
)
def start(request: HttpRequest, tournament: str) -> dict[str, Any]:
    """Close registration and pair the first round, as the organiser's Start button does (needs the
    `organise` scope, and the token's player must organise the tournament). The body may be left out."""
    user = caller(request).need(ApiToken.Scope.ORGANISE)
    with database_guard():
        row = _tournament(tournament)
        if not (user.is_staff or row.created_by_id == user.pk):
            raise Forbidden("not_organiser", _("Only the organiser can do this."))
        service.start(row, by=user)
        row.refresh_from_db()
    return {"id": row.pk, "status": row.status, "round": row.round, "planned_rounds": row.planned_rounds}


class MyTable(Schema):
    entrant: int
    table: int = Field(description="The game's table: read and play it with /tables/ID/... .")
    seat: int
    match: str


@router.get(
    "/tournaments/{tournament}/my-table", response={200: MyTable, **ERRORS}, url_name="tournament_my_table"
)
def my_table(request: HttpRequest, tournament: str) -> dict[str, Any]:
    """The table the token's player plays now in this tournament (needs the `play` or `read` scope);
    `404 no_table` between rounds (#37: a bot could not find its own tournament table)."""
    found = caller(request)
    if not found.has(ApiToken.Scope.PLAY, ApiToken.Scope.READ):
        found.need(ApiToken.Scope.PLAY)
    with database_guard():
        row = _tournament(tournament)
        entry = Entry.objects.filter(tournament=row, user=found.user).first()
        live = MatchGame.objects.filter(match__tournament=row, finished=False).select_related("match")
        for game in live.order_by("-game_id") if entry is not None else []:
            if entry is not None and entry.number in game.seats:
                seat = game.seats.index(entry.number)
                return {"entrant": entry.number, "table": game.game_id, "seat": seat, "match": game.match.key}
    raise NotFound("no_table", _("You have no table being played now in this tournament."))


def _tournament(tournament: str) -> Tournament:
    number = int(tournament) if tournament.isascii() and tournament.isdigit() and len(tournament) <= 19 else 0
    row = Tournament.objects.filter(pk=number).first() if fits(number, low=1) else None
    if row is None:
        raise NotFound("unknown_tournament", _("There is no such tournament."))
    return row


@router.get("/tournaments/{tournament}", response={200: TournamentOut, **ERRORS}, url_name="tournament")
def tournament(request: HttpRequest, tournament: str) -> dict[str, Any]:
    """A tournament and its standings, as its public page shows them."""
    with database_guard():
        row = _tournament(tournament)
        standings = [
            {
                "rank": e.rank,
                "entrant": e.number,
                "name": e.shown_name,
                "computer": e.bot_level or None,
                "withdrawn": e.withdrawn,
                "values": e.values,
            }
            for e in Entry.objects.filter(tournament=row).order_by("rank", "seed", "number")
        ]
    return {
        "id": row.pk,
        "name": row.name,
        "game": row.game,
        "format": row.format,
        "status": row.status,
        "round": row.round,
        "planned_rounds": row.planned_rounds,
        "standings": standings,
        "log": reverse("frontend:tournament_log", args=[row.pk]),
    }


@router.post(
    "/tournaments/{tournament}/register", response={200: Registered, **ERRORS}, url_name="tournament_register"
)
def register(request: HttpRequest, tournament: str, body: RegisterIn | None = None) -> dict[str, Any]:
    """Register the token's player (needs the `play` scope), under their username. The body may be
    left out."""
    body = body if body is not None else RegisterIn.model_validate({})
    user = caller(request).need(ApiToken.Scope.PLAY)
    with database_guard():
        row = _tournament(tournament)
        number = service.register(row, user.get_username(), user=user, missed=body.missed)
    return {"entrant": number}
