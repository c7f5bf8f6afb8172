"""The HTTP API for scripts and bots: submit an action, read a seat's view.

A caller acts for a seat by being its signed-in user or by sending the seat's token in the
``X-Seat-Token`` header. Every refusal is JSON: {"error": {"code": ..., "message": ...}}.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from games import publish, service
from games.engines.base import _
from games.errors import Forbidden, ServiceError
from games.models import Game, Seat

MAX_BODY = 8192


def error_response(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"error": exc.localized()}, status=exc.status)


def seat_for(request: HttpRequest, game: Game, seat: Any) -> int:
    """The seat number the caller may act for; Forbidden otherwise."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise Forbidden("not_your_seat", _("Say which seat you play, as a number."))
    row = Seat.objects.filter(game=game, number=seat).first()
    if row is None:
        raise Forbidden("not_your_seat", _("There is no such seat at this table."))
    token = request.headers.get("X-Seat-Token", "")
    if (token and token == row.token) or (
        request.user.is_authenticated and row.user_id == request.user.pk and not row.is_bot
    ):
        return seat
    raise Forbidden("not_your_seat", _("You do not play this seat."))


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY:
        raise ServiceError("bad_json", _("The request is too large."))
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise ServiceError("bad_json", _("The request is not valid JSON.")) from None
    if not isinstance(body, dict):
        raise ServiceError("bad_json", _("The request must be a JSON object."))
    return body


@csrf_exempt  # authorised by the seat token or the session user, not by a form
@require_POST
def submit_action(request: HttpRequest, game_id: int) -> JsonResponse:
    """POST {"seat": 0, "action": {...}, "command_id": "...", "expected_seq": 12}."""
    try:
        game = service.get_game(game_id)
        body = _body(request)
        seat = seat_for(request, game, body.get("seat"))
        result = service.submit(
            game.pk, seat, body.get("action"), body.get("command_id"), body.get("expected_seq")
        )
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse(result.as_dict())


@require_GET
def game_state(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET ?seat=N (with the seat's token or session) for that seat's view; without, the public view."""
    try:
        game = service.get_game(game_id)
        seat: int | None = None
        if "seat" in request.GET:
            try:
                requested = int(request.GET["seat"])
            except ValueError:
                raise Forbidden("not_your_seat", _("Say which seat you play, as a number.")) from None
            seat = seat_for(request, game, requested)
        table = service.load_table(game)
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse(publish.snapshot(table, seat))
