"""The public API's requests and replies (pydantic): the OpenAPI description at /api/v1/schema is
generated from these and the routes, never kept by hand."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import Field

from games import bounds


class ErrorBody(Schema):
    code: str = Field(description="Stable: clients switch on it (docs/api.md lists every code).")
    message: str = Field(description="A sentence for a person, in the request's language.")
    fields: list[str] | None = Field(None, description="bad_request: the fields that are missing or wrong.")


class ErrorOut(Schema):
    error: ErrorBody


class Me(Schema):
    username: str
    token: str = Field(description="The token's name.")
    scopes: list[str]


# --- The lobby ---------------------------------------------------------------------------------------


class LobbySeat(Schema):
    number: int
    name: str
    computer: str | None = Field(None, description="A computer seat's level.")
    open: bool = Field(description="Waiting for a player.")
    joinable: bool = Field(description="Open to anyone signed in: POST .../join takes it.")


class LobbyTable(Schema):
    id: int
    game: str
    kind: str
    created_at: str
    seats: list[LobbySeat]
    state: str = Field(description="GET this for the table as a spectator sees it.")


class TournamentBrief(Schema):
    """What every listing says of a tournament (the lobby's, the API's list and its page)."""

    id: int
    name: str
    game: str
    format: str
    status: str
    round: int


class LobbyTournament(TournamentBrief):
    url: str


class Lobby(Schema):
    tables: list[LobbyTable]
    tournaments: list[LobbyTournament]


# --- Tables ------------------------------------------------------------------------------------------


class SeatIn(Schema):
    kind: Literal["me", "computer", "open", "invite"] = Field(
        description="me: the token's player (credential returned); computer: a computer player of "
        "`level`; open: anyone signed in may take it from the lobby; invite: only through its invite code."
    )
    level: Literal["random", "greedy", "strong", "expert"] = "greedy"


#: No game has more options than this: a longer object is refused before the engine reads it.
MAX_OPTIONS = 16


class CreateIn(Schema):
    game: str = Field(description="skyjo, dominoes, kazino or pitch.")
    seats: list[SeatIn] = Field(
        min_length=bounds.PLAYERS.low,
        max_length=bounds.PLAYERS.high,
        description="One entry per seat, in order.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="The game's options (docs/games/*.md); the others take the rules' defaults.",
    )
    kind: Literal["casual", "rated"] = "casual"
    absent_after: int | None = bounds.ABSENT_AFTER.schema(
        default=None,
        description="Rated tables: seconds a seat may be without a connection before the others may "
        "claim the game (POST .../claim); left out: 120. Thinking time is unlimited.",
    )
    club: int | None = bounds.ID.schema(
        default=None,
        description="A club-only table: the id of one of your clubs; only its members (and the seated "
        "players) see and join the table. Left out: everyone.",
    )


class SeatCommandIn(Schema):
    seat: int | None = bounds.SEAT.schema(
        default=None, description="Your seat; may be left out when you hold one seat at the table."
    )
    command_id: str | None = Field(
        None, description="Your id for this command: sending it again never does it twice."
    )


class Credential(Schema):
    seat: int
    credential: str = Field(description="Send it as X-Seat-Token to act for this seat (shown once).")


class Invitation(Schema):
    seat: int
    code: str = Field(description="POST .../join with this code takes the seat (single use).")
    url: str = Field(description="The same invite as a link for a browser.")


class Created(Schema):
    table: int
    game: str
    seq: int
    credentials: list[Credential]
    invites: list[Invitation]


class JoinIn(Schema):
    seat: int | None = bounds.SEAT.schema(
        default=None, description="The open seat to take; the first joinable one if left out."
    )
    code: str | None = Field(
        None, max_length=bounds.CODE.most, description="An invite's code, for a seat kept by invite."
    )


class ActionIn(Schema):
    action: dict[str, Any] = Field(description='One of the seat\'s legal_actions, e.g. {"type": "pass"}.')
    seat: int | None = bounds.SEAT.schema(
        default=None,
        description="The seat you move for; may be left out when you hold one seat at the table.",
    )
    expected_seq: int | None = bounds.SEQ.schema(
        default=None,
        description="The seq you saw: refused (stale_seq) if the table moved on. Left out: the action "
        "applies to the table as it is now, if it is legal for your seat.",
    )
    command_id: str | None = Field(
        None,
        description="Your id for this command (1-64 of A-Z a-z 0-9 _ . : -): sending it again never "
        "plays twice. Left out: the server gives one.",
    )


class Acted(Schema):
    game: int
    first_seq: int
    seq: int
    duplicate: bool
    command_id: str


class TableState(Schema):
    game: int
    engine: str
    seq: int
    seat: int | None
    view: dict[str, Any] = Field(description="What this audience may know (engine.view).")
    to_act: list[int]
    legal_actions: list[dict[str, Any]]
    finished: bool
    outcome: dict[str, Any] | None = Field(
        None, description="When the game is over: places, scores, winners (the engine's outcome)."
    )
    stopped: str | None
    resigned: dict[str, Any] | None = Field(
        None,
        description='The seat that resigned, or left and was claimed against: {"seat", "reason": '
        '"resigned" | "left"} (docs/live-tables.md "Resigning and claiming").',
    )
    paused: bool
    game_number: int
    seats: list[dict[str, Any]]
    last_move: dict[str, Any] | None


class Updates(Schema):
    updates: list[dict[str, Any]] | None = Field(
        None,
        description="The `update` messages after `since`, as the table socket sent them (docs/live-tables.md).",
    )
    state: dict[str, Any] | None = Field(None, description="Instead, the whole picture: `since` was too old.")


# --- Hand histories ----------------------------------------------------------------------------------


class HistoryEvent(Schema):
    seq: int | None = Field(None, description="Left out when it is the seq of the event before plus one.")
    type: str
    actor: str | None = Field(
        None,
        description='Who acted: "seat:N", "bot:N", "system"… Left out when it is the actor of the event before.',
    )
    data: dict[str, Any] | None = Field(None, description="Only for the engine's public event types.")
    end: bool = Field(
        True, description="false: not the last event of its command (live audiences saw the command's end)."
    )


class HistoryHand(Schema):
    hand: int
    first: int = Field(description="The seq of the hand's first event.")
    last: int = Field(description="The seq of the hand's last event.")


class History(Schema):
    format: str
    format_version: int
    perspective: str | int
    game: dict[str, Any]
    seats: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    events: list[dict[str, Any]] = Field(
        description='HistoryEvent items; for "all", every stored event as the server keeps it (with hashes).'
    )
    hands: list[HistoryHand] | None = None
    views: dict[str, dict[str, Any]] = Field(
        description="seq -> this perspective's view after that event: the moments asked for (`views`, `at`)."
    )
    fair: dict[str, Any] | None = None
    head: str | None = None
