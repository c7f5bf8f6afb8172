"""Hand histories over the API, in the compact form (docs/api.md "Hand histories").

The full export (replay/export.py) carries a picture per moment; this one carries the events (their
data only for the engine's public event types, as the live move log) and the pictures asked for:
by default the last one; each hand's first moment and the last with `views=hands`; or `at` chosen seqs. Any moment can be
asked for later: `?at=SEQ`.

Who may read which perspective: a game is read once it is over. "public" and any seat, by anyone,
once no duplicate deal of it is still played elsewhere (replay.frames.Replay.finished); before that,
a seat by its player only. "all" (every stored event, as the server keeps it) by the organiser who
made the table (or staff), with a token of the ``organise`` scope, after the end.
"""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import Field

from frontend.api import schemas
from frontend.api.auth import TokenAuth, caller
from frontend.api.tables import ERRORS, game_of
from games import bounds
from games.access import seats
from games.engines.base import _
from games.errors import Forbidden, ServiceError, database_guard
from games.eventlog import store
from games.models import ApiToken, Game
from replay import fair, frames, history
from replay.export import _header, event_json
from replay.pictures import clean, moment_json
from tournaments.models import organises

router = Router(tags=["histories"], auth=TokenAuth())
COMPACT = "tablehall.hand-history.compact"
MAX_AT = bounds.AT_SEQS.high


class HistoryQuery(Schema):
    perspective: str = Field("public", description='"public", a seat number, or "all".')
    views: Literal["end", "hands", "none"] = Field(
        "end", description="end: the last moment's view; hands: each hand's first moment and the last; none."
    )
    at: str | None = Field(
        None,
        max_length=MAX_AT * (bounds.DIGITS + 1),
        description=f"Up to {MAX_AT} seqs, comma-separated: those moments' views too.",
    )


class NotOver(ServiceError):
    status = 409

    def __init__(self) -> None:
        super().__init__(
            "game_not_over", _("This game is still being played: its hand history comes when it ends.")
        )


def _perspective(text: str) -> str | int:
    if text in (history.ALL, history.PUBLIC):
        return text
    seat = bounds.read_int(text)
    if seat is not None and bounds.SEAT.accepts(seat):
        return seat
    raise ServiceError(
        "bad_request", _("The perspective is public, all or a seat number."), fields=["perspective"]
    )


def _seqs(text: str | None) -> list[int]:
    if not text:
        return []
    parts = text.split(",", MAX_AT)  # never more than MAX_AT + 1 pieces, however long the text
    seqs = [bounds.read_int(p) for p in parts]
    if len(parts) > MAX_AT or not all(s is not None and bounds.SEQ.accepts(s) for s in seqs):
        raise ServiceError(
            "bad_request", _("Give at most {count} seqs, separated by commas."), count=MAX_AT, fields=["at"]
        )
    return [s for s in seqs if s is not None]


def _check(request: HttpRequest, game: Game, replay: frames.Replay, perspective: str | int) -> None:
    if game.status == Game.Status.ACTIVE:
        raise NotOver()
    if perspective == history.ALL:
        user = caller(request).need(ApiToken.Scope.ORGANISE)
        if not (user.is_staff or game.created_by_id == user.pk or organises(game, user)):
            raise Forbidden("not_organiser", _("Only the organiser sees every hand of this game."))
        return
    if isinstance(perspective, int) and not 0 <= perspective < replay.players:
        raise ServiceError("bad_request", _("There is no such seat at this table."), fields=["perspective"])
    if replay.finished:
        return
    who = caller(request)
    mine = frozenset(seats.held(who.requester(ApiToken.Scope.READ, ApiToken.Scope.PLAY), game))
    if perspective not in mine:
        raise Forbidden(
            "deal_secret", _("This deal is still being played at another table: only its players see it now.")
        )


@router.get("/tables/{table}/history", response={200: schemas.History, **ERRORS}, url_name="history")
def hand_history(request: HttpRequest, table: str, query: Query[HistoryQuery]) -> dict[str, Any]:
    """A finished game's hand history for one perspective, compact: events, and views on demand."""
    perspective = _perspective(query.perspective)
    wanted = _seqs(query.at)
    with database_guard():
        game = game_of(table, request)
        replay = frames.load(game.pk)
        _check(request, game, replay, perspective)
        return compact(game, replay, perspective, query.views, wanted)


def _events(moments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moments as few bytes tell them: the hand is in ``hands``; ``seq`` only when it is not the
    seq before plus one (table and fair-deal events leave gaps); ``actor`` only when it differs from
    the event before; ``end`` only when it is false."""
    out = []
    actor, seq = None, None
    for moment in moments:
        event: dict[str, Any] = {"type": moment["type"]}
        if seq is None or moment["seq"] != seq + 1:
            event["seq"] = moment["seq"]
        seq = moment["seq"]
        if moment["actor"] != actor:
            event["actor"] = actor = moment["actor"]
        if "data" in moment:
            event["data"] = moment["data"]
        if not moment["end"]:
            event["end"] = False
        out.append(event)
    return out


def compact(
    game: Game, replay: frames.Replay, perspective: str | int, views: str, at: list[int]
) -> dict[str, Any]:
    """The compact document (the perspective already allowed)."""
    if perspective == history.ALL:
        doc = _header(game, replay, history.ALL, dict(game.config))
        events = store.load(game.pk)
        doc["head"] = events[-1].hash if events else None
        doc["events"] = [event_json(e) for e in events]
    else:
        doc = _header(
            game, replay, perspective, {k: v for k, v in game.config.items() if k not in ("deck", "seed")}
        )
        public = frozenset(getattr(replay.engine, "PUBLIC_EVENTS", frozenset()))
        doc["events"] = _events([moment_json(replay, m, public) for m in replay.moments])
        doc["hands"] = [
            {"hand": hand, "first": replay.moments[first].seq, "last": replay.moments[last].seq}
            for hand, first, last in replay.hands()
        ]
        verdict = fair.verify(game.pk, opened=replay.finished, head=replay.head)
        doc["fair"] = {"status": verdict.status, "hands": verdict.hands, "roots": list(verdict.roots)}
    doc["format"] = COMPACT
    doc.pop("exported_at", None)
    indices: set[int] = set()
    if replay.moments and views == "hands":
        indices |= {first for _hand, first, _last in replay.hands()}
    if replay.moments and views in ("hands", "end"):
        indices.add(len(replay.moments) - 1)
    indices |= {replay.index_of(seq) for seq in at if replay.moments}
    mine = frozenset({perspective}) if isinstance(perspective, int) else frozenset()
    pictures: dict[str, dict[str, Any]] = {}
    for index in sorted(indices):
        try:
            frames.allowed(replay, perspective, index, mine)
        except frames.NotAllowed:
            continue  # "all" of a hand not over: never here, the game is over (kept as a guard)
        pictures[str(replay.moments[index].seq)] = clean(replay.picture(index, perspective))
    doc["views"] = pictures
    return doc
