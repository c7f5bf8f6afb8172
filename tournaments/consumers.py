"""The tournament page's socket: a nudge with the stream's seq on every change (the page fetches itself)."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tournaments.publish import group


class TournamentConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        self.group = group(int(self.scope["url_route"]["kwargs"]["tournament_id"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "seq": message["seq"]})
