"""Seasons: the commands (define, change, close, reopen: events appended to the season's own stream)
and the reads (a season, its events' results read from the tournaments' logs, its standings).

Who may define a club's season: staff, or anyone who has organised a tournament of the club (the
platform has no club roles yet); who may change one: staff or whoever defined it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from games.engines.base import _
from games.errors import Conflict, NotFound, ServiceError
from games.eventlog import streams
from games.models import Game
from seasons import log, standings
from tournaments import deals, formats
from tournaments import log as tlog
from tournaments import ratings as rating_rules
from tournaments.models import Club, Tournament

User = AbstractBaseUser | AnonymousUser


@dataclass
class Loaded:
    id: int
    season: log.Season
    club: Club | None


def _user_id(user: Any) -> int | None:
    return getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None


def may_define(user: Any, club: Club) -> bool:
    uid = _user_id(user)
    if uid is None:
        return False
    return (
        bool(getattr(user, "is_staff", False))
        or Tournament.objects.filter(club=club, created_by_id=uid).exists()
    )


def may_change(user: Any, season: log.Season) -> bool:
    uid = _user_id(user)
    return uid is not None and (bool(getattr(user, "is_staff", False)) or season.created_by == uid)


def _events(definition: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": definition["name"],
        "start": definition["start"].isoformat(),
        "end": definition["end"].isoformat(),
        "games": list(definition["games"]),
        "tournaments": definition.get("tournaments"),
        "scoring": definition["scoring"],
        "best": definition.get("best"),
        "tie_breaks": list(definition.get("tie_breaks", [])),
    }


def define(club: Club, definition: dict[str, Any], by: Any) -> int:
    """A new season of ``club``; its id (the stream's)."""
    if not may_define(by, club):
        raise ServiceError(
            "not_organiser", _("Only an organiser of this club's tournaments can define its season.")
        )
    with transaction.atomic():
        stream = streams.open_stream(log.STREAM)
        event = {"type": "season.defined", "club_id": club.pk, "by": _user_id(by), **_events(definition)}
        log.fold([event])  # refuse a definition the fold would not take, before it is stored
        streams.append(
            stream, 0, [event], command_id=f"define-{uuid.uuid4().hex}", actor=f"user:{_user_id(by)}"
        )
    return stream


def _append(season_id: int, by: Any, make: Any) -> log.Season:
    loaded = load(season_id)
    if not may_change(by, loaded.season):
        raise ServiceError("not_organiser", _("Only the season's organiser can change it."))
    event = make(loaded.season)
    log.fold([*_stored(season_id), event])
    try:
        streams.append(
            season_id,
            loaded.season.seq,
            [event],
            command_id=f"season-{uuid.uuid4().hex}",
            actor=f"user:{_user_id(by)}",
        )
    except Conflict:
        raise ServiceError("busy", _("The season changed meanwhile; please try again.")) from None
    return load(season_id).season


def change(season_id: int, definition: dict[str, Any], by: Any) -> log.Season:
    return _append(
        season_id, by, lambda s: {"type": "season.changed", "by": _user_id(by), **_events(definition)}
    )


def close(season_id: int, by: Any, closed: bool = True) -> log.Season:
    return _append(season_id, by, lambda s: {"type": "season.closed" if closed else "season.reopened"})


def _stored(season_id: int) -> list[dict[str, Any]]:
    return [e.as_dict() for e in streams.read(season_id)]


def load(season_id: int) -> Loaded:
    if not Game.objects.filter(pk=season_id, kind=Game.Kind.LOG, engine=log.STREAM).exists():
        raise NotFound("unknown_season", _("There is no such season."))
    season = log.fold(_stored(season_id))
    club = Club.objects.filter(pk=season.club_id).first() if season.club_id else None
    return Loaded(season_id, season, club)


def of_club(club: Club) -> list[Loaded]:
    """The club's seasons, newest first."""
    out = []
    for sid in reversed(streams.ids(log.STREAM)):
        loaded = load(sid)
        if loaded.season.club_id == club.pk:
            out.append(loaded)
    return out


def current(club: Club, today: date) -> Loaded | None:
    """The club's season whose days hold ``today`` (the newest, if several)."""
    return next(
        (s for s in of_club(club) if s.season.start and s.season.start <= today <= s.season.days[1]), None
    )


def season_days(season_id: int | None, club: Club | None) -> tuple[date, date] | None:
    """The days of a season named by id (of the club, if one is named), or of the club's current one."""
    if season_id is not None:
        try:
            loaded = load(season_id)
        except NotFound:
            return None
        if club is not None and loaded.season.club_id != club.pk:
            return None
        return loaded.season.days
    if club is None:
        return None
    found = current(club, datetime.now(UTC).date())
    return found.season.days if found else None


def _day(stream: list[streams.StreamEvent]) -> date:
    """An event's day: its first round's start (else its creation), in UTC."""
    started = next((e for e in stream if e.type in ("tournament.started", "round.started")), stream[0])
    return started.created_at.astimezone(UTC).date()


def _player(e: tlog.Entrant) -> str:
    """A player across the season's events: an account's or a computer's key, else the name typed
    (a guest, a partnership) — the same name at two events is the same player."""
    if not e.members:
        key = rating_rules.entrant_key(e)
        if key is not None:
            return key
    return "name:" + " ".join(e.name.split()).casefold()


def event_result(row: Tournament) -> standings.EventResult | None:
    """A tournament's places as everyone may see them now (its final places once it is over, its
    live standings before), from its log: a correction at the event moves the season at the next
    read."""
    stored = streams.read(row.stream_id)
    if not stored:
        return None
    t = deals.public(tlog.fold([e.as_dict() for e in stored]))
    if not any(r.tables for r in t.rounds):
        return None
    if t.status == tlog.FINISHED:
        # Worked out again from the log, not the places its end recorded: an organiser's correction
        # after the last round (``result.overridden``) moves the event's places, and the season.
        by_entrant = formats.final_places(t)
    else:
        by_entrant = {int(r.entrant): r.rank for r in formats.standings(t)}
    places: dict[str, int] = {}
    names: dict[str, str] = {}
    for number, place in by_entrant.items():
        entrant = t.entrants[number]
        key = _player(entrant)
        if key in places:
            continue  # one player entered twice: the better place counts once
        places[key], names[key] = place, entrant.name
    return standings.EventResult(row.pk, row.name, _day(stored).isoformat(), places, names)


def tournaments_of(season: log.Season) -> list[Tournament]:
    """The tournaments that count: the chosen ones, or every one of the club in the season's days
    and games (each must be the club's and of the season's games either way)."""
    if season.club_id is None:
        return []
    rows = Tournament.objects.filter(club_id=season.club_id, game__in=season.games).order_by("pk")
    if season.tournaments is not None:
        rows = rows.filter(pk__in=season.tournaments)
    return list(rows)


def results(season: log.Season) -> list[standings.EventResult]:
    found = []
    for row in tournaments_of(season):
        result = event_result(row)
        if result is None:
            continue
        if season.tournaments is None and not (
            season.days[0].isoformat() <= result.day <= season.days[1].isoformat()
        ):
            continue
        found.append(result)
    return sorted(found, key=lambda r: (r.day, r.ref))


def table(season: log.Season) -> tuple[list[standings.EventResult], list[standings.Standing]]:
    events = results(season)
    return events, standings.standings(events, season.scoring, season.best, season.tie_breaks)


def player_events(key: str) -> list[tuple[Loaded, standings.Standing, list[standings.EventResult]]]:
    """A player's seasons (for their page): each season they have a result in, with their line."""
    out = []
    for sid in reversed(streams.ids(log.STREAM)):
        loaded = load(sid)
        events, ranked = table(loaded.season)
        mine = next((s for s in ranked if s.player == key), None)
        if mine is not None:
            out.append((loaded, mine, events))
    return out
