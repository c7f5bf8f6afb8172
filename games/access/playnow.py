"""Play now (#33, finding a game): a signed-in player asks for a game with its options, casual or
rated; if someone already waits for the same (``key``), a table is made with both seated; otherwise
the player waits (a ``Seek``), their page asking ``state`` now and then, until the next player comes,
they cancel, or the wait lapses.

At most one entry waits per key (a unique index on the waiting ones): of two players pressing at once,
the second's insert fails, and pressing again finds the first's entry and is seated with them. The entry
matched is locked, so it is matched once; nobody is matched with themselves.

A player who asked for it gets a computer after ``fallback`` minutes without an opponent: a job
(``FALLBACK``, games/background/jobs.py) that seats them with a computer if the entry is still waiting then.

The time is an argument (``now``): views pass the clock's, tests pass theirs.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import bounds
from games.access import seats
from games.background import jobs
from games.commands.create import SeatSpec, create_game
from games.engines.base import _
from games.errors import ServiceError
from games.models import Game, Seek

FALLBACK = "games.tasks.play_now_fallback"
# How long an entry waits at most, and how long without its page asking before it lapses (a closed tab:
# a hidden tab's timers may run once a minute in a browser that saves power).
LIFETIME = timedelta(minutes=10)
UNSEEN = timedelta(seconds=150)
# The others' seats at a table of more than two (a four-player Pitch): computers of this level.
COMPUTER = "greedy"
ATTEMPTS = 5

GONE = _("This wait is over.")


class NoSuchWait(ServiceError):
    status = 404


class Busy(ServiceError):
    status = 409


def key_of(engine: str, config: dict[str, Any], kind: str, club_id: int | None = None) -> str:
    """Who may be seated together: the same game, options (as the engine composed them) and kind; and
    for a club-only table the same club (a key without a club is the one it always was)."""
    parts: list[Any] = [engine, config, kind] + ([club_id] if club_id is not None else [])
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def alive(seek: Seek, now: datetime) -> bool:
    return seek.status == Seek.Status.WAITING and seek.expires_at > now and seek.seen_at > now - UNSEEN


def _table(
    engine: str, config: dict[str, Any], kind: str, users: list[Any], club_id: int | None = None
) -> Game:
    """A table with ``users`` seated in a random order and computers in the other seats."""
    people = list(users)
    secrets.SystemRandom().shuffle(people)
    specs = [SeatSpec(u.get_username(), user=u) for u in people]
    specs += [SeatSpec.computer(n + 1, COMPUTER) for n in range(len(specs), config["players"])]
    return create_game(engine, config, specs, kind=kind, club_id=club_id)


def press(
    user: Any,
    engine: str,
    config: dict[str, Any],
    kind: str,
    *,
    fallback_minutes: int | None = None,
    club_id: int | None = None,
    now: datetime | None = None,
) -> Seek:
    """``user`` presses Play now (``config`` composed and checked by the engine already): their entry,
    seated (``game`` set) if someone was waiting for the same, else waiting. A waiting entry of theirs
    for something else is cancelled (one wait at a time); pressing again for the same finds their own."""
    if kind not in (Game.Kind.CASUAL, Game.Kind.RATED):
        raise ServiceError("bad_kind", _("Choose a rated or a casual table."))
    if fallback_minutes is not None:
        fallback_minutes = bounds.FALLBACK_MINUTES.parse(fallback_minutes)
    now = now or timezone.now()
    fallback_at = now + timedelta(minutes=fallback_minutes) if fallback_minutes else None
    if club_id is not None and club_id not in seats.clubs_of(user):
        raise ServiceError("not_a_member", _("Choose one of your clubs."))
    key = key_of(engine, config, kind, club_id)
    for _attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():
                return _press(user, engine, config, kind, key, fallback_at, now, club_id)
        except IntegrityError:
            continue  # another entry for the same was written meanwhile: it is there to be matched now
    raise Busy("busy", _("Many players pressed Play now at once: press it again."))


def _press(
    user: Any,
    engine: str,
    config: dict[str, Any],
    kind: str,
    key: str,
    fallback_at: datetime | None,
    now: datetime,
    club_id: int | None,
) -> Seek:
    Seek.objects.filter(user=user, status=Seek.Status.WAITING).exclude(key=key).update(
        status=Seek.Status.CANCELLED
    )
    waiting = Seek.objects.select_for_update().filter(key=key, status=Seek.Status.WAITING).first()
    if waiting is not None and not alive(waiting, now):
        waiting.status = Seek.Status.EXPIRED
        waiting.save(update_fields=["status"])
        waiting = None
    if waiting is not None and waiting.user_id == user.pk:
        waiting.seen_at = now
        waiting.fallback_at = fallback_at
        waiting.save(update_fields=["seen_at", "fallback_at"])
        _schedule_fallback(waiting, now)
        return waiting
    if waiting is not None:
        game = _table(engine, config, kind, [waiting.user, user], club_id)
        waiting.status, waiting.game = Seek.Status.MATCHED, game
        waiting.save(update_fields=["status", "game"])
        return Seek.objects.create(
            user=user,
            engine=engine,
            config=config,
            kind=kind,
            key=key,
            status=Seek.Status.MATCHED,
            game=game,
            club_id=club_id,
            created_at=now,
            seen_at=now,
            expires_at=now,
        )
    seek = Seek.objects.create(
        user=user,
        engine=engine,
        config=config,
        kind=kind,
        key=key,
        created_at=now,
        seen_at=now,
        expires_at=now + LIFETIME,
        fallback_at=fallback_at,
        club_id=club_id,
    )
    _schedule_fallback(seek, now)
    return seek


def _schedule_fallback(seek: Seek, now: datetime) -> None:
    if seek.fallback_at is not None:
        delay = max(0.0, (seek.fallback_at - now).total_seconds())
        transaction.on_commit(partial(jobs.enqueue, FALLBACK, seek.pk, delay=delay))


def _mine(seek_id: int, user: Any, *, lock: bool = False) -> Seek:
    rows = Seek.objects.select_for_update() if lock else Seek.objects.all()
    seek = None
    if bounds.ID.accepts(seek_id) and user is not None and user.is_authenticated:
        seek = rows.filter(pk=seek_id, user=user).first()
    if seek is None:
        raise NoSuchWait("no_such_wait", GONE)
    return seek


def state(seek_id: int, user: Any, *, now: datetime | None = None) -> Seek:
    """``user``'s entry as it stands (404 for anyone else's): a waiting one is marked seen, one that
    lapsed is marked so."""
    now = now or timezone.now()
    with transaction.atomic():
        seek = _mine(seek_id, user, lock=True)
        if seek.status == Seek.Status.WAITING:
            if seek.expires_at <= now:
                seek.status = Seek.Status.EXPIRED
                seek.save(update_fields=["status"])
            else:
                seek.seen_at = now
                seek.save(update_fields=["seen_at"])
    return seek


def cancel(seek_id: int, user: Any) -> Seek:
    """``user`` stops waiting; an entry already seated stays seated (the table is theirs)."""
    with transaction.atomic():
        seek = _mine(seek_id, user, lock=True)
        if seek.status == Seek.Status.WAITING:
            seek.status = Seek.Status.CANCELLED
            seek.save(update_fields=["status"])
    return seek


def fall_back(seek_id: int, *, now: datetime | None = None) -> str:
    """The job: seat the player with a computer if their entry still waits at its ``fallback_at``
    (pressing again moves it: the earlier job then finds it not due and does nothing)."""
    now = now or timezone.now()
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
        if seek is None or seek.status != Seek.Status.WAITING or seek.fallback_at is None:
            return "not_waiting"
        if seek.fallback_at > now:
            return "not_due"
        if not alive(seek, now):
            seek.status = Seek.Status.EXPIRED
            seek.save(update_fields=["status"])
            return "expired"
        seek.game = _table(seek.engine, dict(seek.config), seek.kind, [seek.user], seek.club_id)
        seek.status = Seek.Status.MATCHED
        seek.save(update_fields=["status", "game"])
    return "seated"
