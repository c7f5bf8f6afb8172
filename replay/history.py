"""The hand-history file (docs/hand-history.md): one game as JSON, for one audience.

``export.py`` writes it and ``importer.py`` reads "all" files back. This module holds the format: its
name and version, and the checks the shape of an "all" file must pass before anything trusts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from games.eventlog import store, timeline
from games.models import NAME_LENGTH

FORMAT = "tablehall.hand-history"
VERSION = 1
ALL, PUBLIC = "all", "public"
MAX_TEXT = 64  # the longest type, actor or command id the store keeps (a seat's name: NAME_LENGTH)
_HASH = re.compile(r"^[0-9a-f]{64}$")


class BadFile(Exception):
    """A file refused: ``str(exc)`` says why; ``seq`` names the first bad event when there is one."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(f"event {seq}: {message}" if seq is not None else message)
        self.seq = seq


@dataclass(frozen=True)
class FileEvent:
    seq: int
    type: str
    data: dict[str, Any]
    actor: str
    command_id: str
    cmd_index: int
    created_at: datetime
    schema_version: int
    hash: str


#: The keys an event of a file has: its fields, no more, no fewer.
_EVENT_KEYS = {f.name for f in fields(FileEvent)}


@dataclass(frozen=True)
class FileSeat:
    number: int
    name: str
    bot: str
    team: int | None


@dataclass(frozen=True)
class History:
    """An "all" file whose shape holds (nothing about its content is checked yet)."""

    original_id: int | None
    engine: str
    engine_version: int
    kind: str
    status: str
    config: dict[str, Any]
    created_at: datetime
    finished_at: datetime | None
    seats: list[FileSeat]
    outcome: dict[str, Any] | None
    head: str
    events: list[FileEvent]

    def rows(self) -> list[timeline.Row]:
        return [timeline.Row(e.seq, e.type, e.data, e.actor, e.command_id) for e in self.events]


def _need(condition: bool, message: str, seq: int | None = None) -> None:
    if not condition:
        raise BadFile(message, seq)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, longest: int = MAX_TEXT) -> bool:
    return isinstance(value, str) and 0 < len(value) <= longest


def _when(value: Any, what: str, seq: int | None = None) -> datetime:
    _need(isinstance(value, str), f"{what} is not a date and time", seq)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise BadFile(f"{what} is not an ISO 8601 date and time", seq) from None
    _need(moment.tzinfo is not None, f"{what} has no time zone", seq)
    return moment


def perspective(doc: Any) -> str | int:
    """The audience a hand-history file was exported for; BadFile if it is no such file."""
    _need(isinstance(doc, dict), "this is not a hand-history file (not a JSON object)")
    _need(doc.get("format") == FORMAT, f'this is not a hand-history file ("format" is not "{FORMAT}")')
    version = doc.get("format_version")
    _need(version == VERSION, f"format version {version!r} is not one this server reads ({VERSION})")
    seen = doc.get("perspective")
    _need(seen in (ALL, PUBLIC) or (_int(seen) and seen >= 0), "the perspective is not all, public or a seat")
    return seen  # type: ignore[no-any-return]


def parse_all(doc: Any) -> History:
    """An "all" file's content, shape checked; BadFile names what is wrong."""
    seen = perspective(doc)
    _need(
        seen == ALL,
        f'this file was exported for the audience "{seen}": only "all" exports hold every event, so only '
        "they can be verified and imported",
    )
    game = doc.get("game")
    _need(isinstance(game, dict), '"game" is missing or not an object')
    _need(_text(game.get("engine"), 32), "the game has no engine name")
    _need(_int(game.get("engine_version")), "the game has no engine version")
    _need(isinstance(game.get("config"), dict), "the game has no config")
    _need(
        game.get("kind") in ("casual", "rated", "tournament"),
        "the game's kind is not casual, rated or tournament",
    )
    _need(game.get("status") in ("finished", "aborted"), "the game's status is not finished or aborted")
    original = game.get("id")
    _need(original is None or _int(original), "the game id is not a number")
    finished_at = game.get("finished_at")
    seats = _seats(doc.get("seats"))
    outcome = doc.get("outcome")
    _need(outcome is None or isinstance(outcome, dict), '"outcome" is not an object')
    events = _events(doc.get("events"))
    head = doc.get("head")
    _need(head == events[-1].hash, '"head" is not the hash of the last event')
    return History(
        original_id=original,
        engine=game["engine"],
        engine_version=game["engine_version"],
        kind=game["kind"],
        status=game["status"],
        config=game["config"],
        created_at=_when(game.get("created_at"), "the game's created_at"),
        finished_at=None if finished_at is None else _when(finished_at, "the game's finished_at"),
        seats=seats,
        outcome=outcome,
        head=head,
        events=events,
    )


def _seats(raw: Any) -> list[FileSeat]:
    _need(isinstance(raw, list) and len(raw) > 0, '"seats" is missing or empty')
    seats = []
    for number, seat in enumerate(raw):
        _need(isinstance(seat, dict), f"seat {number} is not an object")
        _need(seat.get("number") == number, f"seat {number} is numbered {seat.get('number')!r}")
        _need(
            _text(seat.get("name"), NAME_LENGTH),
            f"seat {number} has no name of 1 to {NAME_LENGTH} characters",
        )
        bot = seat.get("bot")
        _need(bot is None or _text(bot, 16), f"seat {number}'s computer level is not a short text")
        team = seat.get("team")
        _need(team is None or (_int(team) and team >= 0), f"seat {number}'s team is not a number")
        seats.append(FileSeat(number, seat["name"], bot or "", team))
    return seats


def _events(raw: Any) -> list[FileEvent]:
    _need(isinstance(raw, list) and len(raw) > 0, '"events" is missing or empty')
    events = []
    for position, event in enumerate(raw, start=1):
        _need(isinstance(event, dict), f"event number {position} is not an object")
        seq = event.get("seq")
        _need(seq == position, f"event number {position} has seq {seq!r}: seqs count 1, 2, 3 …")
        missing = sorted(_EVENT_KEYS - set(event))
        _need(not missing, f"missing {', '.join(missing)}", position)
        extra = sorted(set(event) - _EVENT_KEYS)
        _need(not extra, f"unknown field {', '.join(extra)}", position)
        _need(_text(event["type"]), "the type is not a short text", position)
        _need(isinstance(event["data"], dict), "the data is not an object", position)
        _need("type" not in event["data"], 'the data holds a "type"', position)
        _need(_text(event["actor"]), "the actor is not a short text", position)
        _need(_text(event["command_id"]), "the command id is not a short text", position)
        _need(_int(event["cmd_index"]) and event["cmd_index"] >= 0, "cmd_index is not a number", position)
        _need(_int(event["schema_version"]), "schema_version is not a number", position)
        _need(isinstance(event["hash"], str) and bool(_HASH.match(event["hash"])), "bad hash", position)
        events.append(
            FileEvent(
                seq=position,
                type=event["type"],
                data=event["data"],
                actor=event["actor"],
                command_id=event["command_id"],
                cmd_index=event["cmd_index"],
                created_at=_when(event["created_at"], "created_at", position),
                schema_version=event["schema_version"],
                hash=event["hash"],
            )
        )
    return events


def check_chain(events: list[FileEvent]) -> None:
    """Recompute every hash with the store's own function; BadFile at the first one that differs."""
    previous = store.GENESIS
    for e in events:
        _need(
            e.schema_version == store.SCHEMA_VERSION,
            f"schema version {e.schema_version} is not this server's ({store.SCHEMA_VERSION})",
            e.seq,
        )
        expected = store.chain_hash(previous, e.seq, e.type, e.data, e.actor, e.command_id, e.schema_version)
        _need(expected == e.hash, "its hash does not match its content and the previous hash", e.seq)
        previous = e.hash


def commands(events: list[FileEvent]) -> list[list[FileEvent]]:
    """The events grouped by the command that appended them, checked as the store would store them:
    contiguous, numbered 0, 1, 2 … within the command, one actor, each command id once."""
    groups: list[list[FileEvent]] = []
    seen: set[str] = set()
    for e in events:
        if groups and groups[-1][0].command_id == e.command_id:
            group = groups[-1]
            _need(e.actor == group[0].actor, "one command with two actors", e.seq)
            _need(
                e.cmd_index == len(group), f"cmd_index {e.cmd_index} where {len(group)} was expected", e.seq
            )
            group.append(e)
        else:
            _need(e.command_id not in seen, f"command {e.command_id!r} appears twice", e.seq)
            _need(e.cmd_index == 0, f"cmd_index {e.cmd_index} where 0 was expected", e.seq)
            seen.add(e.command_id)
            groups.append([e])
    return groups
