"""Tournaments over the public API: one's registration, and the standings as the public page shows
them (docs/api.md). Through tournaments.service, as the pages do."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from ninja import Router, Schema
from pydantic import Field

from frontend.api.auth import TokenAuth, caller
from frontend.api.tables import ERRORS
from games.engines.base import _
from games.errors import NotFound, database_guard
from games.ids import fits
from games.models import ApiToken
from tournaments import service
from tournaments.models import Entry, Tournament

router = Router(tags=["tournaments"], auth=TokenAuth())


class Standing(Schema):
    rank: int | None
    entrant: int
    name: str
    computer: str | None
    withdrawn: bool
    values: dict[str, Any] = Field(description="Each tie-break's value, as the standings page shows it.")


class TournamentOut(Schema):
    id: int
    name: str
    game: str
    format: str
    status: str
    round: int
    planned_rounds: int | None
    standings: list[Standing]
    log: str = Field(description="The tournament's whole public log (JSON).")


class RegisterIn(Schema):
    missed: str = Field("zero", description="A late entrant's score for each round it missed: zero or half.")


class Registered(Schema):
    entrant: int


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
def register(request: HttpRequest, tournament: str, body: RegisterIn) -> dict[str, Any]:
    """Register the token's player (needs the `play` scope), under their username."""
    user = caller(request).need(ApiToken.Scope.PLAY)
    with database_guard():
        row = _tournament(tournament)
        number = service.register(row, user.get_username(), user=user, missed=body.missed)
    return {"entrant": number}
