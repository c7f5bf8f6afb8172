"""Every answer under /api/v1/ is JSON in the API's one shape, refusals included: an address the API
does not have (Django's 404 page, made before django-ninja sees the request) and a method an address
does not take (django-ninja's plain-text 405). A client switches on the code and never parses HTML."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

from games.engines.base import _
from games.errors import ServiceError

PREFIX = "/api/v1/"


def _json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if response.status_code not in (404, 405) or not request.path.startswith(PREFIX):
        return response
    if response.get("Content-Type", "").startswith("application/json"):
        return response  # already the API's own refusal
    from frontend.api import error_response

    if response.status_code == 404:
        refusal = ServiceError("not_found", _("There is no such address in the API."))
    else:
        refusal = ServiceError(
            "method_not_allowed",
            _("This address does not take {method}; it takes {allowed}."),
            method=request.method or "",
            allowed=response.get("Allow", ""),
        )
    refusal.status = response.status_code
    answer = error_response(request, refusal)
    if response.has_header("Allow"):
        answer["Allow"] = response["Allow"]
    return answer


@sync_and_async_middleware
def json_refusals(
    get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]],
) -> Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]:
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponse:
            return _json(request, await get_response(request))  # type: ignore[misc]

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponse:
        return _json(request, get_response(request))  # type: ignore[arg-type]

    return sync_middleware
