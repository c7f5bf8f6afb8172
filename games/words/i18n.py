"""The language of a table socket, and the words engines put into their error sentences.

HTTP requests get their language from Django's LocaleMiddleware (and a signed-in player's saved
choice, frontend/languages.py, which keeps the language cookie in step). A WebSocket has no
middleware: ``scope_language`` reads the same cookie and ``Accept-Language`` header from the
handshake, so errors on the socket come in the language of the page that opened it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils.translation import get_language_from_request, pgettext_lazy

# Words engines pass as error parameters (dominoes' ``{end}``, Pitch's ``{suit}``);
# ServiceError.localized() looks every string parameter up in this context, so these are translated
# and anything else (card and tile notation, numbers, option names) is kept as it is.
PARAMETER_CONTEXT = "error parameter"
PARAMETER_WORDS = (
    pgettext_lazy("error parameter", "left"),
    pgettext_lazy("error parameter", "right"),
    pgettext_lazy("error parameter", "up"),
    pgettext_lazy("error parameter", "down"),
    pgettext_lazy("error parameter", "center"),
    pgettext_lazy("error parameter", "spade"),
    pgettext_lazy("error parameter", "heart"),
    pgettext_lazy("error parameter", "diamond"),
    pgettext_lazy("error parameter", "club"),
)


def scope_language(scope: dict[str, Any]) -> str:
    """The language for a socket's handshake: the language cookie, else the browser's preference."""
    headers = {bytes(k).lower(): bytes(v).decode("latin-1") for k, v in scope.get("headers", [])}
    request = SimpleNamespace(
        COOKIES=parse_cookie(headers.get(b"cookie", "")),
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", "")},
        path_info="/",
    )
    return get_language_from_request(cast(HttpRequest, request))
