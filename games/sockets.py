"""What every JSON socket of the site checks before a message reaches its consumer.

A message is refused, with an ``error`` (a stable code and a sentence in the page's language) and
nothing else done, when the connection sends faster than its bucket allows (``rate_limited``,
games/ratelimit.py), when it is a binary frame or larger than the consumer's ``max_message``
characters, or when it is not JSON — nested too deep for the parser included (``bad_json``).
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from games import ratelimit
from games.engines.base import _
from games.errors import ServiceError


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    max_message = 8192
    too_large = _("Send a JSON object of at most 8 KB.")
    language = "en"
    _bucket: ratelimit.TokenBucket | None

    def error_message(self, exc: ServiceError) -> dict[str, Any]:
        """An error in the language of the page that opened the socket."""
        with translation.override(self.language):
            return {"type": "error", **exc.localized()}

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            content = self._parse(text_data)
        except ServiceError as exc:
            await self.send_json(self.error_message(exc))
            return
        await self.receive_json(content)

    def _parse(self, text_data: str | None) -> Any:
        if not hasattr(self, "_bucket"):
            self._bucket = ratelimit.socket_bucket()
        if self._bucket is not None and not self._bucket.take():
            raise ratelimit.RateLimited()
        if text_data is None or len(text_data) > self.max_message:
            raise ServiceError("bad_json", self.too_large)
        try:
            return json.loads(text_data)
        except (ValueError, RecursionError):  # deep nesting overflows the parser: as bad as a typo
            raise ServiceError("bad_json", _("The message is not valid JSON.")) from None
