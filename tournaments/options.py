"""A tournament's options: checked and normalised when it is created, and each game's config from them.

Pure but for the engines' ``compose`` (which knows each game's own options and their defaults);
errors are ``ServiceError`` with a sentence for the organiser.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext_noop as _

from games import bounds, engines
from games.engines.base import IllegalAction
from games.errors import ServiceError
from tournaments import log
from tournaments.standings import CRITERIA

PARTNERSHIP_GAMES = frozenset({"dominoes", "pitch"})
KNOWN = frozenset(
    {
        "table_size", "best_of", "rounds", "tiebreaks", "third_place", "reset", "advance", "duplicate",
        "partnerships", "game_config", "spectator_delay", "check_in", "late_entry", "auto_start",
        "registration_closes", "repeat", "no_show_after", "half_point_byes", "no_byes_last_rounds",
        "seating", "short_tables", "bye_value", "absence_before_round", "absent_after", "chat",
    }
)  # fmt: skip
#: The whole-number options and their bounds (one source: games/bounds.py).
LIMITS = (
    bounds.TABLE_SIZE,
    bounds.BEST_OF,
    bounds.SPECTATOR_DELAY,
    bounds.NO_SHOW_AFTER,
    bounds.HALF_POINT_BYES,
    bounds.NO_BYES_LAST_ROUNDS,
    # A seat with no connection this long may be claimed against (games/commands/resignation.py).
    bounds.ABSENT_AFTER,
    # Who goes on from each table of a table elimination (read as a number when a round is paired).
    bounds.ADVANCE,
)
#: The options that are yes or no: anything else is refused, never stored (the API sends JSON, #37).
FLAGS = (
    "third_place",
    "reset",
    "duplicate",
    "partnerships",
    "check_in",
    "late_entry",
    "auto_start",
    "repeat",
    # The players of its tables may talk (chat/service.py); off unless the organiser allows it.
    "chat",
)


def validate_options(game: str, fmt: str, options: dict[str, Any]) -> dict[str, Any]:
    """The tournament's options, normalised, or a ServiceError saying what is wrong."""
    if game not in engines.names():
        raise ServiceError("unknown_game", _("There is no game called {game}."), game=game)
    if fmt not in log.FORMATS:
        raise ServiceError("unknown_format", _("There is no tournament format called {format}."), format=fmt)
    if not isinstance(options, dict):
        raise ServiceError("bad_options", _("A tournament's options must be given as named values."))
    unknown = sorted(set(options) - KNOWN)
    if unknown:
        raise ServiceError("bad_options", _("Unknown tournament option: {name}."), name=unknown[0])
    out = dict(options)
    out.setdefault("table_size", 2)
    out.setdefault("best_of", 1)
    out.setdefault("auto_start", True)
    rounds = () if out.get("rounds") is None else (bounds.ROUNDS,)  # None: the usual number
    for bound in (*LIMITS, *rounds):
        if not bound.accepts(out.get(bound.name, bound.low)):
            raise ServiceError(
                "bad_options",
                _("{name} must be a whole number from {low} to {high}."),
                name=bound.name,
                low=bound.low,
                high=bound.high,
            )
    if fmt in ("single_elimination", "double_elimination", "round_robin") and out["table_size"] != 2:
        raise ServiceError("bad_options", _("This format is for two-player matches."))
    if fmt == "table_elimination" and out["table_size"] < 3:
        raise ServiceError("bad_options", _("Table elimination needs tables of three players or more."))
    if out.get("partnerships") and (game not in PARTNERSHIP_GAMES or out["table_size"] != 2):
        raise ServiceError(
            "bad_options", _("Partnerships are two pairs at one table, in dominoes and Pitch only.")
        )
    _check_seating(game, fmt, out)
    _check_absence(out)
    for name in FLAGS:
        if name in out and not isinstance(out[name], bool):
            raise ServiceError("bad_options", _("{name} is true or false."), name=name)
    tiebreaks = out.get("tiebreaks")
    if tiebreaks is not None and (not isinstance(tiebreaks, list) or len(tiebreaks) > len(CRITERIA)):
        raise ServiceError(
            "bad_options", _("tiebreaks is a list of at most {count} tie-breaks."), count=len(CRITERIA)
        )
    for name in tiebreaks or []:
        if not isinstance(name, str) or name not in CRITERIA:
            raise ServiceError("bad_options", _("There is no tie-break called {name}."), name=str(name)[:40])
    if tiebreaks and len(set(tiebreaks)) != len(tiebreaks):
        raise ServiceError("bad_options", _("A tie-break is named twice."))
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


SEATINGS = ("standings", "wider", "fixed")
#: A withdrawal before a round starts: the round is paired again, or the table plays without them
#: (a table left too small sits out) — the organiser's choice (#30, docs/tournaments.md).
ABSENCE_BEFORE_ROUND = ("repair", "bye")
BYE_VALUES = ("full", "half", "none")


def _check_absence(out: dict[str, Any]) -> None:
    """The rules of absence the organiser chooses: a sit-out's value (a win at a full table, half of
    it, or nothing; scaled to the table size) and what a withdrawal before a round does."""
    if "bye_value" in out and out["bye_value"] not in BYE_VALUES:
        raise ServiceError("bad_options", _("A sit-out scores a full win, half of it or nothing."))
    if out.get("absence_before_round", "repair") not in ABSENCE_BEFORE_ROUND:
        raise ServiceError(
            "bad_options", _("A withdrawal before a round pairs it again or leaves the others a bye.")
        )


def _check_seating(game: str, fmt: str, out: dict[str, Any]) -> None:
    """The multi-player Swiss's seating (#31): by standings, wider tables, or a schedule fixed in
    advance; short tables smaller or larger than the rest (the organiser's choice, never silent)."""
    seating = out.get("seating", "standings")
    short = out.get("short_tables", "smaller")
    if seating not in SEATINGS:
        raise ServiceError("bad_options", _("There is no seating called {name}."), name=seating)
    if short not in ("smaller", "larger"):
        raise ServiceError("bad_options", _("Short tables are smaller or larger, not {name}."), name=short)
    if (seating != "standings" or short != "smaller") and (fmt != "swiss" or out["table_size"] < 3):
        raise ServiceError(
            "bad_options", _("Seating and short tables are choices of a Swiss at tables of three or more.")
        )
    if seating == "fixed" and out.get("late_entry"):
        raise ServiceError("bad_options", _("A schedule fixed in advance takes no late entries."))
    if short == "larger":
        try:
            engines.compose(game, {}, out["table_size"] + 1)
        except IllegalAction:
            raise ServiceError(
                "bad_options",
                _("This game cannot seat {players} players at a table."),
                players=out["table_size"] + 1,
            ) from None


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
