"""The round clock's commands (tournaments/clock.py): the organiser sets, starts, pauses and extends the
current round's clock and calls "last hand"; each an event of the tournament's log with the instant it
was given. The clock decides nothing by itself: with the rule "scored as it stands" chosen, the
organiser ends the round at time (``end_at_time``), and only then are the unfinished games scored."""

from __future__ import annotations

import contextlib
import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games import engines
from games.commands import controls
from games.errors import ServiceError
from games.eventlog import queries
from tournaments import clock, estimate, log, projection
from tournaments.commands.progress import advance
from tournaments.commands.results import entrant_results
from tournaments.commands.runner import actor, by_id, check_organiser, run
from tournaments.models import Tournament

ACTIONS = {
    "set": clock.SET,
    "start": clock.STARTED,
    "pause": clock.PAUSED,
    "extend": clock.EXTENDED,
    "last_hand": clock.LAST_HAND,
}
REFUSALS = {
    "bad_seconds": _("A round's time, or an extension, is from 1 minute to 6 hours."),
    "clock_not_set": _("Set the round's time first."),
    "clock_running": _("The clock is running already."),
    "clock_not_running": _("The clock is not running."),
    "last_hand_called": _("Last hand has been called already."),
    "no_round": _("There is no round being played."),
    "no_partial_score": _(
        "This game's rules give no score to a game stopped before its end: the director decides."
    ),
    "bad_rule": _("There is no such rule for the end of the clock."),
    "rule_is_director": _(
        "Choose first that a game unfinished at the end of the clock is scored as it stands."
    ),
    "time_not_up": _("The round's time is not up yet."),
    "real_cards": _("This round is played with real cards: enter each table's result."),
    "bad_languages": _("Choose one to three of the site's languages."),
}


def default_seconds(row: Tournament) -> int:
    """The round estimate (tournaments/estimate.py), else 30 minutes."""
    found = estimate.for_tournament(row.game, row.options)
    return 60 * (found.minutes if found else 30)


def held(row: Tournament, *, reload: bool = True) -> clock.Held:
    """The clocks and the room's choices as the tournament's row holds them: one query, however long
    the log (the fold keeps them on the row with every event, tournaments/projection.py). Read afresh,
    not from ``row``, which its caller may have loaded before the last command; ``reload=False``:
    from ``row`` itself, loaded by the caller's request (no query)."""
    if reload:
        data = Tournament.objects.filter(pk=row.pk).values_list("clock", flat=True).first()
    else:
        data = row.clock
    return clock.Held.from_json(data or {})


def act(
    row: Tournament, action: str, seconds: int | None = None, *, by: Any = None, now: datetime | None = None
) -> None:
    """One clock action on the current round (``action`` one of ``ACTIONS``)."""
    check_organiser(row, by)
    kind = ACTIONS.get(action)
    if kind is None:
        raise ServiceError("unknown_clock_action", _("There is no such clock action."))
    at = (now or timezone.now()).isoformat()

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.current is None or t.status == log.FINISHED:
            raise ServiceError("no_round", REFUSALS["no_round"])
        number = t.current.number
        refusal = clock.check(t.room_clock.clocks, kind, number, seconds)
        if refusal is not None:
            raise ServiceError(refusal, REFUSALS.get(refusal, REFUSALS["no_round"]))
        event: dict[str, Any] = {"type": kind, "round": number, "at": at, "by": by_id(by)}
        if kind in (clock.SET, clock.EXTENDED):
            event["seconds"] = seconds
        return [event]

    run(row.stream_id, f"clock-{secrets.token_hex(8)}", actor(by), build)


def partial_allowed(game: str) -> bool:
    """Whether the game's rules let an unfinished game be scored as it stands (the engine says)."""
    return bool(getattr(engines.get(game), "PARTIAL_SCORE", False))


def _setting(row: Tournament, by: Any, event: dict[str, Any]) -> None:
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status == log.FINISHED:
            raise ServiceError("no_round", REFUSALS["no_round"])
        return [{**event, "by": by_id(by)}]

    run(row.stream_id, f"room-{secrets.token_hex(8)}", actor(by), build)


def set_rule(row: Tournament, at_time: str, *, by: Any = None) -> None:
    """What becomes of a game unfinished at the end of the clock: ``director`` or ``score``."""
    if at_time not in clock.AT_TIME_RULES:
        raise ServiceError("bad_rule", REFUSALS["bad_rule"])
    if at_time == "score" and not partial_allowed(row.game):
        raise ServiceError("no_partial_score", REFUSALS["no_partial_score"])
    _setting(row, by, {"type": clock.RULE_SET, "at_time": at_time})


def set_languages(row: Tournament, languages: list[str], *, by: Any = None) -> None:
    """The room screen's languages, one to three of the site's, in the organiser's order."""
    known = [code for code, _name in settings.LANGUAGES]
    chosen = list(dict.fromkeys(languages))
    if not 1 <= len(chosen) <= 3 or any(code not in known for code in chosen):
        raise ServiceError("bad_languages", REFUSALS["bad_languages"])
    _setting(row, by, {"type": clock.LANGUAGES_SET, "languages": chosen})


def end_at_time(row: Tournament, *, by: Any = None, now: datetime | None = None) -> list[str]:
    """The organiser ends the current round at its time: each game still being played is stopped and
    scored as it stands (the engine's partial score), and its match decided by the games it has.
    Only with the rule ``score`` chosen, for a game whose rules allow it, once the time is up (by the
    server's clock). Returns the tables so scored."""
    check_organiser(row, by)
    at = now or timezone.now()
    before = projection.load(row.stream_id)
    if before.room_clock.room.at_time != "score":
        raise ServiceError("rule_is_director", REFUSALS["rule_is_director"])
    if not partial_allowed(row.game):
        raise ServiceError("no_partial_score", REFUSALS["no_partial_score"])

    def check(t: log.Tournament) -> log.Round:
        rnd = t.current
        if rnd is None or not rnd.started or t.status == log.FINISHED:
            raise ServiceError("no_round", REFUSALS["no_round"])
        if rnd.over_the_board:
            raise ServiceError("real_cards", REFUSALS["real_cards"])
        c = t.room_clock.clocks.get(rnd.number)
        if c is None or c.seconds <= 0:
            raise ServiceError("clock_not_set", REFUSALS["clock_not_set"])
        if c.remaining(at) > 0:
            raise ServiceError("time_not_up", REFUSALS["time_not_up"])
        return rnd

    rnd = check(before)
    # Each live game's score as it stands, then the game stopped (a game that ended meanwhile keeps
    # its own result, recorded by the games service as usual).
    standing: dict[int, dict[str, Any]] = {}
    for table in rnd.tables:
        live = table.live_game() if table.result is None else None
        if live is None:
            continue
        partial = queries.partial_result(live.game_id)
        stopped = False
        with contextlib.suppress(ServiceError):
            controls.abandon(live.game_id, f"time-{live.game_id}", reason="time", by="tournament")
            stopped = True
        if partial is not None and stopped:
            standing[live.game_id] = partial

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        current = check(t)
        if current.time_called:
            return []
        events: list[dict[str, Any]] = [
            {"type": clock.TIME_CALLED, "round": current.number, "at": at.isoformat(), "by": by_id(by)}
        ]
        for table in current.tables:
            for record in table.games:
                if record.places is None and record.game_id in standing:
                    places, scores = entrant_results(record.seats, standing[record.game_id])
                    events.append(
                        {
                            "type": "game.finished",
                            "table": table.key,
                            "game_id": record.game_id,
                            "places": places,
                            "scores": scores,
                            "at_time": True,
                        }
                    )
        return events

    t = run(row.stream_id, f"time-{rnd.number}-{secrets.token_hex(4)}", actor(by), build)
    advance(row.stream_id)
    return [e for e in (tb.key for tb in rnd.tables) if any(g.game_id in standing for g in t.table(e).games)]
