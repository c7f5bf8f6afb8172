"""A game as a hand-history file for one audience (the format: replay/history.py, docs/hand-history.md).

"all": every stored event as it is stored (table and fair-deal events included), for an arbiter or
another server's ``import_game``; only for a game that is over and whose deal nobody still plays.
"public" or a seat: per moment, what that audience saw (``Replay.picture``) and the event's data
only when the engine lists its type in ``PUBLIC_EVENTS``; never a seed, a stacked deck, a hidden
event's data or its hash (a hash over a small hidden event can be searched: a drawn domino is one
of 28), nor a fair-deal salt.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.eventlog import store
from games.models import Event, Game
from replay import fair, frames, history
from replay.frames import Replay
from replay.pictures import SECRET_CONFIG, clean, moment_json, public_events


class Refused(Exception):
    """This game cannot be exported for that audience (now): ``str(exc)`` says why."""


def parse_perspective(text: str) -> str | int:
    if text in (history.ALL, history.PUBLIC):
        return text
    if text.isascii() and text.isdigit():  # "²" is a digit to isdigit(), not to int()
        return int(text)
    raise Refused(f"the perspective is all, public or a seat number, not {text!r}")


def export_game(game_id: int, perspective: str | int) -> dict[str, Any]:
    """The hand-history document of a game for ``perspective``; Refused when it may not be made."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Refused(f"there is no game {game_id}")
    if game.kind == Game.Kind.LOG:
        raise Refused(f"{game_id} is an event stream, not a game")
    replay = frames.load(game_id)
    if perspective == history.ALL:
        if not replay.finished:
            raise Refused(_not_over(game_id))
        return _all(game, replay)
    if perspective != history.PUBLIC:
        if not isinstance(perspective, int) or not 0 <= perspective < replay.players:
            raise Refused(f"game {game_id} has seats 0 to {replay.players - 1}, not {perspective}")
        if not replay.finished:
            raise Refused(_not_over(game_id) + " (a seat's export of a live game would show a live hand)")
    return _audience(game, replay, perspective)


def _not_over(game_id: int) -> str:
    return f"game {game_id} is not over (or its deal is still being played at another table)"


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _header(game: Game, replay: Replay, perspective: str | int, config: dict[str, Any]) -> dict[str, Any]:
    over = replay.finished
    return {
        "format": history.FORMAT,
        "format_version": history.VERSION,
        "perspective": perspective,
        "exported_at": timezone.now().isoformat(),
        "game": {
            "id": game.pk,
            "engine": replay.engine.NAME,
            "engine_version": game.engine_version,
            "kind": game.kind,
            "status": game.status,
            "created_at": _when(game.created_at),
            "finished_at": _when(game.finished_at),
            "config": config,
        },
        "seats": [
            {
                "number": s["number"],
                "name": s["display_name"],
                "bot": s["bot_level"] or None,
                "team": s["team"],
            }
            for s in replay.seats
        ],
        "outcome": replay.engine.outcome(replay.states[-1]) if over and replay.states else None,
    }


def event_json(event: Event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "type": event.type,
        "data": event.data,
        "actor": event.actor,
        "command_id": event.command_id,
        "cmd_index": event.cmd_index,
        "created_at": event.created_at.isoformat(),
        "schema_version": event.schema_version,
        "hash": event.hash,
    }


def _all(game: Game, replay: Replay) -> dict[str, Any]:
    events = store.load(game.pk)
    doc = _header(game, replay, history.ALL, dict(game.config))
    doc["head"] = events[-1].hash
    doc["events"] = [event_json(e) for e in events]
    return doc


def _audience(game: Game, replay: Replay, perspective: str | int) -> dict[str, Any]:
    config = {k: v for k, v in game.config.items() if k not in SECRET_CONFIG}
    doc = _header(game, replay, perspective, config)
    public = public_events(replay)
    last = len(replay.moments) - 1 if replay.finished else replay.public_upto
    moments = []
    for moment in replay.moments[: last + 1]:
        item = moment_json(replay, moment, public)
        item["picture"] = clean(replay.picture(moment.index, perspective))
        moments.append(item)
    doc["moments"] = moments
    verdict = fair.verify(game.pk, opened=replay.finished, head=replay.head)
    # The roots hide the deals (salted); the salts and the key stay on the server.
    doc["fair"] = {"status": verdict.status, "hands": verdict.hands, "roots": list(verdict.roots)}
    return doc
