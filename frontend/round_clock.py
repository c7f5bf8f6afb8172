"""The round clock where people play: on every player's table page of a tournament and in the
organiser's console (set, start, pause, extend, the rule at the end, ending the round at time, the room
screen's languages). The pages count down in the browser (frontend/static/frontend/roundclock.js)
from the clock's events as the server folded them — the round's time, the time already run, the
instant it last started — and the server's own instant, so that a browser whose clock is wrong still
shows the right time; nothing the server decides takes the browser's clock (ending at time is
checked against the server's).

``/tournaments/ID/clock.json``: the same, public (the clock is on the room screen anyway), fetched
again by a table page whenever the tournament's socket says something changed.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments import clock
from tournaments.commands import clock as clock_commands
from tournaments.models import MatchGame, Tournament


def _ms(moment: datetime | None) -> int | None:
    return round(moment.timestamp() * 1000) if moment is not None else None


def data(row: Tournament, now: datetime, held: clock.Held | None = None) -> dict[str, Any] | None:
    """The current round's clock for a page's countdown, or None when it is not set (``held``: the
    clocks already read, else they are read from the row)."""
    number = row.round or None
    clocks = (held or clock_commands.held(row)).clocks
    c = clocks.get(number) if number else None
    if c is None or c.seconds <= 0:
        return {"round": number, "set": False, "server_now": _ms(now)}
    return {
        "round": number,
        "set": True,
        "seconds": c.seconds,
        "used": c.used,
        "running_since": _ms(c.running_since),
        "last_hand": c.last_hand,
        "time_called": c.time_called,
        "server_now": _ms(now),
        "remaining": c.remaining(now),
    }


def words() -> dict[str, str]:
    """What the countdown says, in the reader's language (the script writes no word of its own)."""
    return {
        "label": _("Time left in the round"),
        "up": _("Time!"),
        "paused": pgettext("room screen", "paused"),
        "last_hand": _("Last hand"),
        "not_set": _("The round's clock is not set."),
    }


def for_table(game_id: int) -> dict[str, Any] | None:
    """A tournament game's table page: its tournament's clock, where to fetch it again, its number (for
    its socket, tournament_socket.js)."""
    found = MatchGame.objects.filter(game_id=game_id).select_related("match__tournament").first()
    if found is None:
        return None
    row = found.match.tournament
    shown = data(row, timezone.now(), clock_commands.held(row, reload=False))
    return {
        "tournament": row.pk,
        "url": reverse("frontend:tournament_clock_json", args=[row.pk]),
        "data": shown,
        "data_json": json.dumps(shown),
        "words": words(),
        "words_json": json.dumps(words()),
    }


def console(row: Tournament, playing: list[Any]) -> dict[str, Any]:
    """The console's clock group: the countdown, the rule at the end of the clock, the screen's
    languages, and the tables still playing (shown when the time is up)."""
    held = clock_commands.held(row)
    room = held.room
    now = timezone.now()
    shown = data(row, now, held)
    partial = clock_commands.partial_allowed(row.game)
    return {
        "data": shown,
        "data_json": json.dumps(shown),
        "words": words(),
        "words_json": json.dumps(words()),
        "up": bool(shown and shown.get("set") and shown["remaining"] <= 0),
        "default_minutes": clock_commands.default_seconds(row) // 60,
        "partial_allowed": partial,
        "at_time": room.at_time if partial else "director",
        "languages": room.languages,
        "all_languages": settings.LANGUAGES,
        "playing": playing,
    }


def clock_json(request: HttpRequest, tournament_id: int) -> JsonResponse:
    row = Tournament.objects.filter(pk=tournament_id).first()
    if row is None:
        return JsonResponse({"error": _("There is no such tournament.")}, status=404)
    return JsonResponse({"clock": data(row, timezone.now(), clock_commands.held(row, reload=False))})
