"""Which pages may open the site's sockets: those served by the site itself (docs/security.md).

A browser sends the page's ``Origin`` with every WebSocket handshake and, unlike for a form, never
checks the answer: without this check any site could open a table socket with the visitor's session
cookie and play their seat. Allowed: an origin whose host is one of ``ALLOWED_HOSTS`` (Channels'
rule: any scheme and port), or one of ``CSRF_TRUSTED_ORIGINS`` exactly (scheme, host and port), the
origins Django also trusts for forms. Refused, with HTTP 403 before any consumer runs: any other
origin, no origin at all (unless ``ALLOWED_HOSTS`` is ``*``), and a malformed one (which Channels'
validator would let raise).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings


def allowed_origins() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = ["localhost", "127.0.0.1", "[::1]"]  # what Django itself allows when debugging
    return hosts + list(settings.CSRF_TRUSTED_ORIGINS)


class SiteOriginValidator(OriginValidator):
    def __init__(self, application: Any) -> None:
        super().__init__(application, allowed_origins())

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        for name, value in scope.get("headers", []):
            if name == b"origin" and not _well_formed(value):
                return await WebsocketDenier()(scope, receive, send)
        return await super().__call__(scope, receive, send)


def _well_formed(value: bytes) -> bool:
    try:
        parsed = urlparse(value.decode("latin1"))
        _ = parsed.hostname, parsed.port  # both raise ValueError on "http://[" or "http://a:99999"
    except ValueError:
        return False
    return True
