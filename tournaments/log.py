"""A tournament as the fold of its own event stream: pure Python, no Django, no clock.

Every organiser and player action is an event in the tournament's stream (games/eventlog/streams.py);
this module folds the stream into a ``Tournament``. The Django models are projections of
that state (tournaments/projection.py), and the next step to take is decided from it
(tournaments/formats.py). Event types and their fields: docs/tournaments.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tournaments import clock, undo

REGISTRATION, RUNNING, PAUSED, FINISHED = "registration", "running", "paused", "finished"
BYE = "bye"  # where a pairing edit moves an entrant who is to sit out the round
FORMATS = ("single_elimination", "double_elimination", "round_robin", "swiss", "table_elimination")


class LogError(ValueError):
    """A stored event the fold cannot take: a corrupt or out-of-order log."""


@dataclass
class Entrant:
    id: int
    name: str
    user_id: int | None = None
    bot_level: str = ""
    # A computer entrant is "Computer N (Level)" (games/words/computers.py), N its bot_number at every
    # table; null for people.
    bot_number: int | None = None
    members: list[str] = field(default_factory=list)  # a partnership's players
    rating: float | None = None
    checked_in: bool = False
    # Check-in closes at the start: an entrant asked to check in who had not is out of every round
    # (shown as such), unlike a withdrawal it played no part in.
    missed_check_in: bool = False
    withdrawn: bool = False
    late: bool = False
    # A late entrant misses the rounds paired before it registered, scored 0 or ½ each (its choice).
    joined_round: int = 0
    missed_points: Fraction = Fraction(0)
    # Rounds for which the entrant asked for a half-point bye (not paired, scored ½).
    bye_requests: set[int] = field(default_factory=set)


@dataclass
class GameRecord:
    game_id: int
    number: int  # 1, 2 … within the match
    seats: list[int]  # entrant at each seat (a partnership fills two)
    places: dict[int, int] | None = None  # entrant -> place, once the game is over
    scores: dict[int, Fraction] | None = None


@dataclass
class Result:
    places: dict[int, int]
    scores: dict[int, Fraction]


@dataclass
class BoardGame:
    """A game played with real cards or tiles ("over the board"): the result as entered, who agreed.

    An entry names the entrant who made it; every other entrant of the table confirms it, or
    disputes it (the organiser then decides). ``result`` is set by ``result.recorded``, the event
    the command that completes the confirmations (or the organiser's decision) appends with the
    places and scores ``formats`` worked out from the entry."""

    number: int  # 1, 2 … within the match
    hands: list[dict[str, Any]] | None = None  # the entry waiting for confirmation (None: none yet)
    entered_by: int | None = None  # the entrant who entered it
    entered_seq: int = 0  # the entry's event: a confirmation names the entry its player saw
    confirmed: set[int] = field(default_factory=set)  # entrants who agree with it (the enterer too)
    disputes: list[dict[str, Any]] = field(default_factory=list)  # {entrant, reason} against it
    seats: list[int] = field(default_factory=list)
    places: dict[int, int] | None = None  # once recorded
    scores: dict[int, Fraction] | None = None
    recorded_hands: list[dict[str, Any]] | None = None  # the entry the result was worked out from
    recorded_seq: int = 0  # the first result.recorded of this game: its rating is keyed by it
    resolved_by: int | None = None  # the organiser (user) who decided it, if one did
    reason: str = ""  # the organiser's reason

    @property
    def disputed(self) -> bool:
        return bool(self.disputes) and self.places is None


@dataclass
class Table:
    """One pairing of a round: a two-player match, a multi-player table, or a bracket match."""

    key: str  # "R2-T3", or a bracket match id such as "W1-2"
    round: int
    entrants: list[int]
    games: list[GameRecord] = field(default_factory=list)
    computed: Result | None = None  # from the games, or a forfeit
    override: Result | None = None  # the organiser's correction; ``computed`` stays as it was
    override_reason: str = ""
    forfeit: list[int] = field(default_factory=list)
    board: list[BoardGame] = field(default_factory=list)  # games played over the board
    # Entrants who left a table of three or more after its round started: a computer plays their
    # seat out, they are placed last, the others' places come from the game (seat.stood_in).
    stand_ins: list[int] = field(default_factory=list)

    @property
    def result(self) -> Result | None:
        return self.override or self.computed

    def live_game(self) -> GameRecord | None:
        return next((g for g in self.games if g.places is None), None)

    def board_game(self, number: int) -> BoardGame:
        """Game ``number`` played over the board (made when first named)."""
        while len(self.board) < number:
            self.board.append(BoardGame(len(self.board) + 1))
        return self.board[number - 1]

    def recorded_board(self) -> list[BoardGame]:
        return [g for g in self.board if g.places is not None]

    def started(self) -> bool:
        """Whether anything was played (or entered) at this table."""
        return bool(self.games) or any(g.hands is not None or g.places is not None for g in self.board)


@dataclass
class Round:
    number: int
    tables: list[Table]
    byes: list[int] = field(default_factory=list)  # pairing-allocated: a full point
    started: bool = False
    secret_seed: int | None = None  # duplicate mode: every deal of the round is derived from it
    half_byes: list[int] = field(default_factory=list)  # requested: half a point
    locked: set[str] = field(default_factory=set)  # tables a re-pairing keeps as they are
    edits: list[dict[str, Any]] = field(default_factory=list)  # the organiser's changes, in order
    over_the_board: bool = False  # played with real cards: results are entered, no online game
    # A result of an earlier round changed after this round was paired from the standings (a
    # correction, a forfeit): the organiser is offered to pair it again (round.stale).
    stale: bool = False
    # The organiser ended the round at its time with "scored as it stands" (tournaments/clock.py): a
    # match is decided by the games it has, none more is started.
    time_called: bool = False

    def complete(self) -> bool:
        return self.started and all(t.result is not None for t in self.tables)


@dataclass
class Tournament:
    name: str = ""
    game: str = ""
    format: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    club_id: int | None = None
    created_by: int | None = None
    status: str = REGISTRATION
    entrants: dict[int, Entrant] = field(default_factory=dict)
    seeding: list[int] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    secret_seed: int = 0
    seq: int = 0
    final_places: dict[int, int] = field(default_factory=dict)
    # The number of rounds announced at the start (Swiss); None in logs from before it was fixed.
    planned_rounds: int | None = None
    # Played with real cards ("over the board"): every round not started yet, or these rounds.
    over_the_board: bool = False
    board_rounds: set[int] = field(default_factory=set)
    # The round clocks and the room's choices: the screens' and the console's, not the standings'.
    room_clock: clock.Held = field(default_factory=clock.Held)

    def board_round(self, number: int) -> bool:
        """Whether round ``number`` is (or will be, if it starts now) played over the board."""
        for rnd in self.rounds:
            if rnd.number == number and rnd.started:
                return rnd.over_the_board
        return self.over_the_board or number in self.board_rounds

    def active(self) -> list[int]:
        """Entrants still in: registered, not withdrawn, and — when check-in is asked — checked in
        before the start (a computer player needs no check-in; a late entrant registers in person)."""
        need_check_in = self.options.get("check_in", False) and self.status == REGISTRATION
        return [
            e.id
            for e in self.entrants.values()
            if not e.withdrawn
            and not e.missed_check_in
            and (e.checked_in or not need_check_in or e.late or bool(e.bot_level))
        ]

    def table(self, key: str) -> Table:
        for rnd in self.rounds:
            for table in rnd.tables:
                if table.key == key:
                    return table
        raise LogError(f"no table {key!r}")

    def table_of_game(self, game_id: int) -> Table | None:
        for rnd in self.rounds:
            for table in rnd.tables:
                if any(g.game_id == game_id for g in table.games):
                    return table
        return None

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None


def _fraction(value: Any) -> Fraction:
    return Fraction(value) if not isinstance(value, str) else Fraction(value)


def _result(data: dict[str, Any]) -> Result:
    return Result(
        {int(k): int(v) for k, v in data["places"].items()},
        {int(k): _fraction(v) for k, v in data.get("scores", {}).items()},
    )


def apply(t: Tournament, event: dict[str, Any]) -> Tournament:
    """Fold one event into ``t`` (in place, and returned)."""
    kind = event["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise LogError(f"unknown tournament event {kind!r}")
    if kind != "tournament.created" and not t.game:
        raise LogError("the log does not start with tournament.created")
    handler(t, event)
    t.seq += 1
    return t


def fold(events: list[dict[str, Any]]) -> Tournament:
    """The whole stream folded. An event an undo revoked (``console.undone``, tournaments/undo.py) is
    skipped — it stays in the log and keeps its seq — so the state is the one it would be without it.
    ``apply`` alone cannot take an event back: a caller that appended an undo folds again."""
    gone = undo.revoked(events)
    t = Tournament()
    for position, event in enumerate(events, start=1):
        if position in gone:
            t.seq += 1
            continue
        apply(t, event)
    return t


def _created(t: Tournament, e: dict[str, Any]) -> None:
    if t.game:
        raise LogError("a tournament is created once")
    t.name, t.game, t.format = e["name"], e["game"], e["format"]
    t.options = dict(e["options"])
    t.club_id, t.created_by = e.get("club_id"), e.get("by")
    t.secret_seed = int(e["secret_seed"])


def _registered(t: Tournament, e: dict[str, Any]) -> None:
    entrant = Entrant(
        id=e["entrant"],
        name=e["name"],
        user_id=e.get("user_id"),
        bot_level=e.get("bot_level", ""),
        # Computer entrants registered before ``bot_number`` existed were named after their own
        # number ("Computer 3 (Strong)", "Bot 3 (greedy)").
        bot_number=e.get("bot_number") or (e["entrant"] if e.get("bot_level") else None),
        members=list(e.get("members", [])),
        rating=e.get("rating"),
        late=t.status != REGISTRATION,
    )
    if entrant.late:
        # It misses the rounds already under way; a paired round that has not started can still be
        # paired again with it (service.repair).
        entrant.joined_round = sum(1 for rnd in t.rounds if rnd.started)
        entrant.missed_points = Fraction(1, 2) if e.get("missed") == "half" else Fraction(0)
    if entrant.id in t.entrants:
        raise LogError(f"entrant {entrant.id} registered twice")
    t.entrants[entrant.id] = entrant
    if t.status != REGISTRATION:
        t.seeding.append(entrant.id)


def _checked_in(t: Tournament, e: dict[str, Any]) -> None:
    t.entrants[e["entrant"]].checked_in = True


def _checked_out(t: Tournament, e: dict[str, Any]) -> None:
    t.entrants[e["entrant"]].checked_in = False


def _options_changed(t: Tournament, e: dict[str, Any]) -> None:
    """The organiser's change of settings before the start (the whole options, checked again)."""
    if t.status != REGISTRATION:
        raise LogError("options change only before the start")
    t.options = dict(e["options"])


def _withdrawn(t: Tournament, e: dict[str, Any]) -> None:
    t.entrants[e["entrant"]].withdrawn = True


def _seeded(t: Tournament, e: dict[str, Any]) -> None:
    t.seeding = list(e["order"])


def _started(t: Tournament, e: dict[str, Any]) -> None:
    t.status = RUNNING
    t.seeding = list(e["order"])
    # Who is not in the start's order was not checked in (the start left out no one else).
    for entrant in t.entrants.values():
        if entrant.id not in t.seeding and not entrant.withdrawn:
            entrant.missed_check_in = True
    t.planned_rounds = e.get("rounds")


def _rounds_changed(t: Tournament, e: dict[str, Any]) -> None:
    t.planned_rounds = int(e["rounds"])


def _bye_requested(t: Tournament, e: dict[str, Any]) -> None:
    t.entrants[e["entrant"]].bye_requests.add(int(e["round"]))


def _bye_cancelled(t: Tournament, e: dict[str, Any]) -> None:
    t.entrants[e["entrant"]].bye_requests.discard(int(e["round"]))


def _paired(t: Tournament, e: dict[str, Any]) -> None:
    rnd = Round(
        number=e["round"],
        tables=[Table(key=x["key"], round=e["round"], entrants=list(x["entrants"])) for x in e["tables"]],
        byes=list(e.get("byes", [])),
        half_byes=list(e.get("half_byes", [])),
        locked=set(e.get("locked", [])),
    )
    if t.rounds and t.rounds[-1].number == rnd.number:
        if t.rounds[-1].started:
            raise LogError(f"round {rnd.number} was paired again after it started")
        t.rounds[-1] = rnd  # a re-pairing before the round starts replaces the first one
    else:
        t.rounds.append(rnd)


def _round_started(t: Tournament, e: dict[str, Any]) -> None:
    rnd = t.rounds[-1]
    if rnd.number != e["round"]:
        raise LogError(f"round {e['round']} is not the current round")
    rnd.started = True
    rnd.secret_seed = e.get("secret_seed")
    rnd.over_the_board = bool(e.get("over_the_board"))


def _edited(t: Tournament, e: dict[str, Any]) -> None:
    """The organiser's change to a paired round before it starts (service.edit_pairing checked it)."""
    rnd = t.rounds[-1]
    if rnd.number != e["round"] or rnd.started:
        raise LogError(f"round {e['round']} cannot be edited now")
    edit = e["edit"]
    if edit == "swap":
        a, b = int(e["a"]), int(e["b"])
        for table in rnd.tables:
            table.entrants = [b if x == a else a if x == b else x for x in table.entrants]
        rnd.byes = [b if x == a else a if x == b else x for x in rnd.byes]
    elif edit == "move":
        who, to = int(e["entrant"]), e["table"]
        for table in rnd.tables:
            if who in table.entrants:
                table.entrants.remove(who)
        if who in rnd.byes:
            rnd.byes.remove(who)
        if to == BYE:
            rnd.byes.append(who)
        else:
            t.table(to).entrants.append(who)
    elif edit == "drop":
        # An entrant withdrawn before the round starts, the organiser preferring a bye to a
        # re-pairing: out of the round; a table left too small sits out (byes) (#30).
        who, smallest = int(e["entrant"]), int(e.get("smallest", 2))
        rnd.byes = [x for x in rnd.byes if x != who]
        for table in list(rnd.tables):
            if who in table.entrants:
                table.entrants.remove(who)
                if len(table.entrants) < smallest:
                    rnd.tables.remove(table)
                    rnd.byes.extend(table.entrants)
    elif edit == "lock":
        rnd.locked.add(e["table"])
    elif edit == "unlock":
        rnd.locked.discard(e["table"])
    else:
        raise LogError(f"unknown pairing edit {edit!r}")
    rnd.edits.append(dict(e))


def _game_started(t: Tournament, e: dict[str, Any]) -> None:
    table = t.table(e["table"])
    table.games.append(GameRecord(e["game_id"], len(table.games) + 1, list(e["seats"])))


def _game_finished(t: Tournament, e: dict[str, Any]) -> None:
    table = t.table(e["table"])
    record = next(g for g in table.games if g.game_id == e["game_id"])
    result = _result(e)
    record.places, record.scores = result.places, result.scores


def _match_decided(t: Tournament, e: dict[str, Any]) -> None:
    t.table(e["table"]).computed = _result(e)


def _forfeited(t: Tournament, e: dict[str, Any]) -> None:
    table = t.table(e["table"])
    table.forfeit = list(e["absent"])
    table.computed = _result(e)


def _overridden(t: Tournament, e: dict[str, Any]) -> None:
    table = t.table(e["table"])
    table.override = _result(e)
    table.override_reason = e["reason"]


def _stood_in(t: Tournament, e: dict[str, Any]) -> None:
    table = t.table(e["table"])
    if int(e["entrant"]) not in table.stand_ins:
        table.stand_ins.append(int(e["entrant"]))


def _stale(t: Tournament, e: dict[str, Any]) -> None:
    rnd = t.current
    if rnd is None or rnd.number != e["round"] or rnd.started:
        raise LogError(f"round {e['round']} cannot be marked stale now")
    rnd.stale = True


def _over_the_board(t: Tournament, e: dict[str, Any]) -> None:
    t.over_the_board = bool(e["on"])


def _round_over_the_board(t: Tournament, e: dict[str, Any]) -> None:
    if e["on"]:
        t.board_rounds.add(int(e["round"]))
    else:
        t.board_rounds.discard(int(e["round"]))


def _entered(t: Tournament, e: dict[str, Any]) -> None:
    """An entrant's (or code holder's) entry of a game: it replaces one still waiting, and the
    confirmations start again, the enterer's own included."""
    game = t.table(e["table"]).board_game(int(e["game"]))
    if game.places is not None:
        raise LogError(f"game {e['game']} of {e['table']} is recorded already")
    game.hands = list(e["hands"])
    game.entered_seq = t.seq + 1
    game.entered_by = int(e["entrant"])
    game.confirmed = {int(e["entrant"])}
    game.disputes = []


def _confirmed(t: Tournament, e: dict[str, Any]) -> None:
    t.table(e["table"]).board_game(int(e["game"])).confirmed.add(int(e["entrant"]))


def _disputed(t: Tournament, e: dict[str, Any]) -> None:
    game = t.table(e["table"]).board_game(int(e["game"]))
    game.confirmed.discard(int(e["entrant"]))
    game.disputes.append({"entrant": int(e["entrant"]), "reason": e.get("reason", "")})


def _resolved(t: Tournament, e: dict[str, Any]) -> None:
    """The organiser's decision: the hands that count (entered or corrected), with a reason."""
    game = t.table(e["table"]).board_game(int(e["game"]))
    game.hands = list(e["hands"])
    game.resolved_by = e.get("by")
    game.reason = e.get("reason", "")


def _recorded(t: Tournament, e: dict[str, Any]) -> None:
    """The game's result, worked out from the hands that were agreed (or decided). A correction of a
    recorded game of a decided match comes with the match's new result (``match.decided``)."""
    game = t.table(e["table"]).board_game(int(e["game"]))
    result = _result(e)
    if game.places is None:
        game.recorded_seq = t.seq + 1  # this event's seq in the stream
    game.places, game.scores = result.places, result.scores
    game.seats = list(e.get("seats", []))
    game.recorded_hands = game.hands
    game.hands = None


def _undone(t: Tournament, e: dict[str, Any]) -> None:
    """An undo: nothing to apply, ``fold`` skips the events it revokes (it reads every undo first)."""


def _paused(t: Tournament, e: dict[str, Any]) -> None:
    t.status = PAUSED


def _resumed(t: Tournament, e: dict[str, Any]) -> None:
    t.status = RUNNING


def _clock(t: Tournament, e: dict[str, Any]) -> None:
    """A round clock's action or a room setting (tournaments/clock.py)."""
    t.room_clock.apply(e)


def _time_called(t: Tournament, e: dict[str, Any]) -> None:
    rnd = t.current
    if rnd is None or rnd.number != e["round"] or not rnd.started:
        raise LogError(f"round {e['round']} cannot end at time now")
    rnd.time_called = True
    t.room_clock.apply(e)


def _finished(t: Tournament, e: dict[str, Any]) -> None:
    t.status = FINISHED
    t.final_places = {int(k): v for k, v in e["places"].items()}


_HANDLERS = {
    "tournament.created": _created,
    "entrant.registered": _registered,
    "entrant.checked_in": _checked_in,
    "entrant.checked_out": _checked_out,
    "tournament.options_changed": _options_changed,
    "entrant.withdrawn": _withdrawn,
    "tournament.seeded": _seeded,
    "tournament.started": _started,
    "round.paired": _paired,
    "round.edited": _edited,
    "tournament.rounds_changed": _rounds_changed,
    "entrant.bye_requested": _bye_requested,
    "entrant.bye_cancelled": _bye_cancelled,
    "round.started": _round_started,
    "game.started": _game_started,
    "game.finished": _game_finished,
    "match.decided": _match_decided,
    "result.forfeited": _forfeited,
    "result.overridden": _overridden,
    "seat.stood_in": _stood_in,
    "round.stale": _stale,
    "tournament.over_the_board": _over_the_board,
    "round.over_the_board": _round_over_the_board,
    "result.entered": _entered,
    "result.confirmed": _confirmed,
    "result.disputed": _disputed,
    "result.resolved": _resolved,
    "result.recorded": _recorded,
    undo.UNDONE: _undone,
    "tournament.paused": _paused,
    "tournament.resumed": _resumed,
    "tournament.finished": _finished,
    # The round clock's events (tournaments/clock.py): only ``room_clock`` takes them.
    **dict.fromkeys(clock.EVENTS + clock.SETTINGS, _clock),
    clock.TIME_CALLED: _time_called,
}
