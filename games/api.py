"""The HTTP API for scripts and bots: submit an action, read a seat's view.

A caller acts for a seat by sending the seat's credential in the ``X-Seat-Token`` header, or by a
session that holds the seat: its signed-in user, or the credential a guest's session keeps (who holds
what: games/access/seats.py). Every refusal is JSON: {"error": {"code": ..., "message": ...}}, a lost
database included (``database_unavailable``, 503: send the same command id again).

CSRF (docs/security.md): a request with a seat credential is authorised by that header alone, which
another site cannot make a browser send, so it needs no CSRF token. A request without one is authorised
by the session cookie, which a browser sends along with a request forged by any site: it must carry
Django's CSRF token like a form (``csrf_failed`` otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt

from games.access import ratelimit, seats
from games.access.seats import TOKEN_HEADER
from games.commands import moves, runner
from games.engines.base import _
from games.errors import Forbidden, NotFound, ServiceError, database_guard
from games.eventlog.tables import get_seen_game, load_table
from games.live import publish
from games.models import Game, Seat

MAX_BODY = 8192

View = Callable[..., HttpResponse]


class MethodNotAllowed(ServiceError):
    status = 405


def error_response(exc: ServiceError) -> JsonResponse:
    response = JsonResponse({"error": exc.localized()}, status=exc.status)
    if exc.status == 503:
        response["Retry-After"] = "1"
    return response


def only(method: str) -> Callable[[View], View]:
    """Like require_GET/require_POST, with the refusal in the API's JSON shape."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != method:
                refusal = MethodNotAllowed(
                    "method_not_allowed", _("This address answers only {method} requests."), method=method
                )
                response = error_response(refusal)
                response["Allow"] = method
                return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def seat_for(request: HttpRequest, game: Game, seat: Any) -> Seat:
    """The seat the caller may act for; Forbidden otherwise. With a credential in the header, it
    alone decides (the session is not asked: see the module docstring)."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise Forbidden("not_your_seat", _("Say which seat you play, as a number."))
    row = seats.holds(seats.Requester.of_request(request), game, seat)
    if row is not None:
        return row
    # Asked only on a refusal, so a move costs no query for it.
    if not Seat.objects.filter(game=game, number=seat).exists():
        raise Forbidden("not_your_seat", _("There is no such seat at this table."))
    raise Forbidden("not_your_seat", _("You do not play this seat."))


def _nothing(request: HttpRequest) -> HttpResponse:
    return HttpResponse()


def _check_csrf(request: HttpRequest) -> None:
    """Django's CSRF check for a caller authorised by its session (the view itself is exempt)."""
    if request.headers.get(TOKEN_HEADER):
        return
    requester = seats.Requester.of_request(request, header=False)
    if requester.user_id is None and not requester.kept:
        return  # nothing in the session could authorise it: refused as not_your_seat
    if CsrfViewMiddleware(_nothing).process_view(request, _nothing, (), {}) is not None:
        raise Forbidden(
            "csrf_failed", _("This request did not come from the table's page: reload it and try again.")
        )


def _body(request: HttpRequest) -> dict[str, Any]:
    # Read at most one byte past the limit: a large body is refused without being read or parsed.
    raw = request.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise ServiceError("bad_json", _("The request is too large."))
    try:
        body = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):  # deep nesting overflows the parser
        raise ServiceError("bad_json", _("The request is not valid JSON.")) from None
    if not isinstance(body, dict):
        raise ServiceError("bad_json", _("The request must be a JSON object."))
    return body


@csrf_exempt  # checked in the view, only for callers authorised by their session (_check_csrf)
@only("POST")
def submit_action(request: HttpRequest, game_id: int) -> JsonResponse:
    """POST {"seat": 0, "action": {...}, "command_id": "...", "expected_seq": 12}."""
    try:
        with database_guard():
            game = get_seen_game(game_id, seats.Requester.of_request(request))
            _check_csrf(request)
            body = _body(request)
            seat = seat_for(request, game, body.get("seat"))
            ratelimit.check_seat(seat.token)
            command_id = body.get("command_id")
            runner.check_client_command_id(command_id)
            result = moves.submit(
                game.pk, seat.number, body.get("action"), command_id, body.get("expected_seq")
            )
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse(result.as_dict())


@only("GET")
def game_state(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET ?seat=N (with the seat's token or session) for that seat's view; without, the public view."""
    try:
        with database_guard():
            game = get_seen_game(game_id, seats.Requester.of_request(request))
            seat: int | None = None
            if "seat" in request.GET:
                requested = seats.parse_number(request.GET["seat"])
                if requested is None:
                    raise Forbidden("not_your_seat", _("Say which seat you play, as a number."))
                seat = seat_for(request, game, requested).number
            table = load_table(game)
            snapshot = publish.snapshot(table, seat)  # reads the seats
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse(snapshot)


@csrf_exempt  # nothing is read or changed: the answer is the same with or without a token
def no_such_game(request: HttpRequest, endpoint: str) -> HttpResponse:
    """``/api/games/ID/actions`` or ``…/state`` with an id past a 64-bit integer, which the routes
    above do not match (games/ids.py): the API's own answer to an unknown game, after the same
    method check, instead of Django's HTML 404."""

    def unknown(request: HttpRequest) -> HttpResponse:
        return error_response(NotFound("unknown_game", _("There is no such game.")))

    return only("POST" if endpoint == "actions" else "GET")(unknown)(request)
