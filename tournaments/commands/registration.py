"""Creating a tournament and its entrants: registration, check-in, withdrawal, seeding."""

from __future__ import annotations

import contextlib
import copy
import secrets
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _

from games.commands import controls
from games.errors import ServiceError
from games.eventlog import streams
from games.models import NAME_LENGTH
from games.words import computers
from tournaments import deals, formats, log, projection, ratings
from tournaments.commands.progress import advance, withdrawal_events
from tournaments.commands.runner import acting_entrant, actor, after_undos, by_id, check_organiser, run
from tournaments.log import FINISHED, PAUSED, REGISTRATION, RUNNING
from tournaments.models import Rating, Tournament
from tournaments.options import validate_options

if TYPE_CHECKING:
    from django.contrib.auth.models import User

BOT_LEVELS = computers.LEVELS


def create(
    name: str,
    game: str,
    fmt: str,
    options: dict[str, Any] | None = None,
    *,
    club: Any = None,
    by: User | None = None,
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
        run(stream_id, "create", actor(by), lambda t: [event])
    return Tournament.objects.get(stream_id=stream_id)


def board_ahead(t: log.Tournament) -> bool:
    """Whether a round still to start is to be played over the board."""
    started = sum(1 for rnd in t.rounds if rnd.started)
    return t.over_the_board or any(n > started for n in t.board_rounds)


def register(
    row: Tournament,
    name: str,
    *,
    user: User | None = None,
    bot_level: str = "",
    members: list[str] | None = None,
    rating: float | None = None,
    by: User | None = None,
    command_id: str | None = None,
    missed: str = "zero",
    bot_number: int | None = None,
) -> int:
    """A new entrant (a player, a computer player or a partnership); its number.

    A computer player (``bot_level``) has no name of its own: it is "Computer N (Level)" on every
    page and at every table, in the reader's language (games/words/computers.py), N its ``bot_number``
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
        if bot_level and board_ahead(t):
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
    run(row.stream_id, command_id, actor(by or user), build)
    advance(row.stream_id)
    # The entrant this command registered (for a repeated command, the first time's).
    return int(next(e.data["entrant"] for e in streams.read(row.stream_id) if e.command_id == command_id))


def _entrant_command(
    row: Tournament, kind: str, entrant: int, by: User | None, states: tuple[str, ...]
) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        e = acting_entrant(row, t, entrant, by)
        if t.status not in states:
            raise ServiceError("wrong_time", _("That cannot be done at this stage of the tournament."))
        if e.withdrawn:
            raise ServiceError("withdrawn", _("This entrant has withdrawn."))
        if kind == "entrant.checked_in" and e.checked_in:
            return []
        if kind == "entrant.checked_out" and not e.checked_in:
            return []
        event = {"type": kind, "entrant": entrant}
        if kind != "entrant.withdrawn" or t.status == REGISTRATION:
            return [event]
        # The rules of absence (#30): the round paired or under way is dealt with at once.
        after = copy.deepcopy(t)
        log.apply(after, event)
        return [event, *withdrawal_events(after, entrant)]

    # Check-in and check-out may alternate: each command is its own (a repeat of the same state is
    # nothing, above).
    name = kind if kind == "entrant.withdrawn" else f"{kind}-{secrets.token_hex(4)}"
    t = run(row.stream_id, after_undos(row.stream_id, f"{name}-{entrant}"), actor(by), build)
    if kind == "entrant.withdrawn":
        # A two-player match lost by the withdrawal: its game stops (never rated, its replay says why).
        for table in t.current.tables if t.current and t.current.started else []:
            live = table.live_game()
            if entrant in table.forfeit and live is not None:
                with contextlib.suppress(ServiceError):
                    controls.abandon(
                        live.game_id, f"forfeit-{live.game_id}", reason="forfeit", by="tournament"
                    )
    advance(row.stream_id)


def check_in(row: Tournament, entrant: int, *, by: User | None = None) -> None:
    """The entrant is here (themselves, or the organiser for anyone). Check-in closes at the start."""
    _entrant_command(row, "entrant.checked_in", entrant, by, (REGISTRATION,))


def check_out(row: Tournament, entrant: int, *, by: User | None = None) -> None:
    """Undo a check-in before the start (the entrant left, or was checked in by mistake)."""
    _entrant_command(row, "entrant.checked_out", entrant, by, (REGISTRATION,))


def change_options(row: Tournament, changes: Any, *, by: User | None = None) -> None:
    """The organiser changes settings before the start (``changes``: the options to set; checked
    with all the others as at creation). Once started, the options are the ones it started with."""
    check_organiser(row, by)
    if not isinstance(changes, dict) or not changes:
        raise ServiceError("bad_options", _("A tournament's options must be given as named values."))

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status != REGISTRATION:
            raise ServiceError("wrong_time", _("Settings can be changed only before the start."))
        options = validate_options(t.game, t.format, {**t.options, **changes})
        if options == t.options:
            return []
        return [{"type": "tournament.options_changed", "options": options, "by": by_id(by)}]

    run(row.stream_id, f"options-{secrets.token_hex(8)}", actor(by), build)


def withdraw(row: Tournament, entrant: int, *, by: User | None = None) -> None:
    """The entrant plays no further round; a match of theirs still open is forfeited."""
    _entrant_command(row, "entrant.withdrawn", entrant, by, (REGISTRATION, RUNNING, PAUSED))


def seed(row: Tournament, method: str, order: list[int] | None = None, *, by: User | None = None) -> None:
    """Seeding before the start: ``manual`` (the given order), ``random`` or ``rating``."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if t.status != REGISTRATION:
            raise ServiceError("wrong_time", _("Seeding is done before the tournament starts."))
        rated = _ratings(t) if method == "rating" else {}
        return [{"type": "tournament.seeded", "method": method, "order": _seeding(t, method, order, rated)}]

    run(row.stream_id, f"seed-{secrets.token_hex(8)}", actor(by), build)


def _ratings(t: log.Tournament) -> dict[int, float]:
    """Each entrant's rating for seeding: the one given at registration, else their OpenSkill rating
    for this game (μ − 3σ, the club's ladder first, then everyone's)."""
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
