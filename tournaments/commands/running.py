"""Running a tournament: the start, its rounds (start, re-pair, length, pairing edits), byes, pause
and holding one table."""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_noop as _

from games import bounds
from games.commands import controls
from games.errors import ServiceError
from games.eventlog.tables import load_table
from tournaments import formats, log, round_warnings
from tournaments.commands.progress import advance, paired_event, round_started_event
from tournaments.commands.runner import acting_entrant, actor, by_id, check_organiser, run
from tournaments.log import PAUSED, REGISTRATION, RUNNING
from tournaments.models import MatchGame, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

EDITS = ("swap", "move", "lock", "unlock")


def start(row: Tournament, *, by: User | None = None) -> None:
    """Close registration, drop who did not check in (when asked), and pair the first round."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status != REGISTRATION:
            raise ServiceError("wrong_time", _("This tournament has already started."))
        active = t.active()
        if len(active) < 2:
            raise ServiceError("too_few", _("A tournament needs at least two entrants."))
        if formats.table_size(t) > 2 and len(active) < 3:
            raise ServiceError("too_few", _("Tables need at least three entrants."))
        order = [e for e in (t.seeding or sorted(t.entrants)) if e in active]
        order += [e for e in sorted(active) if e not in order]
        event: dict[str, Any] = {"type": "tournament.started", "order": order}
        if t.format == "swiss":
            # Announced now, from the entrants now: a withdrawal or a late entry does not change it.
            event["rounds"] = formats.planned_rounds(t.options, len(active))
        return [event]

    run(row.stream_id, "start", actor(by), build)
    advance(row.stream_id)


def pause(row: Tournament, *, by: User | None = None) -> None:
    """No new round or game starts while paused; games under way play on."""
    check_organiser(row, by)
    _status_command(row, "tournament.paused", RUNNING, by)


def resume(row: Tournament, *, by: User | None = None) -> None:
    check_organiser(row, by)
    _status_command(row, "tournament.resumed", PAUSED, by)
    advance(row.stream_id)


def _status_command(row: Tournament, kind: str, needed: str, by: User | None) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status != needed:
            raise ServiceError("wrong_time", _("That cannot be done at this stage of the tournament."))
        return [{"type": kind}]

    run(row.stream_id, f"{kind}-{secrets.token_hex(8)}", actor(by), build)


# --- Holding one table ------------------------------------------------------------------------------


def _live_game(row: Tournament, game_id: Any) -> int:
    """``game_id`` if it is a game of this tournament still being played, else a refusal."""
    found = (
        MatchGame.objects.filter(match__tournament=row, game_id=game_id, finished=False).first()
        if isinstance(game_id, int) and not isinstance(game_id, bool) and 0 < game_id < 2**63
        else None
    )
    if found is None:
        raise ServiceError("unknown_game", _("This tournament has no such game being played."))
    return found.game_id


def pause_table(row: Tournament, game_id: Any, *, by: User | None = None) -> None:
    """Stop the computer players of one of the tournament's tables (a dispute, a player called
    away). Only the organiser: a seat may not pause a tournament table (games.commands.controls refuses it),
    or a player could stall a round against a computer."""
    _table_command(row, game_id, controls.pause, by)


def resume_table(row: Tournament, game_id: Any, *, by: User | None = None) -> None:
    _table_command(row, game_id, controls.resume, by)


def _table_command(row: Tournament, game_id: Any, command: Callable[..., Any], by: User | None) -> None:
    check_organiser(row, by)
    game = _live_game(row, game_id)
    # The table event names the organiser (``by``); pause and resume apply to the table as it is.
    command(game, f"organiser-{secrets.token_hex(8)}", load_table(game).seq, by=actor(by))


# --- Rounds -----------------------------------------------------------------------------------------


def start_round(row: Tournament, *, by: User | None = None) -> None:
    """Start the paired round (when rounds do not start by themselves)."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        rnd = t.current
        if t.status != RUNNING or rnd is None or rnd.started:
            raise ServiceError("wrong_time", _("There is no paired round waiting to start."))
        return [round_started_event(t)]

    # Named for the round (a second click starts nothing more); read afresh, ``row`` may be old.
    number = Tournament.objects.values_list("round", flat=True).get(pk=row.pk)
    run(row.stream_id, f"start-round-{number}", actor(by), build)
    advance(row.stream_id)


def repair(row: Tournament, *, by: User | None = None) -> None:
    """Pair the current round again (after a withdrawal or a late entry), before it starts. Tables
    the organiser locked stay as they are."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        rnd = t.current
        if t.status not in (RUNNING, PAUSED) or rnd is None or rnd.started:
            raise ServiceError("wrong_time", _("Only a round that has not started can be paired again."))
        active = set(t.active())
        keep = [tb for tb in rnd.tables if tb.key in rnd.locked and set(tb.entrants) <= active]
        t.rounds.pop()
        pairing = formats.next_round(t, keep=keep if t.format == "swiss" else None)
        if pairing is None:
            raise ServiceError("wrong_time", _("Only a round that has not started can be paired again."))
        return [paired_event(pairing)]

    run(row.stream_id, f"repair-{secrets.token_hex(8)}", actor(by), build)


def set_rounds(row: Tournament, rounds: Any, reason: str, *, by: User | None = None) -> None:
    """Change the announced number of rounds of a Swiss (never below the rounds already paired)."""
    check_organiser(row, by)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("no_reason", _("A change of the number of rounds needs a reason."))

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.format != "swiss" or t.status not in (RUNNING, PAUSED):
            raise ServiceError("wrong_time", _("Only a running Swiss can change its number of rounds."))
        if t.options.get("seating") == "fixed":
            raise ServiceError(
                "fixed_schedule", _("A schedule fixed in advance keeps the rounds it started with.")
            )
        low = max(1, len(t.rounds))
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not low <= rounds <= bounds.ROUNDS.high:
            raise ServiceError(
                "bad_rounds",
                _("rounds must be a whole number from {low} to {high}."),
                low=low,
                high=bounds.ROUNDS.high,
            )
        if rounds == formats.swiss_rounds(t):
            return []
        return [{"type": "tournament.rounds_changed", "rounds": rounds, "reason": reason, "by": by_id(by)}]

    run(row.stream_id, f"rounds-{secrets.token_hex(8)}", actor(by), build)
    advance(row.stream_id)


def _bye_command(row: Tournament, entrant: int, round_: Any, by: User | None, kind: str) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        e = acting_entrant(row, t, entrant, by)
        allowed = int(t.options.get("half_point_byes") or 0)
        if t.format != "swiss" or not allowed:
            raise ServiceError("no_byes", _("This tournament gives no half-point byes."))
        if t.status not in (REGISTRATION, RUNNING, PAUSED) or e.withdrawn:
            raise ServiceError("wrong_time", _("That cannot be done at this stage of the tournament."))
        total = formats.swiss_rounds(t)  # before the start: from the entrants so far
        if isinstance(round_, bool) or not isinstance(round_, int) or round_ <= len(t.rounds):
            raise ServiceError("bad_round", _("A bye can be asked for a round that is not paired yet."))
        if kind == "entrant.bye_cancelled":
            return [{"type": kind, "entrant": entrant, "round": round_}] if round_ in e.bye_requests else []
        last = int(t.options.get("no_byes_last_rounds") or 0)
        if round_ > total - last:
            raise ServiceError("bad_round", _("No bye can be asked for this round."))
        used = len(e.bye_requests) + (e.joined_round if e.missed_points else 0)
        if round_ in e.bye_requests:
            return []
        if used >= allowed:
            raise ServiceError(
                "too_many_byes", _("Each entrant may ask for at most {count} half-point byes."), count=allowed
            )
        return [{"type": kind, "entrant": entrant, "round": round_}]

    run(row.stream_id, f"{kind}-{entrant}-{secrets.token_hex(4)}", actor(by), build)


def request_bye(row: Tournament, entrant: int, round_: Any, *, by: User | None = None) -> None:
    """A half-point bye for a coming round of a Swiss: the entrant is not paired that round and
    scores ½ (``half_point_byes`` per entrant at most, none in the last ``no_byes_last_rounds``)."""
    _bye_command(row, entrant, round_, by, "entrant.bye_requested")


def cancel_bye(row: Tournament, entrant: int, round_: Any, *, by: User | None = None) -> None:
    _bye_command(row, entrant, round_, by, "entrant.bye_cancelled")


def edit_pairing(
    row: Tournament,
    edit: str,
    *,
    reason: str,
    a: int | None = None,
    b: int | None = None,
    table: str | None = None,
    by: User | None = None,
) -> list[round_warnings.PairingWarning]:
    """The organiser's change to a paired round before it starts: ``swap`` two entrants (``a``,
    ``b``), ``move`` entrant ``a`` to ``table`` (or ``"bye"``), ``lock`` or ``unlock`` a table so a
    re-pairing keeps it. Each is an event with its reason. Returns what the change brought that a
    director would want to know (``round_warnings.pairing_warnings``): a pair that has met before, a table
    whose players no longer share a score."""
    check_organiser(row, by)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("no_reason", _("A change to the pairings needs a reason."))
    if edit not in EDITS:
        raise ServiceError("bad_edit", _("Unknown change to the pairings."))
    warnings: list[round_warnings.PairingWarning] = []

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        rnd = t.current
        if t.status not in (RUNNING, PAUSED) or rnd is None or rnd.started:
            raise ServiceError("wrong_time", _("Only a round that has not started can be changed."))
        where = {e: tb.key for tb in rnd.tables for e in tb.entrants} | {e: log.BYE for e in rnd.byes}
        event: dict[str, Any] = {"type": "round.edited", "round": rnd.number, "edit": edit, "reason": reason}
        if edit == "swap":
            if a not in where or b not in where or a == b:
                raise ServiceError("bad_edit", _("Choose two different entrants of this round."))
            event |= {"a": a, "b": b}
        elif edit == "move":
            if (
                a not in where
                or table is None
                or (table != log.BYE and table not in {tb.key for tb in rnd.tables})
            ):
                raise ServiceError(
                    "bad_edit", _("Choose an entrant of this round and the table to move them to.")
                )
            if where[a] == table:
                raise ServiceError("bad_edit", _("This entrant is already there."))
            event |= {"entrant": a, "table": table}
        else:
            if table not in {tb.key for tb in rnd.tables}:
                raise ServiceError("bad_edit", _("There is no such table in this round."))
            if (edit == "lock") == (table in rnd.locked):
                return []
            event |= {"table": table}
        after = copy.deepcopy(t)  # run applies the event to ``t`` itself once it is stored
        log.apply(after, event)
        size = formats.table_size(after)
        smallest = 2 if size == 2 else 3
        if after.current and any(not smallest <= len(tb.entrants) <= size for tb in after.current.tables):
            raise ServiceError(
                "bad_edit", _("Every table must keep from {low} to {high} players."), low=smallest, high=size
            )
        before = round_warnings.pairing_warnings(t)
        warnings[:] = [w for w in round_warnings.pairing_warnings(after) if w not in before]
        return [event]

    run(row.stream_id, f"edit-{secrets.token_hex(8)}", actor(by), build)
    return warnings
