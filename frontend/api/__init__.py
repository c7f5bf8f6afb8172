"""The public API, version 1 (/api/v1/, docs/api.md): django-ninja routes whose OpenAPI description
is generated at /api/v1/schema. Every refusal has one shape, {"error": {"code", "message"}}, with the
stable codes of games/errors.py; a missing or malformed field is ``bad_request`` naming it."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.renderers import JSONRenderer

from games.engines.base import _
from games.errors import ServiceError


class ObjectParser(Parser):
    """A request's body is a JSON object or nothing: ``[1, 2]`` or ``null`` is ``bad_json`` (#37: it
    was "Missing field: action"), as a text that is no JSON is."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        data = json.loads(request.body)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return data


class CompactJSON(JSONRenderer):
    json_dumps_params = {"separators": (",", ":")}  # noqa: RUF012 - the base class's attribute


api = NinjaAPI(
    renderer=CompactJSON(),
    parser=ObjectParser(),
    title="Tablehall API",
    version="1",
    description="Tables, seats, moves and hand histories of Tablehall. Guide: docs/api.md.",
    urls_namespace="api_v1",
    openapi_url="/schema",
    docs_url=None,  # the guide is docs/api.md; the schema is the reference
)


def error_response(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    """A refusal in the API's one shape, in the request's language."""
    body: dict[str, Any] = exc.localized()
    fields = exc.params.get("fields")
    if isinstance(fields, str):
        fields = fields.split(", ")
    if isinstance(fields, list):
        body["fields"] = fields
    response = api.create_response(request, {"error": body}, status=exc.status)
    if exc.status in (429, 503):
        response["Retry-After"] = "1"
    if exc.status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


def _field(location: list[Any]) -> str:
    """A pydantic error's location as the client wrote it: ``("body", "body", "seats", 0)`` -> ``seats.0``."""
    parts = [str(p) for p in location]
    while parts and parts[0] in ("body", "query", "path"):
        parts = parts[1:]
    return ".".join(parts) or "body"


@api.exception_handler(ServiceError)
def service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    return error_response(request, exc)


@api.exception_handler(ValidationError)
def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    missing = sorted({_field(list(e.get("loc", []))) for e in exc.errors if e.get("type") == "missing"})
    if missing:
        refusal = ServiceError("bad_request", _("Missing field: {fields}."), fields=", ".join(missing))
    else:
        wrong = sorted({_field(list(e.get("loc", []))) for e in exc.errors})
        refusal = ServiceError(
            "bad_request",
            _("These fields are not right: {fields}. The schema at /api/v1/schema says what they hold."),
            fields=", ".join(wrong),
        )
    return error_response(request, refusal)


@api.exception_handler(AuthenticationError)
def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(
        request, ServiceError("sign_in", _("Send a personal API token: Authorization: Bearer <token>."))
    )


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    refusal = ServiceError("bad_json", _("The request is not valid JSON."))
    refusal.status = exc.status_code
    return error_response(request, refusal)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    refusal = ServiceError("not_found", _("There is no such address in the API."))
    refusal.status = 404
    return error_response(request, refusal)


def _register() -> None:
    from frontend.api import histories, rankings, seasons, streams, tables, tournaments

    api.add_router("", tables.router)
    api.add_router("", streams.router)
    api.add_router("", histories.router)
    api.add_router("", tournaments.router)
    api.add_router("", rankings.router)
    api.add_router("", seasons.router)


_register()
