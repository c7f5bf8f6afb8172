"""The table socket: one consumer per connection, one group per audience.

On connect the server works out the audience (a seat, by its signed-in user or its token; otherwise a
spectator), joins that audience's group and sends the table as that audience sees it. Updates arrive
pre-computed once per audience (games.publish) and are forwarded untouched; the client applies them in
seq order and asks for ``resync`` when one is missing. Actions and table commands come in with a
command id and get an ``ack`` or an ``error`` (a code and a sentence); a refused one appends nothing.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from games import publish, ratelimit, service
from games.engines.base import _
from games.errors import Forbidden, ServiceError
from games.groups import public_group, seat_group
from games.i18n import scope_language
from games.models import Seat
from games.sockets import GuardedJsonConsumer

MAX_MESSAGE = 8192
TABLE_COMMANDS = {
    "undo": service.undo,
    "redo": service.redo,
    "restart": service.restart,
    "new_game": service.new_game,
    "pause": service.pause,
    "resume": service.resume,
}


class TableConsumer(GuardedJsonConsumer):
    """Messages are checked first by GuardedJsonConsumer (rate, size, JSON: games/sockets.py)."""

    max_message = MAX_MESSAGE
    game_id: int
    seat: int | None
    seat_token: str = ""
    group: str

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
        # Raw bytes in a hand-made handshake must not break the connection: replace what is not UTF-8.
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
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
        row = seats.filter(token=token).first() if token else None
        user = self.scope.get("user")
        if row is None and user is not None and user.is_authenticated:
            row = seats.filter(user=user, bot_level="").order_by("number").first()
        if row is None:
            return None
        self.seat_token = row.token  # the key of this seat's rate limit (games/ratelimit.py)
        return row.number

    @database_sync_to_async
    def _snapshot(self) -> dict[str, Any]:
        table = service.load_table(self.game_id)
        return publish.snapshot(table, self.seat)

    async def _send_state(self) -> None:
        await self.send_json({"type": "state", **await self._snapshot()})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(self.error_message(ServiceError("bad_json", _("Send a JSON object."))))
            return
        kind = content.get("type")
        if kind == "resync":
            await self._send_state()
            return
        try:
            result = await self._command(kind, content)
        except ServiceError as exc:
            await self.send_json(
                {**self.error_message(exc), "command_id": _safe_id(content.get("command_id"))}
            )
            return
        await self.send_json({"type": "ack", **result})

    @database_sync_to_async
    def _command(self, kind: Any, content: dict[str, Any]) -> dict[str, Any]:
        if self.seat is None:
            raise Forbidden("spectator", _("Spectators watch; they cannot play."))
        if kind != "action" and not (isinstance(kind, str) and kind in TABLE_COMMANDS):
            raise ServiceError("unknown_message", _("The table does not understand this message."))
        ratelimit.check_seat(self.seat_token)
        command_id, expected_seq = content.get("command_id"), content.get("expected_seq")
        service.check_client_command_id(command_id)
        if kind == "action":
            result = service.submit(self.game_id, self.seat, content.get("action"), command_id, expected_seq)
        else:
            result = TABLE_COMMANDS[kind](self.game_id, command_id, expected_seq, by=f"seat:{self.seat}")
        return {**result.as_dict(), "command_id": command_id}

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


def _safe_id(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= 64 else None
