"""Every bound on what a client may send, in one place (docs/security.md "Bounds").

A count or a number from a client (a form field, an API field, a socket message, an address) is
checked against its bound here **before any work is done with it**: nothing is built, looked up or
looped over from a number that has not passed. A text field is cut off at its length the same way.
Forms, the API's schemas, the sockets and the spectator edge all read their limits from this module,
so the limit a page shows, the one the API's OpenAPI document states and the one enforced are one.

How a number is read (``Number.parse``): an ``int`` (never a ``bool``), or a text of ASCII digits
with an optional leading ``-`` and at most ``DIGITS`` characters. Anything else — "²" and "٣"
(digits to ``str.isdigit`` but not to a person), "1.5", "1e3", "" or a text past ``DIGITS`` (Python
would spend time on 4,300 digits before refusing them) — is refused before ``int()`` is called.
Refusals are ``ServiceError("bad_number", ...)`` (400) naming the field and its bounds.

Engines keep their own rules (a Pitch target of 7, 11, 15 or 21); the bounds here are the outer
fence every entry point puts before them, and ``tests/security/test_bounds.py`` checks that the two
agree where both speak of the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from games.engines.base import DIGITS as DIGITS  # read here by every client-facing number
from games.engines.base import _, read_int
from games.engines.dominoes.config import MAX_TARGET as DOMINOES_MAX_TARGET
from games.engines.pitch.config import MAX_MAX_HANDS
from games.engines.skyjo.rules import MAX_PLAYERS
from games.engines.skyjo.rules import MAX_TARGET as SKYJO_MAX_TARGET
from games.errors import ServiceError
from games.ids import BIGINT_MAX

T = TypeVar("T")


class OutOfBounds(ServiceError):
    """A number or a text a client sent that its bound refuses (400, the field named)."""

    status = 400


@dataclass(frozen=True)
class Number:
    """A whole number a client may send: ``name`` (as forms and the API call it), from ``low`` to
    ``high``; ``about`` says what it counts (docs/security.md lists them all)."""

    name: str
    low: int
    high: int
    about: str

    def accepts(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high

    def parse(self, raw: Any, field: str | None = None) -> int:
        """``raw`` as a number within the bound, or OutOfBounds. Texts are read as written (ASCII
        digits, an optional ``-``, at most ``DIGITS`` characters) before ``int()`` sees them."""
        value = read_int(raw)
        if value is None or not self.low <= value <= self.high:
            raise self.refusal(field)
        return value

    def parse_or(self, raw: Any, default: T) -> int | T:
        """``raw`` within the bound, or ``default`` when it is missing or not such a number (a page's
        query parameter that only chooses what is shown)."""
        value = read_int(raw)
        return value if value is not None and self.low <= value <= self.high else default

    def refusal(self, field: str | None = None) -> OutOfBounds:
        return OutOfBounds(
            "bad_number",
            _("{name} must be a whole number from {low} to {high}."),
            name=field or self.name,
            low=self.low,
            high=self.high,
            fields=[field or self.name],
        )

    def schema(self, *, strict: bool = True, **kwargs: Any) -> Any:
        """A pydantic field of this bound (the API's schemas; the OpenAPI document states it).
        ``strict``: a JSON body's number must be a JSON integer (``true`` and ``1.0`` are not 1);
        a query's is read from text, so its schema is not strict."""
        from pydantic import Field

        kwargs.setdefault("description", self.about)
        return Field(ge=self.low, le=self.high, strict=strict, **kwargs)

    def form_field(self, **kwargs: Any) -> Any:
        """A Django form field of this bound (the pages' forms): ``BoundedIntegerField``."""
        from games.formfields import BoundedIntegerField

        return BoundedIntegerField(self, **kwargs)


@dataclass(frozen=True)
class Text:
    """A text a client may send: at most ``most`` characters."""

    name: str
    most: int
    about: str

    def check(self, raw: Any, field: str | None = None) -> str:
        """``raw`` as a text of at most ``most`` characters (stripped), or OutOfBounds."""
        if not isinstance(raw, str):
            raw = "" if raw is None else str(raw)[: self.most + 1]
        text = raw.strip()
        if len(text) > self.most:
            raise OutOfBounds(
                "too_long",
                _("{name} must be at most {most} characters long."),
                name=field or self.name,
                most=self.most,
                fields=[field or self.name],
            )
        return text


# --- Numbers ---------------------------------------------------------------------------------------
# Tables

PLAYERS = Number("players", 2, MAX_PLAYERS, "Players at a table (each game allows some of these).")
SEAT = Number("seat", 0, MAX_PLAYERS - 1, "A seat's number, from 0.")
SEQ = Number("seq", 0, BIGINT_MAX, "A position in a table's log (expected_seq, since, at, a move's seq).")
ID = Number("id", 1, BIGINT_MAX, "A table's, tournament's, comment's or member's id.")
TARGET = Number(
    "target",
    1,
    max(DOMINOES_MAX_TARGET, SKYJO_MAX_TARGET),
    "The points that end a game (the engine allows the values of its game).",
)
MAX_HANDS = Number("max_hands", 1, MAX_MAX_HANDS, "Pitch: stop after this many hands.")
#: How long a seat may go without a connection to its table before the others may claim the game
#: (docs/live-tables.md "A player who left"): from a minute (a phone's lost signal must not cost a
#: game) to an hour.
FALLBACK_MINUTES = Number(
    "fallback_minutes", 1, 5, "Play now: minutes without an opponent before a computer takes the seat."
)
ABSENT_AFTER = Number("absent_after", 60, 3600, "Seconds without a connection before a seat counts as gone.")
# Tournaments (tournaments.options.validate_options checks its options with these)
TABLE_SIZE = Number("table_size", 2, MAX_PLAYERS, "Players at each table of a tournament.")
BEST_OF = Number("best_of", 1, 9, "Games of a match: the first to win more than half takes it.")
ROUNDS = Number("rounds", 1, 30, "Rounds of a Swiss tournament.")
SPECTATOR_DELAY = Number("spectator_delay", 0, 50, "Moves spectators see a tournament table late.")
NO_SHOW_MINUTES = Number(
    "no_show_minutes", 0, 120, "Minutes before a player who never moved forfeits (0: never)."
)
NO_SHOW_AFTER = Number(
    "no_show_after", 0, NO_SHOW_MINUTES.high * 60, "The tournament option NO_SHOW_MINUTES sets, in seconds."
)
HALF_POINT_BYES = Number("half_point_byes", 0, 30, "Rounds an entrant may miss for half a point.")
NO_BYES_LAST_ROUNDS = Number("no_byes_last_rounds", 0, 30, "Last rounds without half-point byes.")
ADVANCE = Number("advance", 1, MAX_PLAYERS - 1, "Table elimination: who goes on from each table.")
ENTRANT = Number("entrant", 1, 100_000, "An entrant's number in a tournament.")
ROUND = Number("round", 1, 30, "A round's number.")
PLACE = Number("place", 1, MAX_PLAYERS, "A finishing place at a table (an organiser's correction).")
COMPUTERS = Number("count", 1, 32, "Computer players an organiser adds to a tournament at once.")
# Score entry (games played with real cards)
HANDS = Number("count", 0, 100, "Rows (hands) of a score entry form (tournaments.board.MAX_HANDS).")
GAME_INDEX = Number("game", 0, 8, "A game of a match, from 0 (best of 9 at most).")
GAME_NUMBER = Number("game", 1, 9, "A game of a match as the score entry names it, from 1 (best of 9).")
SCORE = Number("score", -100_000, 100_000, "A number written on a score sheet (the engine checks the rules).")
# Reading
PAGE = Number("page", 1, 10_000, "A page of a list.")
PAGE_SIZE = Number("limit", 1, 100, "Items on one page of a list.")
AT_SEQS = Number("at", 0, 50, "Seqs asked for at once in a hand history.")
SINCE = Number("since", 0, BIGINT_MAX, "The last seq a client has (resume, updates, the stream, the edge).")


# --- Texts -----------------------------------------------------------------------------------------

COMMAND_ID = Text("command_id", 64, "A client's command id (1-64 of A-Z a-z 0-9 _ . : -).")
CODE = Text("code", 64, "An invite's or a table card's code.")
NAME = Text("name", 150, "A player's or entrant's name (games.models.NAME_LENGTH).")
TOURNAMENT_NAME = Text("name", 120, "A tournament's name.")
TOKEN_NAME = Text("name", 64, "An API token's name.")
REASON = Text("reason", 500, "An organiser's reason for a correction, a forfeit or a change.")
COMMENT = Text("text", 1000, "A comment on a replay.")
CHAT_TEXT = Text("text", 200, "A free text said at a table's chat (chat/service.py).")

# --- Seasons (seasons/forms.py) -------------------------------------------------------------------

SEASON_BEST = Number("best", 1, 100, "A season: how many of a player's events count (best N).")
PLACE_POINTS = Number("place_points", 0, 1000, "A season: the points of one place in its table.")
PLACES = Number("places", 1, 64, "A season: places its points table names.")
SEASON_DAYS = Number("season_days", 1, 731, "A season: how many days it lasts (two years at most).")
CLOCK_MINUTES = Number("minutes", 1, 360, "The round clock: a round's time or an extension, in minutes.")
SEASON_NAME = Text("name", 120, "A season's name.")


NUMBERS: tuple[Number, ...] = tuple(v for v in list(globals().values()) if isinstance(v, Number))
TEXTS: tuple[Text, ...] = tuple(v for v in list(globals().values()) if isinstance(v, Text))
