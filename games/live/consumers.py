"""The table socket: one consumer per connection, one feed per audience and process.

On connect the server works out the audience (games/access/seats.py): the seat named by ``?seat=N`` (a
number, no secret), which the handshake's session must hold (its signed-in user, or a credential the
session keeps) or whose credential a script presents in the ``X-Seat-Token`` header; without
``?seat``, the first seat the requester holds, else a spectator. Naming a seat you do not hold, or
presenting a credential that holds none, is refused (``not_your_seat``, close NOT_YOUR_SEAT), never
made a spectator's connection; so is a credential in the address (``?token=``, which access logs
keep). The socket joins its audience's group and gets the table as that audience sees it. Updates arrive
pre-computed once per audience (games.live.publish) and are forwarded untouched; the client applies them in
seq order and asks for ``resync`` when one is missing. The sockets of one audience (a seat, or the
spectators) in one process share one subscription to its updates (games.live.feeds), which writes each
update to all of them; a seat's sockets are also members of its group (the chat's frames). Actions and table commands come in with a
command id and get an ``ack`` or an ``error`` (a code and a sentence); a refused one appends nothing.
An action may leave out ``expected_seq`` (it then applies to the table as it is, if legal for the seat)
and ``command_id`` (the server gives one); an explicit null is still refused.
A lost database is an ``error`` too (``database_unavailable``: send the same command id again); on
connect, before the client has any picture, the socket then closes with TRY_AGAIN to be opened again.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils import translation
from redis.exceptions import RedisError

from games.access import ratelimit, seats
from games.commands import controls, moves, resignation, runner
from games.engines.base import _
from games.errors import DatabaseUnavailable, Forbidden, ServiceError, database_guard
from games.eventlog.tables import get_seen_game, load_table
from games.ids import fits
from games.live import feeds, presence, publish, resume
from games.live.groups import seat_group
from games.live.sockets import TRY_AGAIN, GuardedJsonConsumer
from games.words.i18n import scope_language

log = logging.getLogger(__name__)
MAX_MESSAGE = 8192
# Close codes (docs/live-tables.md): the seat named, or the credential presented, is not the requester's;
# the handshake is malformed (a credential in the address).
NOT_YOUR_SEAT = 4403
BAD_HANDSHAKE = 4400
NOT_FOUND = 4404
TABLE_COMMANDS = {
    "undo": controls.undo,
    "redo": controls.redo,
    "restart": controls.restart,
    "new_game": controls.new_game,
    "pause": controls.pause,
    "resume": controls.resume,
    "resign": resignation.resign,
    "claim": resignation.claim,
}


@dataclass(frozen=True)
class Speaker:
    """Who sent a message of another app (``SEAT_MESSAGES``): the table, the socket's seat (None: a
    spectator), that seat's credential (the key of its rate limits) and the handshake's user."""

    game_id: int
    seat: int | None
    seat_token: str
    user: Any


# Message kinds that apps above games answer on the table's socket (the table's chat: chat/sockets.py
# registers "chat", "chat_history" and "chat_report"), so that games never knows them. Each is called in
# a worker thread, in the socket's language, with the Speaker and the message; it answers this socket
# with the frame it returns (None: nothing) and refuses with a ServiceError (an ``error``). Frames for
# other sockets are sent to their seats' groups as ``table.frame`` (forwarded as they are).
SEAT_MESSAGES: dict[str, Callable[[Speaker, dict[str, Any]], dict[str, Any] | None]] = {}
# Channel-layer messages whose pre-encoded ``text`` a socket forwards untouched.
FORWARDED = frozenset({"table.update", "table.frame"})


class TableConsumer(GuardedJsonConsumer):
    """Messages are checked first by GuardedJsonConsumer (rate, size, JSON: games/live/sockets.py)."""

    max_message = MAX_MESSAGE
    game_id: int
    seat: int | None
    seat_token: str = ""
    group: str
    watch: feeds.Watch | None = None
    present = False  # counted as a connection of its seat (games/live/presence.py)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Forwarding a pre-computed update touches no database: skip Channels' per-message
        # connection clean-up thread hop, which is most of the cost of a large fan-out.
        if message.get("type") in FORWARDED:
            await self.table_update(message)
            return
        await super().dispatch(message)

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.language = scope_language(self.scope)
        # Raw bytes in a hand-made handshake must not break the connection: replace what is not UTF-8.
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"), keep_blank_values=True)
        try:
            if "token" in query:
                raise ServiceError(
                    "token_in_address",
                    _("Send the seat's token in the X-Seat-Token header, never in the address."),
                )
            self.seat = await self._audience(query.get("seat"))
        except DatabaseUnavailable as exc:
            await self._try_again(exc)
            return
        except Forbidden as exc:
            await self._refuse(exc, NOT_YOUR_SEAT)
            return
        except ServiceError as exc:
            if exc.code == "unknown_game":
                # Accepted first, so the client reads the code and the reason, not a bare 403.
                await self._refuse(exc, NOT_FOUND)
                return
            await self._refuse(exc, BAD_HANDSHAKE)
            return
        # Subscribed before the state is read, so no update falls between the state and the stream.
        try:
            if self.seat is not None:
                # The seat's group: its updates in the embedded mode, the chat's frames always.
                self.group = seat_group(self.game_id, self.seat)
                await self.channel_layer.group_add(self.group, self.channel_name)
            if self.seat is None or feeds.on_redis(self.channel_layer):
                self.watch = await feeds.join(
                    self.channel_layer, self.game_id, self._forward, seat=self.seat, lost=self._feed_lost
                )
        except ConnectionError as exc:  # the pub/sub connection failed before confirming: come back
            await self._leave()
            log.warning("game %s: could not subscribe a socket (%s)", self.game_id, exc)
            await self.end(TRY_AGAIN)
            return
        except BaseException:
            await self._leave()
            raise
        if self.seat is not None:
            # The seat is connected: nobody may claim its game while it is (games/live/presence.py).
            await database_sync_to_async(presence.joined)(self.game_id, self.seat)
            self.present = True
        try:
            await self.accept()
            await self._send_state()
            if self.watch is not None:
                await feeds.live(self.watch)
        except DatabaseUnavailable as exc:
            await self._leave()
            await self._try_again(exc)
        except BaseException:
            await self._leave()
            raise

    async def _refuse(self, exc: ServiceError, code: int) -> None:
        """Say why, then close with ``code`` (accepted first: a refused handshake reads as a bare 403)."""
        if not self._accepted:
            await self.accept()
        await self.send_json(self.error_message(exc))
        await self.end(code)

    async def _try_again(self, exc: ServiceError) -> None:
        """No picture of the table to start from: say why, and close so that the client reconnects."""
        await self._refuse(exc, TRY_AGAIN)

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        if self.present:
            self.present = False
            await database_sync_to_async(presence.left)(self.game_id, self.seat)
        if self.watch is not None:
            watch, self.watch = self.watch, None
            await feeds.leave(watch)
        if hasattr(self, "group"):
            group = self.group
            del self.group
            # Redis may be what went away (and its groups with it): nothing left to leave then.
            with contextlib.suppress(RedisError):
                await self.channel_layer.group_discard(group, self.channel_name)

    async def _forward(self, text: str) -> None:
        await self.send(text_data=text)

    async def _feed_lost(self) -> None:
        """The pub/sub connection this socket heard its table through failed: updates may have been
        missed, so the client connects again and reads the table afresh."""
        await self.end(TRY_AGAIN)

    @database_sync_to_async
    def _audience(self, wanted: list[str] | None) -> int | None:
        with database_guard():
            requester = seats.Requester.of_scope(self.scope)  # here: reading the session may query
            game = get_seen_game(self.game_id, requester)
            mine = seats.held(requester, game)
        if wanted is not None:
            number = seats.parse_number(wanted[0]) if len(wanted) == 1 else None
            row = mine.get(number) if number is not None else None
        elif mine:
            row = next(iter(mine.values()))  # the first seat the requester holds
        elif requester.token is None:
            return None  # holds nothing and claims nothing: a spectator
        else:
            row = None  # a credential that holds no seat is wrong, not a spectator's
        if row is None:
            raise Forbidden("not_your_seat", _("You do not play this seat."))
        self.seat_token = row.token  # the key of this seat's rate limit (games/access/ratelimit.py)
        return row.number

    @database_sync_to_async
    def _snapshot(self) -> dict[str, Any]:
        # Seats without a name of their own are named in the language of the page that connects.
        with database_guard(), translation.override(self.language):
            table = load_table(self.game_id)
            return publish.snapshot(table, self.seat)

    async def _send_state(self) -> None:
        await self.send_json({"type": "state", **await self._snapshot()})

    async def _resume(self, since: Any) -> None:
        """Exactly the updates after ``since`` for this socket's audience, or the whole ``state`` when
        ``since`` is too old (games.live.resume)."""
        if not fits(since):
            raise ServiceError("bad_request", _("Say the last seq you have, as a number: since."))
        messages = await self._missed(since)
        if messages is None:
            await self._send_state()
            return
        for message in messages:
            await self.send(text_data=message)

    @database_sync_to_async
    def _missed(self, since: int) -> list[str] | None:
        with database_guard():
            table = load_table(self.game_id)
            return resume.updates_after(table, self.seat, since)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(self.error_message(ServiceError("bad_json", _("Send a JSON object."))))
            return
        kind = content.get("type")
        if kind == "resume" and "since" in content:  # the stream's resume; without "since": un-pause
            try:
                await self._resume(content.get("since"))
            except ServiceError as exc:
                await self.send_json(self.error_message(exc))
            return
        if kind == "resync":
            try:
                await self._send_state()
            except DatabaseUnavailable as exc:
                await self.send_json(self.error_message(exc))  # the client keeps its picture
            return
        if isinstance(kind, str) and kind in SEAT_MESSAGES:
            try:
                answer = await self._seat_message(kind, content)
            except ServiceError as exc:
                await self._refuse_message(exc, content)
                return
            if answer is not None:
                await self.send_json(answer)
            return
        try:
            result = await self._command(kind, content)
        except ServiceError as exc:
            await self._refuse_message(exc, content)
            return
        await self.send_json({"type": "ack", **result})

    async def _refuse_message(self, exc: ServiceError, content: dict[str, Any]) -> None:
        """The refusal of a message, with its command id when it had a usable one."""
        await self.send_json({**self.error_message(exc), "command_id": _safe_id(content.get("command_id"))})

    @database_sync_to_async
    def _seat_message(self, kind: str, content: dict[str, Any]) -> dict[str, Any] | None:
        speaker = Speaker(self.game_id, self.seat, self.seat_token, self.scope.get("user"))
        with database_guard(), translation.override(self.language):
            return SEAT_MESSAGES[kind](speaker, content)

    @database_sync_to_async
    def _command(self, kind: Any, content: dict[str, Any]) -> dict[str, Any]:
        if self.seat is None:
            raise Forbidden("spectator", _("Spectators watch; they cannot play."))
        if kind != "action" and not (isinstance(kind, str) and kind in TABLE_COMMANDS):
            raise ServiceError("unknown_message", _("The table does not understand this message."))
        ratelimit.check_seat(self.seat_token)
        command_id, expected_seq = content.get("command_id"), content.get("expected_seq")
        if kind == "action" and "command_id" not in content:
            command_id = f"ws:{uuid.uuid4().hex}"  # left out: the client will not retry it
        runner.check_client_command_id(command_id)
        with database_guard():
            if kind == "action" and "expected_seq" not in content:
                # Left out: the move applies to the table as it is, if it is legal for this seat now.
                result = moves.submit_now(self.game_id, self.seat, content.get("action"), command_id)
            elif kind == "action":
                result = moves.submit(
                    self.game_id, self.seat, content.get("action"), command_id, expected_seq
                )
            else:
                result = TABLE_COMMANDS[kind](self.game_id, command_id, expected_seq, by=f"seat:{self.seat}")
        return {**result.as_dict(), "command_id": command_id}

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


class SpectatorConsumer(TableConsumer):
    """The spectators' address (``/ws/watch/ID/``, SPECTATOR_SOCKET) served by Daphne, as the spectator
    edge (infra/edge/) serves it: nginx falls back to it while the edge is down. Spectators only: a
    seat asked for here is refused as on the edge (players have the table socket)."""

    @database_sync_to_async
    def _audience(self, wanted: list[str] | None) -> int | None:
        with database_guard():
            # As the edge, which knows nobody: a table whose deal is secret is no table here.
            get_seen_game(self.game_id, seats.Requester())
        if wanted is not None or any(name.lower() == b"x-seat-token" for name, _v in self.scope["headers"]):
            raise Forbidden("not_your_seat", _("You do not play this seat."))
        return None


def _safe_id(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= 64 else None
