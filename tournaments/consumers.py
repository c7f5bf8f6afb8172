"""The tournament page's socket: a nudge with the stream's seq on every change (the page fetches itself)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games.engines.base import _
from games.errors import ServiceError
from games.live.sockets import GuardedJsonConsumer
from games.words.i18n import scope_language
from tournaments.models import Tournament
from tournaments.publish import group


@database_sync_to_async
def _exists(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


class TournamentConsumer(GuardedJsonConsumer):
    """Only listens: whatever a client sends is answered ``unknown_message`` (after the checks of
    GuardedJsonConsumer), never a crash of the connection."""

    max_message = 2048
    too_large = _("Send a JSON object of at most 2 KB.")

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        # An unknown id is refused before it names a group (a 200-digit id is no valid group name).
        if not await _exists(tournament_id):
            await self.close(code=4404)
            return
        self.group = group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(self.error_message(ServiceError("bad_json", _("Send a JSON object."))))
            return
        refusal = ServiceError(
            "unknown_message", _("This page's socket only sends news; it takes no messages.")
        )
        await self.send_json(self.error_message(refusal))

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "seq": message["seq"]})
