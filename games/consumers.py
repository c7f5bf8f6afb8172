"""The table socket: one consumer per connection, one group per audience.

On connect the server works out the audience (a seat, by its signed-in user or its token; otherwise a
spectator), joins that audience's group and sends the table as that audience sees it. Updates arrive
pre-computed once per audience (games.publish) and are forwarded untouched; the client applies them in
seq order and asks for ``resync`` when one is missing. Actions and table commands come in with a
command id and get an ``ack`` or an ``error`` (a code and a sentence); a refused one appends nothing.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from games import publish, service
from games.engines.base import _
from games.errors import Forbidden, ServiceError
from games.groups import public_group, seat_group
from games.i18n import scope_language
from games.models import Seat

MAX_MESSAGE = 8192
TABLE_COMMANDS = {
    "undo": service.undo,
    "redo": service.redo,
    "restart": service.restart,
    "new_game": service.new_game,
    "pause": service.pause,
    "resume": service.resume,
}


class TableConsumer(AsyncJsonWebsocketConsumer):
    game_id: int
    seat: int | None
    group: str
    language: str = "en"

    def _message(self, exc: ServiceError) -> dict[str, Any]:
        """An error in the language of the page that opened the socket."""
        with translation.override(self.language):
            return {"type": "error", **exc.localized()}

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Forwarding a pre-computed update touches no database: skip Channels' per-message
        # connection clean-up thread hop, which is most of the cost of a large fan-out.
        if message.get("type") == "table.update":
            await self.table_update(message)
            return
        await super().dispatch(message)

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.language = scope_language(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        token = (query.get("token") or [""])[0]
        try:
            self.seat = await self._audience(token)
        except ServiceError:
            await self.close(code=4404)
            return
        self.group = public_group(self.game_id) if self.seat is None else seat_group(self.game_id, self.seat)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_state()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    @database_sync_to_async
    def _audience(self, token: str) -> int | None:
        game = service.get_game(self.game_id)
        seats = Seat.objects.filter(game=game)
        if token:
            row = seats.filter(token=token).first()
            if row is not None:
                return row.number
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            row = seats.filter(user=user, bot_level="").order_by("number").first()
            if row is not None:
                return row.number
        return None

    @database_sync_to_async
    def _snapshot(self) -> dict[str, Any]:
        table = service.load_table(self.game_id)
        return publish.snapshot(table, self.seat)

    async def _send_state(self) -> None:
        await self.send_json({"type": "state", **await self._snapshot()})

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data is None or len(text_data) > MAX_MESSAGE:
            await self.send_json(
                self._message(ServiceError("bad_json", _("Send a JSON object of at most 8 KB.")))
            )
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_json(self._message(ServiceError("bad_json", _("The message is not valid JSON."))))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(self._message(ServiceError("bad_json", _("Send a JSON object."))))
            return
        kind = content.get("type")
        if kind == "resync":
            await self._send_state()
            return
        try:
            result = await self._command(kind, content)
        except ServiceError as exc:
            await self.send_json({**self._message(exc), "command_id": _safe_id(content.get("command_id"))})
            return
        await self.send_json({"type": "ack", **result})

    @database_sync_to_async
    def _command(self, kind: Any, content: dict[str, Any]) -> dict[str, Any]:
        if self.seat is None:
            raise Forbidden("spectator", _("Spectators watch; they cannot play."))
        command_id, expected_seq = content.get("command_id"), content.get("expected_seq")
        if kind == "action":
            result = service.submit(self.game_id, self.seat, content.get("action"), command_id, expected_seq)
        elif isinstance(kind, str) and kind in TABLE_COMMANDS:
            result = TABLE_COMMANDS[kind](self.game_id, command_id, expected_seq, by=f"seat:{self.seat}")
        else:
            raise ServiceError("unknown_message", _("The table does not understand this message."))
        return {**result.as_dict(), "command_id": command_id}

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


def _safe_id(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= 64 else None
