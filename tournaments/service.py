"""Tournament commands: every organiser and player action is an event appended to the tournament's stream.

A command loads the stream, folds it (``log.fold``), checks the action, appends its events
with the stream's seq as the expected one (a lost race is retried on the new state), and
rewrites the projection rows in the same transaction. ``advance`` then takes every step the
state calls for — start a round, start a game, decide a match, pair the next round, finish —
each appended with the command id ``auto-SEQ``, so two processes advancing at once append
each step once. Games are created through ``games.service``; a finished game comes back
through the ``game_finished`` signal (``on_game_finished``), never by reading the event table.
"""

from __future__ import annotations

import contextlib
import copy
import hmac
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from fractions import Fraction
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games import computers, engines, streams, worker
from games import service as games
from games.engines.base import IllegalAction
from games.errors import Conflict, NotFound, ServiceError
from games.models import NAME_LENGTH
from tournaments import board, deals, formats, log, projection, publish, ratings
from tournaments.log import FINISHED, PAUSED, REGISTRATION, RUNNING
from tournaments.models import MatchGame, Tournament
from tournaments.standings import CRITERIA

log_ = logging.getLogger(__name__)
Build = Callable[[log.Tournament], list[dict[str, Any]]]
RETRIES = 50
PARTNERSHIP_GAMES = frozenset({"dominoes", "pitch"})
BOT_LEVELS = computers.LEVELS


class _Rollback(Exception):
    """Undo a transaction whose append turned out to be a duplicate (its games must go too)."""


def _run(stream_id: int, command_id: str, actor: str, build: Build) -> log.Tournament:
    for _attempt in range(RETRIES):
        try:
            with transaction.atomic():
                t = projection.load(stream_id)
                events = build(t)
                if not events:
                    return t
                appended = streams.append(stream_id, t.seq, events, command_id=command_id, actor=actor)
                if appended.duplicate:
                    raise _Rollback
                for event in events:
                    log.apply(t, event)
                row = projection.write(stream_id, t)
                released = projection.release_deals(t)
                _on_commit(stream_id, row.pk, t, events)
                if released:
                    transaction.on_commit(partial(_rate_released, released))
                return t
        except Conflict:
            continue  # another command got there first: decide again on the new state
        except _Rollback:
            return projection.load(stream_id)
    raise ServiceError("busy", _("The tournament is very busy; please try again."))


def _on_commit(stream_id: int, tournament_id: int, t: log.Tournament, events: list[dict[str, Any]]) -> None:
    """What follows an append once it is durable: the pages, the no-show watch, a repeat."""
    transaction.on_commit(partial(publish.changed, tournament_id, t.seq))
    wait = float(t.options.get("no_show_after") or 0)
    for event in events:
        if event["type"] == "result.recorded" and not event.get("correction"):
            seq = t.table(event["table"]).board_game(int(event["game"])).recorded_seq
            transaction.on_commit(partial(ratings.record_board_game, stream_id, seq))
        if wait and event["type"] == "game.started" and _has_humans(t, event["seats"]):
            transaction.on_commit(partial(_watch_for_no_show, stream_id, event["game_id"], wait))
        if event["type"] == "tournament.finished" and t.options.get("repeat"):
            transaction.on_commit(partial(_repeat, tournament_id))


def _rate_released(game_ids: list[int]) -> None:
    """Rate the games whose results were withheld while their deals were secret."""
    for game_id in game_ids:
        outcome = games.result(game_id)
        if outcome is not None:
            ratings.record(game_id, outcome)


def get(tournament_id: Any) -> Tournament:
    try:
        return Tournament.objects.get(pk=int(tournament_id))
    except (Tournament.DoesNotExist, TypeError, ValueError):
        raise NotFound("unknown_tournament", _("There is no such tournament.")) from None


# --- Creating ------------------------------------------------------------------------------------


def validate_options(game: str, fmt: str, options: dict[str, Any]) -> dict[str, Any]:
    """The tournament's options, normalised, or a ServiceError saying what is wrong."""
    if game not in engines.names():
        raise ServiceError("unknown_game", _("There is no game called {game}."), game=game)
    if fmt not in log.FORMATS:
        raise ServiceError("unknown_format", _("There is no tournament format called {format}."), format=fmt)
    if not isinstance(options, dict):
        raise ServiceError("bad_options", _("A tournament's options must be given as named values."))
    known = {
        "table_size", "best_of", "rounds", "tiebreaks", "third_place", "reset", "advance", "duplicate",
        "partnerships", "game_config", "spectator_delay", "check_in", "late_entry", "auto_start",
        "registration_closes", "repeat", "no_show_after", "half_point_byes", "no_byes_last_rounds",
    }  # fmt: skip
    unknown = sorted(set(options) - known)
    if unknown:
        raise ServiceError("bad_options", _("Unknown tournament option: {name}."), name=unknown[0])
    out = dict(options)
    out.setdefault("table_size", 2)
    out.setdefault("best_of", 1)
    out.setdefault("auto_start", True)
    limits = (
        ("table_size", 2, 8),
        ("best_of", 1, 9),
        ("spectator_delay", 0, 50),
        ("no_show_after", 0, 7200),
        ("half_point_byes", 0, 30),
        ("no_byes_last_rounds", 0, 30),
    )
    for name, low, high in limits:
        value = out.get(name, low)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ServiceError(
                "bad_options",
                _("{name} must be a whole number from {low} to {high}."),
                name=name,
                low=low,
                high=high,
            )
    if fmt in ("single_elimination", "double_elimination", "round_robin") and out["table_size"] != 2:
        raise ServiceError("bad_options", _("This format is for two-player matches."))
    if fmt == "table_elimination" and out["table_size"] < 3:
        raise ServiceError("bad_options", _("Table elimination needs tables of three players or more."))
    if out.get("partnerships") and (game not in PARTNERSHIP_GAMES or out["table_size"] != 2):
        raise ServiceError(
            "bad_options", _("Partnerships are two pairs at one table, in dominoes and Pitch only.")
        )
    for name in out.get("tiebreaks") or []:
        if name not in CRITERIA:
            raise ServiceError("bad_options", _("There is no tie-break called {name}."), name=name)
    if out.get("rounds") is not None and (not isinstance(out["rounds"], int) or not 1 <= out["rounds"] <= 30):
        raise ServiceError(
            "bad_options", _("rounds must be a whole number from {low} to {high}."), low=1, high=30
        )
    if out.get("registration_closes") is not None:
        try:
            closes = datetime.fromisoformat(str(out["registration_closes"]))
        except ValueError:
            raise ServiceError(
                "bad_options", _("The registration deadline must be a date and time.")
            ) from None
        if closes.tzinfo is None:
            closes = closes.replace(tzinfo=UTC)
        out["registration_closes"] = closes.isoformat()
    game_config(game, out)  # a table must be possible with these options
    return out


def seats_per_table(options: dict[str, Any]) -> int:
    return 4 if options.get("partnerships") else int(options["table_size"])


#: Options of a game that a tournament sets itself: the players (its tables' size and partnerships)
#: and no stacked deck (its deals come from its secret).
NOT_GAME_OPTIONS = ("players", "partnerships", "deck")


def game_config(game: str, options: dict[str, Any], players: int | None = None) -> dict[str, Any]:
    """The config of one of the tournament's games: the organiser's ``game_config`` (only the options
    chosen) composed by the engine for this table, so that every option left out takes the rules'
    default for the table as it is (All Fives: 250 at a table of two, 200 at three or four)."""
    chosen = options.get("game_config") or {}
    if not isinstance(chosen, dict):
        raise ServiceError("bad_options", _("The game's options must be given as named values."))
    for name in NOT_GAME_OPTIONS:
        if name in chosen:
            raise ServiceError(
                "bad_options", _("A tournament sets the game option {name} itself."), name=name
            )
    chosen = {**chosen, "partnerships": True} if options.get("partnerships") else chosen
    try:
        return engines.compose(game, chosen, players or seats_per_table(options))
    except IllegalAction as exc:
        raise ServiceError.from_illegal(exc) from None


def create(
    name: str,
    game: str,
    fmt: str,
    options: dict[str, Any] | None = None,
    *,
    club: Any = None,
    by: Any = None,
    secret: int | None = None,
) -> Tournament:
    """A new tournament. ``secret`` (simulate_tournament --seed) fixes the secret every random choice
    of the tournament is derived from — the seeding draw, each round's and each game's deal — so
    that the same secret and the same results give the same event; otherwise it is drawn."""
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ServiceError("bad_name", _("A tournament needs a name of at most 120 characters."))
    options = validate_options(game, fmt, options or {})
    with transaction.atomic():
        stream_id = streams.open_stream(projection.STREAM, created_by=by)
        event = {
            "type": "tournament.created",
            "name": name,
            "game": game,
            "format": fmt,
            "options": options,
            "club_id": getattr(club, "pk", None),
            "by": getattr(by, "pk", None),
            "secret_seed": secrets.randbits(deals.SECRET_BITS) if secret is None else secret,
        }
        _run(stream_id, "create", _actor(by), lambda t: [event])
    return Tournament.objects.get(stream_id=stream_id)


def _actor(user: Any) -> str:
    return f"user:{user.pk}" if getattr(user, "pk", None) else "system"


def check_organiser(row: Tournament, by: Any) -> None:
    if by is None:
        return  # the system itself (management commands, the demo)
    if not (by.is_staff or row.created_by_id == by.pk):
        raise ServiceError("not_organiser", _("Only the organiser can do this."))


# --- Entrants ------------------------------------------------------------------------------------


def register(
    row: Tournament,
    name: str,
    *,
    user: Any = None,
    bot_level: str = "",
    members: list[str] | None = None,
    rating: float | None = None,
    by: Any = None,
    command_id: str | None = None,
    missed: str = "zero",
    bot_number: int | None = None,
) -> int:
    """A new entrant (a player, a computer player or a partnership); its number.

    A computer player (``bot_level``) has no name of its own: it is "Computer N (Level)" on every
    page and at every table, in the reader's language (games/computers.py), N its ``bot_number``
    (by default its entrant number); ``name`` is not used. A computer plays both seats of a
    partnership itself (``members`` are for people).

    ``missed``: a late entrant's score for each round it missed, ``zero`` or ``half`` (half only
    within the tournament's half-point byes, ``half_point_byes``)."""
    if bot_level and bot_level not in BOT_LEVELS:
        raise ServiceError("bad_bot", _("There is no computer level called {level}."), level=bot_level)
    if bot_number is not None and (
        isinstance(bot_number, bool) or not isinstance(bot_number, int) or not 1 <= bot_number <= 9999
    ):
        raise ServiceError("bad_bot", _("A computer player's number is a whole number from 1 to 9999."))
    name = "-" if bot_level else (name or "").strip()  # a computer's name is set below, from its number
    # Any username fits (a player registers under theirs): the seats of the games take it whole.
    if not name or len(name) > NAME_LENGTH:
        raise ServiceError(
            "bad_name", _("An entrant needs a name of at most {max} characters."), max=NAME_LENGTH
        )
    members = list(members or [])
    if any(not isinstance(m, str) or not m.strip() or len(m) > NAME_LENGTH for m in members):
        raise ServiceError(
            "bad_members", _("Each partner needs a name of at most {max} characters."), max=NAME_LENGTH
        )

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status == FINISHED:
            raise ServiceError("finished", _("This tournament is over."))
        if t.status != REGISTRATION and not (t.options.get("late_entry") and t.format == "swiss"):
            raise ServiceError("registration_closed", _("Registration for this tournament is closed."))
        closes = t.options.get("registration_closes")
        if closes and timezone.now() > datetime.fromisoformat(closes):
            raise ServiceError("registration_closed", _("Registration for this tournament is closed."))
        if user is not None and any(e.user_id == user.pk and not e.withdrawn for e in t.entrants.values()):
            raise ServiceError("already_registered", _("You are already registered."))
        if t.options.get("partnerships") and not bot_level and len(members) != 2:
            raise ServiceError("bad_members", _("A partnership is two players: give both names."))
        if bot_level and _board_ahead(t):
            raise ServiceError("board_no_bots", _("Computer players cannot sit at tables with real cards."))
        if missed not in ("zero", "half"):
            raise ServiceError(
                "bad_missed", _("A late entrant scores nothing or half a point for each missed round.")
            )
        late = t.status != REGISTRATION
        missing = sum(1 for rnd in t.rounds if rnd.started)
        if late and missed == "half" and missing > int(t.options.get("half_point_byes") or 0):
            raise ServiceError(
                "too_many_byes",
                _("Half a point is given for at most {count} missed rounds in this tournament."),
                count=int(t.options.get("half_point_byes") or 0),
            )
        entrant = max(t.entrants, default=0) + 1
        event: dict[str, Any] = {"type": "entrant.registered", "entrant": entrant, "name": name}
        if user is not None:
            event["user_id"] = user.pk
        if bot_level:
            number = bot_number or entrant
            if any(e.bot_number == number for e in t.entrants.values() if e.bot_level):
                raise ServiceError(
                    "bad_bot", _("There is already a computer player {number}."), number=number
                )
            event |= {"name": computers.stored_name(number, bot_level), "bot_level": bot_level}
            event["bot_number"] = number
        if members and not bot_level:
            event["members"] = members
        if rating is not None:
            event["rating"] = rating
        if late and missing:
            event["missed"] = missed
        return [event]

    command_id = command_id or f"register-{secrets.token_hex(8)}"
    _run(row.stream_id, command_id, _actor(by or user), build)
    advance(row.stream_id)
    # The entrant this command registered (for a repeated command, the first time's).
    return int(next(e.data["entrant"] for e in streams.read(row.stream_id) if e.command_id == command_id))


def _entrant_command(row: Tournament, kind: str, entrant: int, by: Any, states: tuple[str, ...]) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        e = t.entrants.get(entrant)
        if e is None:
            raise ServiceError("unknown_entrant", _("There is no such entrant."))
        if by is not None and e.user_id != by.pk:
            check_organiser(row, by)
        if t.status not in states:
            raise ServiceError("wrong_time", _("That cannot be done at this stage of the tournament."))
        if e.withdrawn:
            raise ServiceError("withdrawn", _("This entrant has withdrawn."))
        if kind == "entrant.checked_in" and e.checked_in:
            return []
        return [{"type": kind, "entrant": entrant}]

    _run(row.stream_id, f"{kind}-{entrant}", _actor(by), build)
    advance(row.stream_id)


def check_in(row: Tournament, entrant: int, *, by: Any = None) -> None:
    _entrant_command(row, "entrant.checked_in", entrant, by, (REGISTRATION,))


def withdraw(row: Tournament, entrant: int, *, by: Any = None) -> None:
    """The entrant plays no further round; a match of theirs still open is forfeited."""
    _entrant_command(row, "entrant.withdrawn", entrant, by, (REGISTRATION, RUNNING, PAUSED))


def seed(row: Tournament, method: str, order: list[int] | None = None, *, by: Any = None) -> None:
    """Seeding before the start: ``manual`` (the given order), ``random`` or ``rating``."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status != REGISTRATION:
            raise ServiceError("wrong_time", _("Seeding is done before the tournament starts."))
        rated = _ratings(t) if method == "rating" else {}
        return [{"type": "tournament.seeded", "method": method, "order": _seeding(t, method, order, rated)}]

    _run(row.stream_id, f"seed-{secrets.token_hex(8)}", _actor(by), build)


def _ratings(t: log.Tournament) -> dict[int, float]:
    """Each entrant's rating for seeding: the one given at registration, else their OpenSkill rating
    for this game (μ − 3σ, the club's ladder first, then everyone's)."""
    from tournaments.models import Rating

    out: dict[int, float] = {}
    for e in t.entrants.values():
        if e.rating is not None:
            out[e.id] = e.rating
            continue
        key = ratings.entrant_key(e)
        found = Rating.objects.filter(player=key, game=t.game, club_id__in=[t.club_id]).first() or (
            Rating.objects.filter(player=key, game=t.game, club__isnull=True).first()
        )
        if found is not None:
            out[e.id] = found.ordinal
    return out


def _seeding(t: log.Tournament, method: str, order: list[int] | None, rated: dict[int, float]) -> list[int]:
    entrants = sorted(t.entrants)
    if method == "manual":
        if order is None or sorted(order) != entrants:
            raise ServiceError("bad_seeding", _("A manual seeding lists every entrant exactly once."))
        return list(order)
    if method == "random":
        return formats.random_order(entrants, t.secret_seed)
    if method == "rating":
        # The unrated go after the rated, in the order they registered.
        return sorted(entrants, key=lambda e: (e not in rated, -rated.get(e, 0.0), e))
    raise ServiceError("bad_seeding", _("Seeding is manual, random or by rating."))


def start(row: Tournament, *, by: Any = None) -> None:
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

    _run(row.stream_id, "start", _actor(by), build)
    advance(row.stream_id)


def pause(row: Tournament, *, by: Any = None) -> None:
    """No new round or game starts while paused; games under way play on."""
    check_organiser(row, by)
    _status_command(row, "tournament.paused", RUNNING, by)


def resume(row: Tournament, *, by: Any = None) -> None:
    check_organiser(row, by)
    _status_command(row, "tournament.resumed", PAUSED, by)
    advance(row.stream_id)


def _status_command(row: Tournament, kind: str, needed: str, by: Any) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status != needed:
            raise ServiceError("wrong_time", _("That cannot be done at this stage of the tournament."))
        return [{"type": kind}]

    _run(row.stream_id, f"{kind}-{secrets.token_hex(8)}", _actor(by), build)


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


def pause_table(row: Tournament, game_id: Any, *, by: Any = None) -> None:
    """Stop the computer players of one of the tournament's tables (a dispute, a player called
    away). Only the organiser: a seat may not pause a tournament table (games.service refuses it),
    or a player could stall a round against a computer."""
    _table_command(row, game_id, games.pause, by)


def resume_table(row: Tournament, game_id: Any, *, by: Any = None) -> None:
    _table_command(row, game_id, games.resume, by)


def _table_command(row: Tournament, game_id: Any, command: Callable[..., Any], by: Any) -> None:
    check_organiser(row, by)
    game = _live_game(row, game_id)
    # The table event names the organiser (``by``); pause and resume apply to the table as it is.
    command(game, f"organiser-{secrets.token_hex(8)}", games.load_table(game).seq, by=_actor(by))


def start_round(row: Tournament, *, by: Any = None) -> None:
    """Start the paired round (when rounds do not start by themselves)."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        rnd = t.current
        if t.status != RUNNING or rnd is None or rnd.started:
            raise ServiceError("wrong_time", _("There is no paired round waiting to start."))
        return [_round_started(t)]

    # Named for the round (a second click starts nothing more); read afresh, ``row`` may be old.
    number = Tournament.objects.values_list("round", flat=True).get(pk=row.pk)
    _run(row.stream_id, f"start-round-{number}", _actor(by), build)
    advance(row.stream_id)


def repair(row: Tournament, *, by: Any = None) -> None:
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
        return [_paired(pairing)]

    _run(row.stream_id, f"repair-{secrets.token_hex(8)}", _actor(by), build)


def set_rounds(row: Tournament, rounds: Any, reason: str, *, by: Any = None) -> None:
    """Change the announced number of rounds of a Swiss (never below the rounds already paired)."""
    check_organiser(row, by)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("no_reason", _("A change of the number of rounds needs a reason."))

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.format != "swiss" or t.status not in (RUNNING, PAUSED):
            raise ServiceError("wrong_time", _("Only a running Swiss can change its number of rounds."))
        low = max(1, len(t.rounds))
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not low <= rounds <= 30:
            raise ServiceError(
                "bad_rounds", _("rounds must be a whole number from {low} to {high}."), low=low, high=30
            )
        if rounds == formats.swiss_rounds(t):
            return []
        return [
            {
                "type": "tournament.rounds_changed",
                "rounds": rounds,
                "reason": reason,
                "by": getattr(by, "pk", None),
            }
        ]

    _run(row.stream_id, f"rounds-{secrets.token_hex(8)}", _actor(by), build)
    advance(row.stream_id)


def _bye_command(row: Tournament, entrant: int, round_: Any, by: Any, kind: str) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        e = t.entrants.get(entrant)
        if e is None:
            raise ServiceError("unknown_entrant", _("There is no such entrant."))
        if by is not None and e.user_id != by.pk:
            check_organiser(row, by)
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

    _run(row.stream_id, f"{kind}-{entrant}-{secrets.token_hex(4)}", _actor(by), build)


def request_bye(row: Tournament, entrant: int, round_: Any, *, by: Any = None) -> None:
    """A half-point bye for a coming round of a Swiss: the entrant is not paired that round and
    scores ½ (``half_point_byes`` per entrant at most, none in the last ``no_byes_last_rounds``)."""
    _bye_command(row, entrant, round_, by, "entrant.bye_requested")


def cancel_bye(row: Tournament, entrant: int, round_: Any, *, by: Any = None) -> None:
    _bye_command(row, entrant, round_, by, "entrant.bye_cancelled")


EDITS = ("swap", "move", "lock", "unlock")


def edit_pairing(
    row: Tournament,
    edit: str,
    *,
    reason: str,
    a: int | None = None,
    b: int | None = None,
    table: str | None = None,
    by: Any = None,
) -> list[formats.PairingWarning]:
    """The organiser's change to a paired round before it starts: ``swap`` two entrants (``a``,
    ``b``), ``move`` entrant ``a`` to ``table`` (or ``"bye"``), ``lock`` or ``unlock`` a table so a
    re-pairing keeps it. Each is an event with its reason. Returns what the change brought that a
    director would want to know (``formats.pairing_warnings``): a pair that has met before, a table
    whose players no longer share a score."""
    check_organiser(row, by)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("no_reason", _("A change to the pairings needs a reason."))
    if edit not in EDITS:
        raise ServiceError("bad_edit", _("Unknown change to the pairings."))
    warnings: list[formats.PairingWarning] = []

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
        after = copy.deepcopy(t)  # _run applies the event to ``t`` itself once it is stored
        log.apply(after, event)
        size = formats.table_size(after)
        smallest = 2 if size == 2 else 3
        if after.current and any(not smallest <= len(tb.entrants) <= size for tb in after.current.tables):
            raise ServiceError(
                "bad_edit", _("Every table must keep from {low} to {high} players."), low=smallest, high=size
            )
        before = formats.pairing_warnings(t)
        warnings[:] = [w for w in formats.pairing_warnings(after) if w not in before]
        return [event]

    _run(row.stream_id, f"edit-{secrets.token_hex(8)}", _actor(by), build)
    return warnings


# --- Results -------------------------------------------------------------------------------------


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


def override(row: Tournament, key: str, places: Any, scores: Any, reason: str, *, by: Any = None) -> None:
    """The organiser's correction of a result, with a reason; the original result stays in the log."""
    check_organiser(row, by)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("no_reason", _("A correction needs a reason."))

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        table = _check_result(t, key, places, scores)
        knockout = t.format in ("single_elimination", "double_elimination", "table_elimination")
        if knockout and (t.current is None or table.round != t.current.number):
            raise ServiceError(
                "too_late", _("In a knockout, only a result of the current round can be corrected.")
            )
        if scores is None:  # a correction of places only keeps the points scored
            kept = table.result.scores if table.result else {}
            given = {str(e): str(v) for e, v in kept.items()}
        else:
            given = {str(e): str(Fraction(str(v))) for e, v in scores.items()}
        return [
            {
                "type": "result.overridden",
                "table": key,
                "places": {str(k): v for k, v in places.items()},
                "scores": given,
                "reason": reason,
                "by": getattr(by, "pk", None),
            }
        ]

    _run(row.stream_id, f"override-{secrets.token_hex(8)}", _actor(by), build)
    advance(row.stream_id)


def forfeit(row: Tournament, key: str, absent: list[int], reason: str = "", *, by: Any = None) -> None:
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
        return [_forfeit_event(table, absent, reason or "no-show")]

    build(projection.load(row.stream_id))  # refuse before stopping anything
    live = projection.load(row.stream_id).table(key).live_game()
    if live is not None:
        with contextlib.suppress(ServiceError):  # it may have just ended: its result then stands
            games.abandon(live.game_id, f"forfeit-{live.game_id}", reason="forfeit", by="tournament")
    _run(row.stream_id, f"forfeit-{key}", _actor(by), build)
    advance(row.stream_id)


def _forfeit_event(table: log.Table, absent: list[int], reason: str) -> dict[str, Any]:
    result = formats.forfeit_result(table, absent)
    return {
        "type": "result.forfeited",
        "table": table.key,
        "absent": sorted(absent),
        "reason": reason,
        **(projection.result_json(result) or {}),
    }


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

    _run(stream_id, f"result-{game_id}", "system", build)
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


# --- Moving on -----------------------------------------------------------------------------------


def _paired(p: formats.Pairing) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "round.paired",
        "round": p.round,
        "tables": [{"key": key, "entrants": entrants} for key, entrants in p.tables],
        "byes": p.byes,
    }
    if p.half_byes:
        event["half_byes"] = p.half_byes
    if p.locked:
        event["locked"] = p.locked
    return event


def _round_started(t: log.Tournament) -> dict[str, Any]:
    assert t.current is not None
    event: dict[str, Any] = {"type": "round.started", "round": t.current.number}
    if t.board_round(t.current.number):
        # Played with real cards: results are entered, no online game is made (and no deal derived).
        event["over_the_board"] = True
    elif t.options.get("duplicate"):
        event["secret_seed"] = deals.derive(t.secret_seed, f"round:{t.current.number}")
    return event


def _start_game(t: log.Tournament, table: log.Table) -> dict[str, Any]:
    """Create the table's next game (inside the caller's transaction) and the event that records it."""
    users = get_user_model().objects.in_bulk(
        [e for e in (t.entrants[x].user_id for x in table.entrants) if e]
    )
    seats: list[int] = []
    specs: list[games.SeatSpec] = []
    if t.options.get("partnerships"):
        a, b = table.entrants
        order = [(a, 0), (b, 0), (a, 1), (b, 1)]  # partners sit opposite: seats 0 and 2, 1 and 3
    else:
        order = [(e, 0) for e in table.entrants]
        # Rotate who sits first from game to game of a match (two players: alternate), so at a
        # multi-player table every entrant gets seat 0 in turn, not only the first two.
        turn = len(table.games) % len(order)
        order = order[turn:] + order[:turn]
    for entrant_id, member in order:
        entrant = t.entrants[entrant_id]
        name = entrant.members[member] if entrant.members else entrant.name
        team = order.index((entrant_id, 0)) if t.options.get("partnerships") else None
        if entrant.bot_level:
            # The entrant's own number at every table: "Computer 3 (Strong)" is called so here too.
            specs.append(games.SeatSpec.computer(entrant.bot_number or entrant_id, entrant.bot_level, team))
        else:
            specs.append(
                games.SeatSpec(
                    display_name=name,  # at most NAME_LENGTH: register checks
                    user=users.get(entrant.user_id) if entrant.user_id else None,
                    team=team,
                )
            )
        seats.append(entrant_id)
    rnd = t.current
    assert rnd is not None
    # Duplicate: game n of every table of the round is dealt deal n (tournaments/deals.py).
    seed = deals.game_seed(t.secret_seed, table.key, len(table.games))
    deal: tuple[str, int] | None = None
    if t.options.get("duplicate") and deals.is_duplicate(rnd):
        assert rnd.secret_seed is not None
        seed = deals.deal_seed(rnd.secret_seed, len(table.games))
        deal = (deals.group_key(rnd.secret_seed), len(table.games))
    game = games.create_game(
        t.game,
        game_config(t.game, t.options, len(specs)),
        specs,
        seed=seed,
        kind="tournament",
        spectator_delay=int(t.options.get("spectator_delay", 0)),
        deal=deal,
    )
    return {"type": "game.started", "table": table.key, "game_id": game.pk, "seats": seats}


def _next_steps(t: log.Tournament) -> list[dict[str, Any]]:
    """Everything the state calls for now, as events (games are created on the way).

    Paused, a tournament starts no round and no game, but the games under way still decide their
    matches (and so the standings)."""
    if t.status not in (RUNNING, PAUSED):
        return []
    paused = t.status == PAUSED
    rnd = t.current
    if rnd is None or rnd.complete():
        if paused:
            return []
        pairing = formats.next_round(t)
        if pairing is None:
            places = formats.final_places(t)
            return [{"type": "tournament.finished", "places": {str(e): p for e, p in places.items()}}]
        return [_paired(pairing)]
    if not rnd.started:
        return [_round_started(t)] if t.options.get("auto_start", True) and not paused else []
    events: list[dict[str, Any]] = []
    elimination = t.format in ("single_elimination", "double_elimination", "table_elimination")
    for table in rnd.tables:
        if table.result is not None or table.live_game() is not None:
            continue
        gone = [e for e in table.entrants if t.entrants[e].withdrawn]
        if gone and len(gone) < len(table.entrants) and not table.started():
            events.append(_forfeit_event(table, gone, "withdrawn"))
            continue
        result = formats.decide_match(t, table, elimination) if formats.played(table) else None
        if result is not None:
            events.append(
                {"type": "match.decided", "table": table.key, **(projection.result_json(result) or {})}
            )
        elif not paused and not rnd.over_the_board:
            # The first game, or one more the match needs. Over the board the players enter each
            # game's result instead (enter_result), and a match that needs more asks for more.
            events.append(_start_game(t, table))
    return events


def advance(stream_id: int) -> log.Tournament:
    """Take every step the tournament's state calls for, one command per step."""
    while True:
        t = projection.load(stream_id)
        before = t.seq
        t = _run(stream_id, f"auto-{before}", "system", _next_steps)
        if t.seq == before:
            return t


def reconcile(stream_id: int) -> None:
    """Catch up after a restart: record any game that ended while nobody was told (signals are not durable)."""
    t = projection.load(stream_id)
    for rnd in t.rounds:
        for table in rnd.tables:
            for record in table.games:
                if record.places is None:
                    outcome = games.result(record.game_id)
                    if outcome is not None:
                        on_game_finished(record.game_id, outcome)
    advance(stream_id)


def _repeat(tournament_id: int) -> None:
    """A tournament with ``repeat`` (the demo club's) starts again with the same entrants when it ends."""
    row = Tournament.objects.get(pk=tournament_id)
    t = projection.load(row.stream_id)
    again = create(t.name, t.game, t.format, t.options, club=row.club)
    for e in t.entrants.values():
        if e.bot_level and not e.withdrawn:
            register(
                again,
                "",
                bot_level=e.bot_level,
                bot_number=e.bot_number,
                rating=e.rating,
                command_id=f"register-{e.id}",
            )
    seed(again, "random")
    start(again)


# --- No-shows ------------------------------------------------------------------------------------


def _has_humans(t: log.Tournament, seats: list[int]) -> bool:
    return any(t.entrants[e].user_id is not None for e in seats)


def _watch_for_no_show(stream_id: int, game_id: int, delay: float) -> None:
    from tournaments import tasks

    worker.schedule_call(delay, tasks.check_no_show, check_no_show, stream_id, game_id)


def check_no_show(stream_id: int, game_id: int) -> str:
    """``no_show_after`` seconds after a game started: a player asked to move who never has forfeits.

    The match is recorded as a forfeit (``result.forfeited``, reason ``no-show``) and the game is
    abandoned through the games service, so nobody waits at that table any more.
    """
    t = projection.load(stream_id)
    table = t.table_of_game(game_id)
    if table is None or table.result is not None or games.result(game_id) is not None:
        return "decided"
    record = next(g for g in table.games if g.game_id == game_id)
    moved = games.seats_that_moved(game_id)
    waiting = set(games.load_table(game_id).to_act())
    absent = sorted(
        {
            entrant
            for seat, entrant in enumerate(record.seats)
            if seat in waiting and seat not in moved and t.entrants[entrant].user_id is not None
        }
    )
    if not absent:
        return "present"

    def build(state: log.Tournament) -> list[dict[str, Any]]:
        current = state.table(table.key)
        return [] if current.result is not None else [_forfeit_event(current, absent, "no-show")]

    _run(stream_id, f"no-show-{game_id}", "system", build)
    with contextlib.suppress(ServiceError):
        games.abandon(game_id, f"no-show-{game_id}", reason="no-show", by="tournament")
    advance(stream_id)
    return "forfeited"


# --- Over the board --------------------------------------------------------------------------------
#
# A round played with real cards and tiles at physical tables: paired and seated as usual, but no
# online game is made. The players enter each game's result on their phones (signed in as the
# entrant, or holding the table's code from its table card), the other players of the table confirm
# it or dispute it, the organiser decides a dispute and can enter or correct any result. Every step
# is an event; the result is worked out by ``formats.board_result`` (``board.score``'s checks), so
# matches, standings, tie-breaks and ratings come out as for online games (docs/tournaments.md).


def _board_ahead(t: log.Tournament) -> bool:
    """Whether a round still to start is to be played over the board."""
    started = sum(1 for rnd in t.rounds if rnd.started)
    return t.over_the_board or any(n > started for n in t.board_rounds)


def _check_board_possible(t: log.Tournament) -> None:
    if t.status == FINISHED:
        raise ServiceError("finished", _("This tournament is over."))
    if t.game not in board.GAMES:
        raise ServiceError("no_board_game", _("This game cannot be entered by hand."))
    if any(e.bot_level and not e.withdrawn for e in t.entrants.values()):
        raise ServiceError("board_no_bots", _("Computer players cannot sit at tables with real cards."))


def set_over_the_board(row: Tournament, on: bool, *, by: Any = None) -> None:
    """Every round that has not started is played with real cards (``on``), or online again."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if on:
            _check_board_possible(t)
        if t.over_the_board == bool(on):
            return []
        return [{"type": "tournament.over_the_board", "on": bool(on), "by": getattr(by, "pk", None)}]

    _run(row.stream_id, f"board-{secrets.token_hex(8)}", _actor(by), build)
    advance(row.stream_id)


def set_round_over_the_board(row: Tournament, round_: Any, on: bool, *, by: Any = None) -> None:
    """One round (not started yet) played with real cards (``on``), or online after all."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if on:
            _check_board_possible(t)
        started = sum(1 for rnd in t.rounds if rnd.started)
        if isinstance(round_, bool) or not isinstance(round_, int) or not started < round_ <= 64:
            raise ServiceError("bad_round", _("Choose a round that has not started."))
        if (round_ in t.board_rounds) == bool(on):
            return []
        return [
            {"type": "round.over_the_board", "round": round_, "on": bool(on), "by": getattr(by, "pk", None)}
        ]

    _run(row.stream_id, f"board-round-{secrets.token_hex(8)}", _actor(by), build)
    advance(row.stream_id)


def table_code(t: log.Tournament, key: str) -> str:
    """The code on table ``key``'s card (``board.table_code``): only the organiser's pages show it."""
    return board.table_code(t.secret_seed, key)


def code_table(t: log.Tournament, code: str) -> str | None:
    """The table of the current round played over the board whose code this is, if any."""
    typed = board.normal_code(code)
    rnd = t.current
    if rnd is None or not rnd.over_the_board or len(typed) != board.CODE_LENGTH:
        return None
    found = None
    for table in rnd.tables:
        if hmac.compare_digest(typed.encode(), table_code(t, table.key).encode()):
            found = table.key
    return found


def _board_table(t: log.Tournament, key: str) -> log.Table:
    try:
        table = t.table(key)
    except log.LogError:
        raise ServiceError("unknown_match", _("There is no such match.")) from None
    rnd = next(r for r in t.rounds if r.number == table.round)
    if not rnd.over_the_board:
        raise ServiceError("not_board", _("This table plays online: its results come from its games."))
    return table


def _player_at(t: log.Tournament, table: log.Table, entrant: Any, user: Any, code: str | None) -> str:
    """How ``entrant`` acts at this table: ``account`` (signed in as that entrant) or ``code`` (holding
    the table's code: it proves a seat at the table, and the phone says which entrant it is)."""
    if isinstance(entrant, bool) or entrant not in table.entrants:
        raise ServiceError("not_at_table", _("Only the players of this table can do this."))
    if code is not None:
        if not hmac.compare_digest(board.normal_code(code).encode(), table_code(t, table.key).encode()):
            raise ServiceError("bad_code", _("That is not this table's code."))
        return "code"
    if user is not None and getattr(user, "pk", None) and t.entrants[entrant].user_id == user.pk:
        return "account"
    raise ServiceError("not_at_table", _("Only the players of this table can do this."))


def _board_config(t: log.Tournament, table: log.Table) -> dict[str, Any]:
    players = 4 if t.options.get("partnerships") else len(table.entrants)
    return game_config(t.game, t.options, players)


def _checked(t: log.Tournament, table: log.Table, hands: Any) -> log.Result:
    try:
        return formats.board_result(t, table, _board_config(t, table), hands)
    except IllegalAction as exc:
        raise ServiceError.from_illegal(exc) from None


def _open_game(t: log.Tournament, table: log.Table, game: Any) -> log.BoardGame:
    number = formats.board_game_open(t, table)
    if number is None:
        raise ServiceError("no_entry_now", _("This table takes no result now."))
    if game != number:
        raise ServiceError("stale", _("This page was out of date: here is the table as it is now."))
    return table.board_game(number)


def _recorded_event(t: log.Tournament, key: str, number: int, correction: bool = False) -> dict[str, Any]:
    table = t.table(key)
    game = table.board_game(number)
    assert game.hands is not None
    result = _checked(t, table, game.hands)
    event: dict[str, Any] = {
        "type": "result.recorded",
        "table": key,
        "game": number,
        "seats": formats.board_seats(t, table, number),
        **(projection.result_json(result) or {}),
    }
    if correction:
        event["correction"] = True
    return event


def _if_agreed(
    t: log.Tournament, events: list[dict[str, Any]], key: str, number: int
) -> list[dict[str, Any]]:
    """``events``, and the result once every entrant of the table agrees with the entry."""
    after = copy.deepcopy(t)
    for event in events:
        log.apply(after, event)
    table = after.table(key)
    if set(table.entrants) <= table.board_game(number).confirmed:
        return [*events, _recorded_event(after, key, number)]
    return events


def _board_command(row: Tournament, name: str, by: Any, build: Build) -> None:
    _run(row.stream_id, f"{name}-{secrets.token_hex(8)}", _actor(by) if by else "table-code", build)
    advance(row.stream_id)


def enter_result(
    row: Tournament,
    key: str,
    game: Any,
    hands: Any,
    *,
    entrant: Any,
    user: Any = None,
    code: str | None = None,
) -> None:
    """A player's entry of game ``game`` of table ``key`` (every hand, as on the score sheet). It is
    checked against the rules; the other players of the table then confirm or dispute it. A new entry
    replaces one still waiting (the confirmations start again)."""

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        table = _board_table(t, key)
        via = _player_at(t, table, entrant, user, code)
        number = _open_game(t, table, game).number
        _checked(t, table, hands)
        event = {
            "type": "result.entered",
            "table": key,
            "game": number,
            "hands": hands,
            "entrant": entrant,
            "by": getattr(user, "pk", None) if via == "account" else None,
            "via": via,
        }
        return _if_agreed(t, [event], key, number)

    _board_command(row, "enter", user, build)


def _answer(
    row: Tournament,
    kind: str,
    key: str,
    game: Any,
    seen: Any,
    entrant: Any,
    user: Any,
    code: str | None,
    reason: str = "",
) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        table = _board_table(t, key)
        via = _player_at(t, table, entrant, user, code)
        current = _open_game(t, table, game)
        if current.hands is None:
            raise ServiceError("nothing_to_confirm", _("There is no result to confirm yet."))
        if seen != current.entered_seq:
            raise ServiceError("stale", _("This page was out of date: here is the table as it is now."))
        if kind == "result.confirmed" and entrant in current.confirmed:
            return []
        event: dict[str, Any] = {
            "type": kind,
            "table": key,
            "game": current.number,
            "entrant": entrant,
            "by": getattr(user, "pk", None) if via == "account" else None,
            "via": via,
        }
        if kind == "result.disputed":
            event["reason"] = reason.strip()[:300]
            return [event]
        return _if_agreed(t, [event], key, current.number)

    _board_command(row, kind.split(".")[1], user, build)


def confirm_result(
    row: Tournament,
    key: str,
    game: Any,
    seen: Any,
    *,
    entrant: Any,
    user: Any = None,
    code: str | None = None,
) -> None:
    """Another player of the table agrees with the entry it was shown (``seen``: the entry's seq).
    The last confirmation records the game's result."""
    _answer(row, "result.confirmed", key, game, seen, entrant, user, code)


def dispute_result(
    row: Tournament,
    key: str,
    game: Any,
    seen: Any,
    reason: str = "",
    *,
    entrant: Any,
    user: Any = None,
    code: str | None = None,
) -> None:
    """A player of the table disagrees with the entry: the organiser decides (``resolve_result``),
    or the players enter it again and all confirm."""
    _answer(row, "result.disputed", key, game, seen, entrant, user, code, reason)


def resolve_result(
    row: Tournament, key: str, game: Any, hands: Any = None, reason: str = "", *, by: Any = None
) -> None:
    """The organiser enters, decides or corrects game ``game`` of table ``key``: ``hands`` (or, when
    None, the entry waiting for confirmation, as it is). A correction of a recorded game needs a
    reason; when its match was decided, the match is decided again from the corrected games."""
    check_organiser(row, by)
    reason = (reason or "").strip()

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        table = _board_table(t, key)
        recorded = len(table.recorded_board())
        correcting = isinstance(game, int) and not isinstance(game, bool) and 1 <= game <= recorded
        if correcting:
            if not reason:
                raise ServiceError("no_reason", _("A correction needs a reason."))
            knockout = t.format in ("single_elimination", "double_elimination", "table_elimination")
            if knockout and (t.current is None or table.round != t.current.number):
                raise ServiceError(
                    "too_late", _("In a knockout, only a result of the current round can be corrected.")
                )
            number = int(game)
        else:
            number = _open_game(t, table, game).number
        given = hands if hands is not None else table.board_game(number).hands
        if given is None:
            raise ServiceError("nothing_to_confirm", _("There is no result to confirm yet."))
        _checked(t, table, given)
        events: list[dict[str, Any]] = [
            {
                "type": "result.resolved",
                "table": key,
                "game": number,
                "hands": given,
                "reason": reason,
                "by": getattr(by, "pk", None),
            }
        ]
        after = copy.deepcopy(t)
        log.apply(after, events[0])
        events.append(_recorded_event(after, key, number, correction=correcting))
        if correcting and table.computed is not None and not table.forfeit:
            log.apply(after, events[-1])
            elimination = t.format in ("single_elimination", "double_elimination", "table_elimination")
            decided = formats.decide_match(after, after.table(key), elimination)
            if decided is None:
                raise ServiceError(
                    "undecided",
                    _(
                        "After this correction the match would need another game: correct the match's result instead."
                    ),
                )
            events.append({"type": "match.decided", "table": key, **(projection.result_json(decided) or {})})
        return events

    _board_command(row, "resolve", by, build)
