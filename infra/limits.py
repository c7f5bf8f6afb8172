"""Limits on what a request may carry (docs/security.md): its size, and no NUL character.

Request bodies past ``MAX_REQUEST_BODY`` bytes are refused before they are read.

Django's ASGI handler reads a whole body before any view runs (spooled to disk past 2.5 MB), so a view
cannot refuse a large one early. This middleware can: a declared ``Content-Length`` over the limit is
answered at once with HTTP 413 and the API's JSON shape (``too_large``). Every other body is read
here first, up to the limit: one sent in chunks with no length gets the same 413 as soon as it passes
the limit, and the application never runs (it used to be told that the client had left, so it
answered nothing and the connection hung). Within the limit the messages read are handed on as they
came. (Daphne receives a whole request before the application sees any of it; in production nginx's
``client_max_body_size`` bounds that.) WebSocket messages are limited by Daphne itself
(``--websocket-max-message-size``, 1 MiB by default) and then by each consumer (8 KB or 2 KB,
``bad_json``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.translation import gettext

from games.engines.base import _

TOO_LARGE = _("The request is too large.")
HAS_NUL = _("The request holds a character that is not allowed (NUL).")


class BodyLimit:
    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        limit = int(settings.MAX_REQUEST_BODY)
        if scope["type"] != "http" or limit <= 0:
            return await self.application(scope, receive, send)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            return await _refuse(send)
        # Read the body here, up to the limit, before the application runs. Without a declared length
        # (chunked) this is where a large one is found out; with one, it costs nothing Django would
        # not do anyway (it reads every body whole before the view), and a length that lies is caught.
        read: list[dict[str, Any]] = []
        size = 0
        while True:
            message: dict[str, Any] = await receive()
            if message["type"] != "http.request":
                return None  # the client left before the end of its body: nobody to answer
            size += len(message.get("body", b""))
            if size > limit:
                return await _refuse(send)
            read.append(message)
            if not message.get("more_body", False):
                break

        async def replayed() -> dict[str, Any]:
            """The messages read above, then the server's own (a disconnect, when the client leaves)."""
            if read:
                return read.pop(0)
            result: dict[str, Any] = await receive()
            return result

        return await self.application(scope, replayed, send)


def _content_length(scope: dict[str, Any]) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send: Any) -> None:
    body = json.dumps({"error": {"code": "too_large", "message": gettext(TOO_LARGE)}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# --- NUL characters ---------------------------------------------------------------------------------
# PostgreSQL stores no NUL character in text or JSON: a name, a comment or a lookup carrying one fails
# in the database (a server error) unless it is refused first. No person types one.


class RefuseNulMiddleware:
    """Refuse (400, ``bad_request``) a request with a NUL in its path, its query or a form's body.

    A form's body is searched as bytes, not parsed: parsing here would turn a malformed multipart
    body into Django's HTML error page before the view could answer it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if "\x00" in request.path or _nul_in(request.GET.lists()) or _nul_in_form(request):
            body = {"error": {"code": "bad_request", "message": gettext(HAS_NUL)}}
            return JsonResponse(body, status=400)
        return self.get_response(request)


def _nul_in(items: Any) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in items)


def _nul_in_form(request: HttpRequest) -> bool:
    if request.content_type == "application/x-www-form-urlencoded":
        return b"\x00" in request.body or b"%00" in request.body  # "%00" is only ever a NUL there
    if request.content_type == "multipart/form-data":
        return b"\x00" in request.body  # the site takes no file upload
    return False


class RefuseNulSockets:
    """The same for a socket's handshake: a NUL in the path or the query closes it (403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = scope.get("query_string", b"").lower()
        if "\x00" in scope.get("path", "") or b"%00" in query or b"\x00" in query:
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
