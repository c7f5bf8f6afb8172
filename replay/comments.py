"""Comments pinned to one event of a game: who may write, who may read, who may hide.

- Signed-in users may comment on a finished game; its players (signed-in users with a seat) also
  while it is being played.
- While a game is being played, or while its deal is still played at another table (a duplicate
  round), a comment is shown to its author only: a player's note may name the cards they hold.
- Staff and whoever made the table may hide a comment (and show it again). A hidden comment
  disappears for everyone else; the row stays, with who hid it and when.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import bounds
from games.engines.base import _
from games.errors import Forbidden, NotFound, ServiceError
from games.live import publish
from games.models import Game
from replay.access import Viewer, last_visible
from replay.frames import Replay
from replay.groups import game_group
from replay.models import Annotation

MAX_TEXT = 1000
log = logging.getLogger(__name__)


def may_comment(replay: Replay, viewer: Viewer) -> bool:
    if viewer.user_id is None:
        return False
    return replay.finished or bool(viewer.seats)


def as_json(note: Annotation) -> dict[str, Any]:
    return {
        "id": note.pk,
        "seq": note.seq,
        "text": note.text,
        "author": note.author.get_username() if note.author else "",
        "author_id": note.author_id,
        "created_at": note.created_at.isoformat(),
        "hidden": note.hidden,
    }


def shown_to(note: dict[str, Any], viewer: Viewer, *, finished: bool, moderator: bool) -> bool:
    """Whether a comment (as_json) is shown to this viewer: the rules of the module docstring."""
    mine = viewer.user_id is not None and note["author_id"] == viewer.user_id
    if not finished:
        return mine
    return mine or moderator or not note["hidden"]


def listing(game: Game, replay: Replay, viewer: Viewer) -> list[dict[str, Any]]:
    moderator = viewer.moderates(game)
    notes = Annotation.objects.filter(game=game).select_related("author")
    out = [as_json(n) for n in notes]
    return [n for n in out if shown_to(n, viewer, finished=replay.finished, moderator=moderator)]


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ServiceError("empty_comment", _("Write something first."))
    text = value.strip()
    if len(text) > MAX_TEXT:
        raise ServiceError(
            "comment_too_long",
            _("A comment has at most {max} characters ({given} given)."),
            max=MAX_TEXT,
            given=len(text),
        )
    return text


def _seq(replay: Replay, value: Any) -> int:
    seq = bounds.read_int(value)
    if seq is None:
        raise ServiceError("bad_seq", _("Say which moment of the game the comment is about."))
    if not any(m.seq == seq for m in replay.moments):
        raise ServiceError("no_such_moment", _("There is no such moment in this game."))
    return seq


def create(game: Game, replay: Replay, viewer: Viewer, seq: Any, text: Any) -> dict[str, Any]:
    """Store a comment and push it to everyone watching this game's replay. Nothing is stored
    when any check fails."""
    if viewer.user_id is None:
        raise Forbidden("sign_in", _("Sign in to comment."))
    if not may_comment(replay, viewer):
        raise Forbidden("not_a_player", _("Only its players may comment on a game that is being played."))
    clean_text, clean_seq = _text(text), _seq(replay, seq)
    if replay.moments[replay.index_of(clean_seq)].index > last_visible(replay, viewer):
        raise ServiceError("no_such_moment", _("There is no such moment in this game."))
    note = Annotation.objects.create(game=game, seq=clean_seq, author_id=viewer.user_id, text=clean_text)
    note = Annotation.objects.select_related("author").get(pk=note.pk)
    payload = as_json(note)
    transaction.on_commit(lambda: push(game.pk, payload))
    return payload


def moderate(game: Game, viewer: Viewer, note_id: Any, hidden: Any) -> dict[str, Any]:
    if not viewer.moderates(game):
        raise Forbidden("not_moderator", _("Only the organiser can hide or show comments."))
    if not isinstance(hidden, bool):
        raise ServiceError("bad_hidden", _("Say whether the comment is hidden or shown."))
    try:
        note = Annotation.objects.select_related("author").get(pk=bounds.ID.parse(note_id), game=game)
    except (bounds.OutOfBounds, Annotation.DoesNotExist):
        raise NotFound("no_such_comment", _("There is no such comment.")) from None
    note.hidden = hidden
    note.hidden_by_id = viewer.user_id if hidden else None
    note.hidden_at = timezone.now() if hidden else None
    note.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    payload = as_json(note)
    transaction.on_commit(lambda: push(game.pk, payload))
    return payload


def push(game_id: int, note: dict[str, Any]) -> None:
    """Tell every replay socket of this game; each one decides whether its viewer sees it."""
    try:
        publish.group_send(game_group(game_id), {"type": "replay.comment", "note": note})
    except Exception:  # a full or unreachable layer must not lose a stored comment
        log.exception("could not push comment %s of game %s", note.get("id"), game_id)
