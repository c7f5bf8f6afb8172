"""Results: a game's end (from the games service), the organiser's corrections and forfeits."""

from __future__ import annotations

import contextlib
import secrets
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_noop as _

from games.commands import controls
from games.errors import ServiceError
from games.eventlog import queries
from tournaments import formats, log, projection
from tournaments.commands.progress import (
    ELIMINATION,
    advance,
    forfeit_event,
    stale_events,
    stand_in_events,
    stands_in,
)
from tournaments.commands.runner import actor, after_undos, by_id, check_organiser, run
from tournaments.models import MatchGame, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _check_result(t: log.Tournament, key: str, places: Any, scores: Any) -> log.Table:
    try:
        table = t.table(key)
    except log.LogError:
        raise ServiceError("unknown_match", _("There is no such match.")) from None
    names = {str(e) for e in table.entrants}
    if not isinstance(places, dict) or set(map(str, places)) != names:
        raise ServiceError("bad_result", _("Give a place for every entrant of the match, and no one else."))
    for value in places.values():
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= len(names):
            raise ServiceError("bad_result", _("Places are whole numbers from 1 to the number of entrants."))
    if scores is not None:
        if not isinstance(scores, dict) or not set(map(str, scores)) <= names:
            raise ServiceError("bad_result", _("Scores are given per entrant of the match."))
        try:
            [Fraction(str(v)) for v in scores.values()]
        except (ValueError, ZeroDivisionError):
            raise ServiceError("bad_result", _("A score must be a number.")) from None
    return table


def override(
    row: Tournament, key: str, places: Any, scores: Any, reason: str, *, by: User | None = None
) -> None:
    """The organiser's correction of a result, with a reason; the original result stays in the log."""
    check_organiser(row, by)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("no_reason", _("A correction needs a reason."))

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        table = _check_result(t, key, places, scores)
        if t.format in ELIMINATION and (t.current is None or table.round != t.current.number):
            raise ServiceError(
                "too_late", _("In a knockout, only a result of the current round can be corrected.")
            )
        if table.live_game() is not None:
            # Its game goes on (and would be rated, its duplicate deal released): a forfeit stops it.
            raise ServiceError(
                "in_play",
                _("This match is still being played: record a forfeit, or correct it once it has a result."),
            )
        if scores is None:
            given = _scores_follow_places(table, {int(k): v for k, v in places.items()})
        else:
            given = {str(e): str(Fraction(str(v))) for e, v in scores.items()}
        event: dict[str, Any] = {
            "type": "result.overridden",
            "table": key,
            "places": {str(k): v for k, v in places.items()},
            "scores": given,
            "reason": reason,
            "by": by_id(by),
        }
        return [event, *stale_events(t, [event])]

    run(row.stream_id, f"override-{secrets.token_hex(8)}", actor(by), build)
    advance(row.stream_id)


def _scores_follow_places(table: log.Table, places: dict[int, int]) -> dict[str, str]:
    """A correction of places only: the game points follow the places (#30 defect 3). At a table of one
    game the result was entered against the wrong players, so the entrant now at place p takes the
    points that place p scored; a match of several games keeps each entrant's own points."""
    old = table.result
    if old is None:
        return {}
    if len(formats.played(table)) > 1 or not old.scores:
        return {str(e): str(v) for e, v in old.scores.items()}
    before = sorted(table.entrants, key=lambda e: (old.places.get(e, 0), e))
    after = sorted(table.entrants, key=lambda e: (places[e], e))
    return {str(new): str(old.scores.get(was, Fraction(0))) for was, new in zip(before, after, strict=True)}


def forfeit(
    row: Tournament, key: str, absent: list[int], reason: str = "", *, by: User | None = None
) -> None:
    """A no-show: the absent entrants lose the match, the others win it. A game of the match still
    being played is stopped first (abandoned: never rated, its replay says why)."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        try:
            table = t.table(key)
        except log.LogError:
            raise ServiceError("unknown_match", _("There is no such match.")) from None
        if not absent or not set(absent) < set(table.entrants):
            raise ServiceError("bad_result", _("Name the absent entrants of the match (not all of them)."))
        if table.result is not None:
            raise ServiceError("decided", _("This match already has a result; correct it instead."))
        if set(absent) & set(table.stand_ins):
            raise ServiceError("decided", _("A computer already plays this seat out."))
        if stands_in(t, table, absent):
            # A table of three or more plays on: a computer takes the absent seats (#30).
            return stand_in_events(t, table, list(absent), reason or "no-show")
        return [forfeit_event(table, absent, reason or "no-show")]

    before = projection.load(row.stream_id)
    build(before)  # refuse before stopping anything
    live = before.table(key).live_game()
    if live is not None and not stands_in(before, before.table(key), absent):
        with contextlib.suppress(ServiceError):  # it may have just ended: its result then stands
            controls.abandon(live.game_id, f"forfeit-{live.game_id}", reason="forfeit", by="tournament")
    # One command per absentee named (a table of four may lose two players, one after the other).
    command = f"forfeit-{key}-{'-'.join(map(str, sorted(absent)))}"
    run(row.stream_id, after_undos(row.stream_id, command), actor(by), build)
    advance(row.stream_id)


def on_game_finished(game_id: int, outcome: dict[str, Any]) -> None:
    """The games service says a game ended: record it in its tournament and move on."""
    found = MatchGame.objects.filter(game_id=game_id).select_related("match__tournament").first()
    if found is None:
        return  # not a tournament game
    stream_id = found.match.tournament.stream_id

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        table = t.table_of_game(game_id)
        if table is None:
            return []
        record = next(g for g in table.games if g.game_id == game_id)
        if record.places is not None:
            return []
        places, scores = entrant_results(record.seats, outcome)
        return [
            {
                "type": "game.finished",
                "table": table.key,
                "game_id": game_id,
                "places": places,
                "scores": scores,
            }
        ]

    run(stream_id, f"result-{game_id}", "system", build)
    advance(stream_id)


def entrant_results(seats: list[int], outcome: dict[str, Any]) -> tuple[dict[str, int], dict[str, str]]:
    """Places and scores per entrant from a game's outcome (a partnership's seats share theirs)."""
    scale = int(outcome.get("score_scale") or 1)
    teams = outcome.get("teams")
    places: dict[str, int] = {}
    scores: dict[str, str] = {}
    for seat, entrant in enumerate(seats):
        where = seat
        if len(outcome["scores"]) != len(seats) and teams:
            where = next(i for i, team in enumerate(teams) if seat in team)
        places[str(entrant)] = int(
            outcome["places"][seat] if len(outcome["places"]) == len(seats) else outcome["places"][where]
        )
        scores[str(entrant)] = str(Fraction(outcome["scores"][where]) / scale)
    return places, scores


def reconcile(stream_id: int) -> None:
    """Catch up after a restart: record any game that ended while nobody was told (signals are not durable)."""
    t = projection.load(stream_id)
    for rnd in t.rounds:
        for table in rnd.tables:
            for record in table.games:
                if record.places is None:
                    outcome = queries.result(record.game_id)
                    if outcome is not None:
                        on_game_finished(record.game_id, outcome)
    advance(stream_id)
