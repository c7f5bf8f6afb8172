"""Replay rooms: one driver moves the position, every member follows.

The room stores only where the driver is (``Room.seq``, ``Room.perspective``) and who drives. What
each viewer is shown there is decided per viewer (``access.settle``): a perspective a viewer may not
take becomes the spectators' picture, with a notice.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games.engines.base import _
from games.errors import Forbidden, NotFound, ServiceError
from games.ids import fits
from games.models import Game
from replay import access
from replay.access import Perspective, Viewer
from replay.frames import Replay
from replay.models import Room, RoomMember


def get(key: Any) -> Room:
    if not isinstance(key, str) or not 1 <= len(key) <= 16:
        raise NotFound("no_such_room", _("There is no such replay room."))
    room = Room.objects.select_related("game", "driver", "created_by").filter(key=key).first()
    if room is None:
        raise NotFound("no_such_room", _("There is no such replay room."))
    return room


def open_room(game: Game, replay: Replay, viewer: Viewer, at: Any, as_: Any) -> Room:
    """A new room on ``game``, driven by its creator, starting where the creator asked (or the
    nearest place they may look from)."""
    if viewer.user_id is None:
        raise Forbidden("sign_in", _("Sign in to open a replay room."))
    position = access.land(replay, viewer, at, as_)
    with transaction.atomic():
        room = Room.objects.create(
            game=game,
            created_by_id=viewer.user_id,
            driver_id=viewer.user_id,
            seq=position.seq(replay),
            perspective=str(position.perspective),
        )
        RoomMember.objects.create(room=room, user_id=viewer.user_id)
    return room


def join(room: Room, viewer: Viewer) -> None:
    if viewer.user_id is None:
        return
    try:
        with transaction.atomic():
            RoomMember.objects.get_or_create(room=room, user_id=viewer.user_id)
    except IntegrityError:  # two tabs of the same user joining at once: either row will do
        pass


def members(room: Room) -> list[dict[str, Any]]:
    rows = RoomMember.objects.filter(room=room).select_related("user")
    return [{"id": m.user_id, "name": m.user.get_username()} for m in rows]


def may_take(room: Room, viewer: Viewer) -> bool:
    """Who may take the wheel without being handed it: staff, whoever made the table, and whoever
    opened the room."""
    if viewer.user_id is None:
        return False
    return viewer.moderates(room.game) or room.created_by_id == viewer.user_id


def stored_perspective(room: Room) -> Perspective:
    try:
        return access.parse_perspective(room.perspective)
    except ServiceError:
        return "public"


def move(room: Room, replay: Replay, viewer: Viewer, seq: Any, perspective: Any) -> Room:
    """The driver moves the room. The driver may show only what they may see themselves."""
    if viewer.user_id is None or room.driver_id != viewer.user_id:
        raise Forbidden("not_driver", _("Only the driver moves the room."))
    if not fits(seq):  # a seq is a 64-bit integer, like an id (games/ids.py)
        raise ServiceError("bad_seq", _("Say which moment of the game to show."))
    chosen = access.parse_perspective(perspective)
    index = replay.index_of(seq)
    why = access.may_see(replay, chosen, index, viewer)
    if why is not None:
        raise access.refusal(why)
    room.seq = replay.moments[index].seq
    room.perspective = str(chosen)
    room.save(update_fields=["seq", "perspective"])
    return room


def give(room: Room, viewer: Viewer, to: Any) -> Room:
    """The driver hands the wheel to another member of the room."""
    if viewer.user_id is None or room.driver_id != viewer.user_id:
        raise Forbidden("not_driver", _("Only the driver can hand over driving."))
    # A user id past 64 bits would fail in the database (SQLite cannot bind it): refused first.
    if not fits(to):
        raise ServiceError("bad_member", _("Choose a member of the room."))
    member = RoomMember.objects.filter(room=room, user_id=to).select_related("user").first()
    if member is None:
        raise ServiceError("bad_member", _("Choose a member of the room."))
    room.driver = member.user
    room.save(update_fields=["driver"])
    return room


def take(room: Room, viewer: Viewer) -> Room:
    if not may_take(room, viewer):
        raise Forbidden("cannot_take", _("Only the organiser can take the wheel."))
    room.driver_id = viewer.user_id
    room.save(update_fields=["driver"])
    return Room.objects.select_related("game", "driver", "created_by").get(pk=room.pk)


def driver_json(room: Room) -> dict[str, Any]:
    return {"id": room.driver_id, "name": room.driver.get_username() if room.driver else ""}
