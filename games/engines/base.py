"""What every engine shares: the error type, the JSON shapes, and the contract.

Engines are pure Python (stdlib only): no Django, no I/O, no clock, and
``apply`` never draws a random number. See ARCHITECTURE.md and DESIGN.md.

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol, TypeAlias

Event: TypeAlias = dict[str, Any]
Action: TypeAlias = dict[str, Any]
View: TypeAlias = dict[str, Any]
Config: TypeAlias = dict[str, Any]


def _(message: str) -> str:
    """Mark an English sentence for translation without importing Django.

    ``makemessages`` picks up ``_("...")`` calls; the web layer translates the
    sentence by looking it up in the catalogue, then formats ``params`` into it.
    """
    return message


def pgettext(context: str, message: str) -> str:
    """``_`` with a context (``makemessages`` reads it as Django's): "Game", the Pitch point, is not
    "Game" of a match."""
    return message


#: The most characters a number may be written with (a 64-bit integer has 19 digits and a sign);
#: games/bounds.py reads every number a client sends with ``read_int``.
DIGITS = 20


def read_int(raw: Any) -> int | None:
    """An int (not a bool) as it is; a text of ASCII digits with an optional ``-`` (stripped, at most
    ``DIGITS`` characters) as its number; None for anything else."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if not text or len(text) > DIGITS or not text.isascii():
        return None
    digits = text[1:] if text[0] == "-" else text
    if not digits.isdigit():  # ASCII only here: "²" never reaches int()
        return None
    return int(text)


class Refusal(Exception):
    """A stable ``code`` and a sentence for players: what the engine and the service refuse with.

    ``message`` is an English template with ``{name}`` placeholders filled from
    ``params``; keep the template constant so it can be translated.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(self.text)

    @property
    def text(self) -> str:
        try:
            return self.message.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.message

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.text}


class IllegalAction(Refusal):
    """A refused action or config (games.errors.ServiceError is the service's own refusal)."""


class Engine(Protocol):
    """The module interface of every engine (DESIGN.md, "The engine contract")."""

    NAME: str
    VERSION: int

    def default_config(self, players: int) -> Config: ...
    def validate_config(self, config: Config) -> Config: ...
    def sample_configs(self) -> list[Config]: ...
    def start(self, config: Config, seed: int) -> list[Event]: ...
    def apply(self, state: Any, event: Event) -> Any: ...
    def replay(self, events: list[Event]) -> Any: ...
    def to_act(self, state: Any) -> list[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...
    def decide(self, state: Any, seat: int, action: Action) -> list[Event]: ...
    def view(self, state: Any, seat: int | None) -> View: ...
    def reveal(self, state: Any) -> View: ...
    def outcome(self, state: Any) -> dict[str, Any] | None: ...
    def determinize(self, view: View, rng: random.Random) -> Any: ...
    def components(self, state: Any) -> list[Any]: ...
    def hidden_from(self, state: Any, seat: int | None) -> list[str]: ...
    def score_sheet(self, config: Config) -> ScoreSheet: ...


# --- The real-card score sheet (tournaments played over the board) --------------------------------
# Labels are English marked with ``_``/``pgettext`` (their ``context``); the web layer translates them.


@dataclass(frozen=True)
class Number:
    """A number written for each seat in a row of the sheet: field ``h{row}-{name}-{seat}``, read into
    the hand's ``key`` (``name`` when empty) as ``{seat: value}``."""

    name: str
    label: str
    keyboard: Literal["numeric", "decimal"] = "numeric"
    sign: bool = False  # may be below zero: the form offers a minus key
    key: str = ""


@dataclass(frozen=True)
class Pick:
    """One answer a row: field ``h{row}-{name}``, read into the hand's ``key`` (``name`` when empty).

    ``kind``: ``seat`` (a player, or blank), ``seat_or_nobody`` (a player, or nobody), ``number``
    (one of ``numbers``), ``winners`` (nobody, a player, or two players tied when ``ties``: a list)."""

    name: str
    label: str
    kind: Literal["seat", "seat_or_nobody", "number", "winners"] = "seat"
    context: str = ""
    numbers: tuple[int, ...] = ()
    ties: bool = False
    key: str = ""


@dataclass
class Sheet:
    """A checked game: what each side scored in each hand, the totals and the places."""

    sides: list[int]
    rows: list[dict[int, Fraction]] = field(default_factory=list)
    # Per hand, what the check worked out beyond the points: {"doubled": side} (Skyjo), {"set_back":
    # side} (Pitch), {"winners": [...]} (dominoes).
    marks: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[int, Fraction] = field(default_factory=dict)
    places: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoreSheet:
    """A game's score sheet for a config: what is written each row (a hand, a round, a game), the
    rows the phone's form and the printed sheet start with, and how a row is named."""

    numbers: tuple[Number, ...]
    picks: tuple[Pick, ...]
    #: The rules' check and count of a whole game's rows (``IllegalAction`` with a sentence for
    #: players): fills the ``Sheet`` (above; games/engines/tally.py has the checks every game shares) with each row's points, the totals and
    #: the places. The rows are shaped as the fields above read them.
    score: Callable[[Config, Sheet, list[dict[str, Any]]], None]
    rows: int  # rows the entry form starts with (a button adds more)
    printed_rows: int  # rows of the printed sheet
    row_name: tuple[str, str]  # (context, "Round %(n)s"): a row's legend
    one_row: bool = False  # the game is one row (a single Kazino game): no more rows offered
    #: What a row's points were worked out from, when the numbers do not show it: sentences with
    #: %(name)s placeholders and their values, given the row and the players' names.
    about: Callable[[dict[str, Any], dict[int, str]], list[tuple[str, dict[str, Any]]]] | None = None
