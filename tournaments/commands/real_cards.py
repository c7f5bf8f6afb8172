"""Rounds played with real cards and tiles at physical tables ("over the board").

Paired and seated as usual, but no online game is made. The players enter each game's result on
their phones (signed in as the entrant, or holding the table's code from its table card), the
other players of the table confirm it or dispute it, the organiser decides a dispute and can enter
or correct any result. Every step is an event; the result is worked out by ``formats.board_result``
(``board.score``'s checks), so matches, standings, tie-breaks and ratings come out as for online
games (docs/tournaments.md).
"""

from __future__ import annotations

import copy
import secrets
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_noop as _

from games.engines.base import IllegalAction
from games.errors import ServiceError
from tournaments import board, formats, log, projection
from tournaments.commands.progress import ELIMINATION, advance, stale_events
from tournaments.commands.runner import Build, actor, by_id, check_organiser, run
from tournaments.log import FINISHED
from tournaments.models import Tournament
from tournaments.options import game_config

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _check_board_possible(t: log.Tournament) -> None:
    if t.status == FINISHED:
        raise ServiceError("finished", _("This tournament is over."))
    if not board.playable(t.game):
        raise ServiceError("no_board_game", _("This game cannot be entered by hand."))
    if any(e.bot_level and not e.withdrawn for e in t.entrants.values()):
        raise ServiceError("board_no_bots", _("Computer players cannot sit at tables with real cards."))


def set_over_the_board(row: Tournament, on: bool, *, by: User | None = None) -> None:
    """Every round that has not started is played with real cards (``on``), or online again."""
    check_organiser(row, by)

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        if on:
            _check_board_possible(t)
        if t.over_the_board == bool(on):
            return []
        return [{"type": "tournament.over_the_board", "on": bool(on), "by": by_id(by)}]

    run(row.stream_id, f"board-{secrets.token_hex(8)}", actor(by), build)
    advance(row.stream_id)


def set_round_over_the_board(row: Tournament, round_: Any, on: bool, *, by: User | None = None) -> None:
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
        return [{"type": "round.over_the_board", "round": round_, "on": bool(on), "by": by_id(by)}]

    run(row.stream_id, f"board-round-{secrets.token_hex(8)}", actor(by), build)
    advance(row.stream_id)


def _board_table(t: log.Tournament, key: str) -> log.Table:
    try:
        table = t.table(key)
    except log.LogError:
        raise ServiceError("unknown_match", _("There is no such match.")) from None
    rnd = next(r for r in t.rounds if r.number == table.round)
    if not rnd.over_the_board:
        raise ServiceError("not_board", _("This table plays online: its results come from its games."))
    return table


def _player_at(
    t: log.Tournament,
    table: log.Table,
    entrant: Any,
    user: User | None,
    code: str | None,
    *,
    seat_only: bool = False,
) -> str:
    """How ``entrant`` acts at this table: ``account`` (signed in as that entrant), ``seat`` (holding
    that entrant's seat code) or ``code`` (holding the table's code: it proves a seat at the table,
    and the phone says which entrant it is). ``seat_only``: a confirmation or a dispute, which the
    table's code cannot give — the phone that entered a result could claim any seat with it (#37)."""
    if isinstance(entrant, bool) or entrant not in table.entrants:
        raise ServiceError("not_at_table", _("Only the players of this table can do this."))
    if code is not None:
        if board.is_seat_code_of(t, table.key, entrant, code):
            return "seat"
        if seat_only:
            raise ServiceError(
                "seat_code", _("To confirm or dispute, type the code of your own seat from the table card.")
            )
        if not board.is_code_of(t, table.key, code):
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


def _board_command(row: Tournament, name: str, by: User | None, build: Build) -> None:
    run(row.stream_id, f"{name}-{secrets.token_hex(8)}", actor(by) if by else "table-code", build)
    advance(row.stream_id)


def enter_result(
    row: Tournament,
    key: str,
    game: Any,
    hands: Any,
    *,
    entrant: Any,
    user: User | None = None,
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
            "by": by_id(user) if via == "account" else None,
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
    user: User | None,
    code: str | None,
    reason: str = "",
) -> None:
    def build(t: log.Tournament) -> list[dict[str, Any]]:
        table = _board_table(t, key)
        via = _player_at(t, table, entrant, user, code, seat_only=True)
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
            "by": by_id(user) if via == "account" else None,
            "via": via,
        }
        if kind == "result.disputed":
            if not (reason or "").strip():
                raise ServiceError("no_reason", _("Say what is wrong: the organiser reads it."))
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
    user: User | None = None,
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
    user: User | None = None,
    code: str | None = None,
) -> None:
    """A player of the table disagrees with the entry: the organiser decides (``resolve_result``),
    or the players enter it again and all confirm."""
    _answer(row, "result.disputed", key, game, seen, entrant, user, code, reason)


def resolve_result(
    row: Tournament, key: str, game: Any, hands: Any = None, reason: str = "", *, by: User | None = None
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
            if t.format in ELIMINATION and (t.current is None or table.round != t.current.number):
                raise ServiceError(
                    "too_late", _("In a knockout, only a result of the current round can be corrected.")
                )
            number = int(game)
        else:
            number = _open_game(t, table, game).number
        given = hands if hands is not None else table.board_game(number).hands
        if table.board_game(number).disputed and not reason:
            raise ServiceError("no_reason", _("A decision on a disputed result needs a reason."))
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
                "by": by_id(by),
            }
        ]
        after = copy.deepcopy(t)
        log.apply(after, events[0])
        events.append(_recorded_event(after, key, number, correction=correcting))
        if correcting and table.computed is not None and not table.forfeit:
            log.apply(after, events[-1])
            decided = formats.decide_match(after, after.table(key), t.format in ELIMINATION)
            if decided is None:
                raise ServiceError(
                    "undecided",
                    _(
                        "After this correction the match would need another game: correct the match's result instead."
                    ),
                )
            events.append({"type": "match.decided", "table": key, **(projection.result_json(decided) or {})})
        return [*events, *stale_events(t, events)] if correcting else events

    _board_command(row, "resolve", by, build)


def resolve_round(row: Tournament, entries: dict[str, tuple[int, Any]], *, by: User | None = None) -> int:
    """The organiser's whole-round grid (#30): the open game of each named table (``{key: (game,
    hands)}``) entered and recorded in **one command** — every table checked by the rules first, and
    nothing stored if any is refused. A disputed game is decided at its own table, with a reason.
    Returns the tables recorded."""
    check_organiser(row, by)
    if not entries:
        raise ServiceError("nothing_entered", _("Enter at least one table's result."))

    def build(t: log.Tournament) -> list[dict[str, Any]]:
        after = copy.deepcopy(t)
        events: list[dict[str, Any]] = []
        for key, (game, hands) in entries.items():
            table = _board_table(after, key)
            number = _open_game(after, table, game).number
            if table.board_game(number).disputed:
                raise ServiceError("no_reason", _("A decision on a disputed result needs a reason."))
            _checked(after, table, hands)
            resolved = {
                "type": "result.resolved",
                "table": key,
                "game": number,
                "hands": hands,
                "reason": "",
                "by": by_id(by),
            }
            log.apply(after, resolved)
            recorded = _recorded_event(after, key, number)
            log.apply(after, recorded)
            events += [resolved, recorded]
        return events

    _board_command(row, "grid", by, build)
    return len(entries)
