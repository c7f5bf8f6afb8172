"""The replay socket: ``/ws/replays/GAME/`` alone, ``/ws/replays/rooms/KEY/`` in a room.

The client loads one hand at a time from one perspective; every index goes through
``frames.allowed`` for this viewer (``pictures.hand_messages``). In a room the driver's moves are
stored on the room and broadcast to its group; each socket turns the driver's position into what its
own viewer may see (``access.settle``) before sending it. Comments pushed to the game's group are
sent on only to the viewers who may read them. Protocol: docs/replay.md.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import translation

from games.access import seats
from games.engines.base import _
from games.errors import ServiceError
from games.eventlog.tables import get_game
from games.live.sockets import GuardedJsonConsumer
from games.models import Game
from games.words.i18n import scope_language
from replay import access, comments, frames, pictures, rooms
from replay.access import Viewer
from replay.frames import Replay
from replay.groups import game_group, room_group

MAX_MESSAGE = 2048


class ReplayConsumer(GuardedJsonConsumer):
    """Messages are checked first by GuardedJsonConsumer (rate, size, JSON: games/live/sockets.py)."""

    max_message = MAX_MESSAGE
    too_large = _("Send a JSON object of at most 2 KB.")
    game_id: int
    room_key: str | None = None
    viewer: Viewer
    replay: Replay
    moderator: bool = False
    following: bool = True
    groups_joined: list[str]

    # --- connecting ----------------------------------------------------------------------------

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        self.groups_joined = []
        kwargs = self.scope["url_route"]["kwargs"]
        try:
            ready = await self._open(kwargs.get("game_id"), kwargs.get("key"))
        except ServiceError:
            await self.close(code=4404)
            return
        self.groups_joined.append(game_group(self.game_id))
        if self.room_key is not None:
            self.groups_joined.append(room_group(self.room_key))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_json(ready)
        if self.room_key is not None:
            await self.send_json(await self._driver())
            await self.send_json(await self._stored_position())
            await self.channel_layer.group_send(room_group(self.room_key), {"type": "room.members"})

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    @database_sync_to_async
    def _open(self, game_id: Any, key: Any) -> dict[str, Any]:
        if key is not None:
            room = rooms.get(key)
            game = room.game
            self.room_key = room.key
        else:
            game = get_game(int(game_id))
        requester = seats.Requester.of_scope(self.scope)
        if game.kind == Game.Kind.LOG or not seats.may_see(requester, game):  # closed as for no such game
            raise ServiceError("unknown_game", _("There is no such game."))
        self.game_id = game.pk
        self.viewer = access.viewer_of(requester, game)
        self.moderator = self.viewer.moderates(game)
        self.replay = frames.load(game.pk)
        if key is not None:
            rooms.join(room, self.viewer)
        return self._ready()

    def _ready(self) -> dict[str, Any]:
        replay, viewer = self.replay, self.viewer
        return {
            "type": "ready",
            "game": self.game_id,
            "finished": replay.finished,
            "hands": [list(h) for h in access.visible_hands(replay, viewer)],
            "perspectives": access.offered(replay, viewer),
            "last": access.last_visible(replay, viewer),
            "room": self.room_key,
        }

    def _fresh(self) -> Replay:
        """The replay, folded again when the game is still being played (it may have moved on)."""
        if not self.replay.finished:
            self.replay = frames.load(self.game_id)
        return self.replay

    # --- messages from the client --------------------------------------------------------------

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        try:
            if not isinstance(content, dict):
                raise ServiceError("bad_json", _("Send a JSON object."))
            kind = content.get("type")
            if kind == "load":
                for message in await self._load(content.get("perspective"), content.get("hand")):
                    await self.send_json(message)
            elif kind in ("move", "follow", "give", "take"):
                await self._room_command(kind, content)
            else:
                raise ServiceError("unknown_message", _("The replay does not understand this message."))
        except ServiceError as exc:
            await self.send_json(self.error_message(exc))

    @database_sync_to_async
    def _load(self, perspective: Any, hand: Any) -> list[dict[str, Any]]:
        chosen = access.parse_perspective(perspective)
        if isinstance(hand, bool) or not isinstance(hand, int):
            raise ServiceError("bad_hand", _("Choose a hand of this game."))
        return list(pictures.hand_messages(self._fresh(), self.viewer, chosen, hand))

    async def _room_command(self, kind: str, content: dict[str, Any]) -> None:
        if self.room_key is None:
            raise ServiceError("not_in_room", _("This replay is not a room."))
        group = room_group(self.room_key)
        if kind == "follow":
            on = content.get("on")
            if not isinstance(on, bool):
                raise ServiceError("bad_follow", _("Say whether you follow the driver."))
            self.following = on
            await self.send_json({"type": "following", "on": on})
            if on:
                await self.send_json(await self._stored_position())
        elif kind == "move":
            room = await self._move(content.get("seq"), content.get("perspective"))
            self.following = True
            await self.channel_layer.group_send(
                group, {"type": "room.position", "seq": room.seq, "perspective": room.perspective}
            )
        elif kind == "give":
            await self._give(content.get("to"))
            await self.channel_layer.group_send(group, {"type": "room.driver"})
        else:
            await self._take()
            await self.channel_layer.group_send(group, {"type": "room.driver"})

    @database_sync_to_async
    def _move(self, seq: Any, perspective: Any) -> Any:
        return rooms.move(rooms.get(self.room_key), self._fresh(), self.viewer, seq, perspective)

    @database_sync_to_async
    def _give(self, to: Any) -> None:
        rooms.give(rooms.get(self.room_key), self.viewer, to)

    @database_sync_to_async
    def _take(self) -> None:
        rooms.take(rooms.get(self.room_key), self.viewer)

    # --- what the room's group and the game's group push ---------------------------------------

    @database_sync_to_async
    def _stored_position(self) -> dict[str, Any]:
        room = rooms.get(self.room_key)
        return self._position_for_me(room.seq, room.perspective)

    def _position_for_me(self, seq: int, perspective: str) -> dict[str, Any]:
        replay = self.replay
        if not replay.finished and seq > replay.moments[-1].seq:
            replay = self._fresh()
        try:
            asked = access.parse_perspective(perspective)
        except ServiceError:
            asked = frames.PUBLIC
        position = access.settle(replay, self.viewer, replay.index_of(seq), asked)
        with translation.override(self.language):
            notice = (
                {"code": position.notice, "message": access.notice_text(position.notice)}
                if position.notice
                else None
            )
        return {
            "type": "position",
            "seq": position.seq(replay),
            "index": position.index,
            "hand": position.hand(replay),
            "perspective": position.perspective,
            "asked": asked,
            "notice": notice,
        }

    @database_sync_to_async
    def _driver(self) -> dict[str, Any]:
        room = rooms.get(self.room_key)
        return {
            "type": "driver",
            "driver": rooms.driver_json(room),
            "you_drive": self.viewer.user_id is not None and room.driver_id == self.viewer.user_id,
            "can_take": rooms.may_take(room, self.viewer),
            "members": rooms.members(room),
        }

    async def room_position(self, event: dict[str, Any]) -> None:
        if not self.following:
            return
        message = await database_sync_to_async(self._position_for_me)(event["seq"], event["perspective"])
        await self.send_json(message)

    async def room_driver(self, event: dict[str, Any]) -> None:
        await self.send_json(await self._driver())

    async def room_members(self, event: dict[str, Any]) -> None:
        await self.send_json(await self._driver())

    async def replay_moved(self, event: dict[str, Any]) -> None:
        """The game moved on (replay.live): what this viewer may see now, as on connect."""
        if self.replay.finished:
            return
        await self.send_json(await self._moved())

    @database_sync_to_async
    def _moved(self) -> dict[str, Any]:
        self.replay = frames.load(self.game_id)
        return {**self._ready(), "type": "moved"}

    async def replay_comment(self, event: dict[str, Any]) -> None:
        note = event["note"]
        if comments.shown_to(note, self.viewer, finished=self.replay.finished, moderator=self.moderator):
            await self.send_json({"type": "comment", "comment": note})
        elif note.get("hidden"):
            await self.send_json({"type": "comment_removed", "id": note["id"]})
