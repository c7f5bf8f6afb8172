"""Moving on: every step a tournament's state calls for, and the watch for players who never came.

``advance`` takes the steps one command each — pair the next round, start a round, start a game,
decide a match, finish — each appended with the command id ``auto-SEQ``, so two processes advancing
at once append each step once. Games are created through ``games.commands.create``.

A game with people at it is watched (``no_show_after``): ``check_no_show`` runs that long after it
started — the job ``tournaments.tasks.check_no_show`` (games/background/jobs.py), named, never imported: the
task module calls in.
"""

from __future__ import annotations

import contextlib
import copy
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.background import jobs
from games.commands import controls
from games.commands.create import SeatSpec, create_game
from games.computers import standin
from games.errors import ServiceError
from games.eventlog import queries
from games.eventlog.tables import load_table
from tournaments import deals, formats, log, projection, signals
from tournaments.commands.runner import run
from tournaments.log import PAUSED, RUNNING
from tournaments.options import game_config

NO_SHOW_TASK = "tournaments.tasks.check_no_show"
ELIMINATION = ("single_elimination", "double_elimination", "table_elimination")


def paired_event(p: formats.Pairing) -> dict[str, Any]:
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


def round_started_event(t: log.Tournament) -> dict[str, Any]:
    assert t.current is not None
    event: dict[str, Any] = {"type": "round.started", "round": t.current.number}
    if t.board_round(t.current.number):
        # Played with real cards: results are entered, no online game is made (and no deal derived).
        event["over_the_board"] = True
    elif t.options.get("duplicate"):
        event["secret_seed"] = deals.derive(t.secret_seed, f"round:{t.current.number}")
    return event


def forfeit_event(table: log.Table, absent: list[int], reason: str) -> dict[str, Any]:
    result = formats.forfeit_result(table, absent)
    return {
        "type": "result.forfeited",
        "table": table.key,
        "absent": sorted(absent),
        "reason": reason,
        **(projection.result_json(result) or {}),
    }


# --- The rules of absence (#30, docs/tournaments.md) -----------------------------------------------

#: The computer that plays out an absent entrant's seat at a table of three or more.
STAND_IN_LEVEL = "greedy"


def stands_in(t: log.Tournament, table: log.Table, absent: list[int]) -> bool:
    """Whether absentees at this table are played out by a computer (a table of three or more seats
    with someone left to play, online) rather than lose by forfeit (a two-player match: FIDE practice;
    a round played with real cards, where no computer can take a seat)."""
    return (
        len(table.entrants) > 2
        and not t.options.get("partnerships")
        and len(absent) < len(table.entrants)
        and not t.board_round(table.round)
    )


def stand_in_events(
    t: log.Tournament, table: log.Table, absent: list[int], reason: str
) -> list[dict[str, Any]]:
    """A computer takes the absent entrants' seats of the table's game under way (now, inside the
    command's transaction) and of any game it still starts: they are placed last, the others' places
    come from the game (Board Game Arena's "zombie" practice)."""
    live = table.live_game()
    events: list[dict[str, Any]] = []
    for entrant in absent:
        if entrant in table.stand_ins:
            continue
        if live is not None:
            for seat, who in enumerate(live.seats):
                if who == entrant:
                    standin.hand_to_computer(live.game_id, seat, STAND_IN_LEVEL)
        events.append({"type": "seat.stood_in", "table": table.key, "entrant": entrant, "reason": reason})
    return events


def repair_event(t: log.Tournament) -> dict[str, Any] | None:
    """The current round (paired, not started) paired again for the entrants now active; tables the
    organiser locked are kept while all their entrants are. ``t`` is not changed."""
    rnd = t.current
    if rnd is None or rnd.started:
        return None
    active = set(t.active())
    keep = [tb for tb in rnd.tables if tb.key in rnd.locked and set(tb.entrants) <= active]
    work = copy.deepcopy(t)
    work.rounds.pop()
    pairing = formats.next_round(work, keep=keep if t.format == "swiss" else None)
    return None if pairing is None else paired_event(pairing)


def withdrawal_events(t: log.Tournament, entrant: int) -> list[dict[str, Any]]:
    """What a withdrawal does to the round under way or paired (``t``: the withdrawal applied).

    Before the round starts (a Swiss): the round is paired again (``absence_before_round`` "repair",
    the default) or the entrant is taken out of its table and a table left too small sits out
    ("bye"). After it starts: a two-player match is lost by forfeit (at once, its game stopped by the
    caller), at a table of three or more a computer plays the seat out."""
    rnd = t.current
    if rnd is None:
        return []
    table = next((tb for tb in rnd.tables if entrant in tb.entrants), None)
    if not rnd.started:
        if t.format != "swiss" or (table is None and entrant not in rnd.byes):
            return []  # other formats: the match is lost by forfeit when the round starts
        if t.options.get("absence_before_round", "repair") == "bye":
            smallest = 2 if formats.table_size(t) == 2 else 3
            return [
                {"type": "round.edited", "round": rnd.number, "edit": "drop", "entrant": entrant,
                 "smallest": smallest, "reason": "withdrawn"}
            ]  # fmt: skip
        event = repair_event(t)
        return [] if event is None else [event]
    if table is None or table.result is not None:
        return []
    if stands_in(t, table, [entrant]):
        return stand_in_events(t, table, [entrant], "withdrawn")
    return [forfeit_event(table, [entrant], "withdrawn")]


#: Formats whose next round is paired from the standings (a changed result can make it stale).
PAIRED_FROM_STANDINGS = ("swiss", "table_elimination")


def stale_events(t: log.Tournament, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``round.stale`` when ``events`` (a correction, a forfeit, a result recorded late) change the
    standings that the paired round, not started yet, was paired from: the organiser is offered to
    pair it again (``running.repair``); nothing changes by itself (#30)."""
    rnd = t.current
    if rnd is None or rnd.started or rnd.stale or t.format not in PAIRED_FROM_STANDINGS:
        return []
    touched = {e["table"] for e in events if "table" in e}
    if not any(tb.round < rnd.number for r in t.rounds for tb in r.tables if tb.key in touched):
        return []
    after = copy.deepcopy(t)
    for event in events:
        log.apply(after, event)

    def ranking(state: log.Tournament) -> list[tuple[int, Any, dict[str, Any]]]:
        return [(r.rank, r.entrant, r.values) for r in formats.standings(state)]

    if ranking(t) == ranking(after):
        return []
    return [{"type": "round.stale", "round": rnd.number}]


def _start_game(t: log.Tournament, table: log.Table) -> dict[str, Any]:
    """Create the table's next game (inside the caller's transaction) and the event that records it."""
    users = get_user_model().objects.in_bulk(
        [e for e in (t.entrants[x].user_id for x in table.entrants) if e]
    )
    seats: list[int] = []
    specs: list[SeatSpec] = []
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
            specs.append(SeatSpec.computer(entrant.bot_number or entrant_id, entrant.bot_level, team))
        elif entrant_id in table.stand_ins:
            # An absentee's seat in a later game of the match: played by a computer, still theirs.
            user = users.get(entrant.user_id) if entrant.user_id else None
            specs.append(SeatSpec(display_name=name, user=user, bot_level=STAND_IN_LEVEL, team=team))
        else:
            specs.append(
                SeatSpec(
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
    game = create_game(
        t.game,
        game_config(t.game, t.options, len(specs)),
        specs,
        seed=seed,
        kind="tournament",
        spectator_delay=int(t.options.get("spectator_delay", 0)),
        deal=deal,
        absent_after=t.options.get(
            "absent_after"
        ),  # None: the table's default (games/commands/resignation.py)
    )
    return {"type": "game.started", "table": table.key, "game_id": game.pk, "seats": seats}


def next_steps(t: log.Tournament) -> list[dict[str, Any]]:
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
        return [paired_event(pairing)]
    if not rnd.started:
        return [round_started_event(t)] if t.options.get("auto_start", True) and not paused else []
    events: list[dict[str, Any]] = []
    elimination = t.format in ELIMINATION
    for table in rnd.tables:
        if table.result is not None or table.live_game() is not None:
            continue
        gone = [e for e in table.entrants if t.entrants[e].withdrawn and e not in table.stand_ins]
        if gone and len(gone) < len(table.entrants) and not table.started():
            if stands_in(t, table, gone):
                events.extend(stand_in_events(t, table, gone, "withdrawn"))
            else:
                events.append(forfeit_event(table, gone, "withdrawn"))
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
        t = run(stream_id, f"auto-{before}", "system", next_steps, after=_after_steps)
        if t.seq == before:
            return t


def _after_steps(stream_id: int, tournament_id: int, t: log.Tournament, events: list[dict[str, Any]]) -> None:
    """What the steps start once they are durable: the no-show watch, the end's signal."""
    wait = float(t.options.get("no_show_after") or 0)
    for event in events:
        if wait and event["type"] == "game.started" and _has_humans(t, event["seats"]):
            transaction.on_commit(partial(_watch_for_no_show, stream_id, event["game_id"], wait))
        if event["type"] == "tournament.finished":
            transaction.on_commit(
                partial(signals.tournament_finished.send, None, tournament_id=tournament_id)
            )


# --- No-shows ------------------------------------------------------------------------------------


def _has_humans(t: log.Tournament, seats: list[int]) -> bool:
    return any(t.entrants[e].user_id is not None for e in seats)


def _watch_for_no_show(stream_id: int, game_id: int, delay: float) -> None:
    jobs.enqueue(NO_SHOW_TASK, stream_id, game_id, delay=delay)


def check_no_show(stream_id: int, game_id: int) -> str:
    """``no_show_after`` seconds after a game started: a player asked to move who never has forfeits.

    The match is recorded as a forfeit (``result.forfeited``, reason ``no-show``) and the game is
    abandoned through the games service, so nobody waits at that table any more.
    """
    t = projection.load(stream_id)
    table = t.table_of_game(game_id)
    if table is None or table.result is not None or queries.result(game_id) is not None:
        return "decided"
    record = next(g for g in table.games if g.game_id == game_id)
    moved = queries.seats_that_moved(game_id)
    waiting = set(load_table(game_id).to_act())
    absent = sorted(
        {
            entrant
            for seat, entrant in enumerate(record.seats)
            if seat in waiting and seat not in moved and t.entrants[entrant].user_id is not None
        }
    )
    if not absent:
        return "present"

    if stands_in(t, table, absent):
        # One absentee does not end the game for the whole table (#30): a computer plays on for them.
        def stand_in(state: log.Tournament) -> list[dict[str, Any]]:
            current = state.table(table.key)
            return [] if current.result is not None else stand_in_events(state, current, absent, "no-show")

        run(stream_id, f"no-show-{game_id}", "system", stand_in)
        advance(stream_id)
        return "stood in"

    def build(state: log.Tournament) -> list[dict[str, Any]]:
        current = state.table(table.key)
        return [] if current.result is not None else [forfeit_event(current, absent, "no-show")]

    run(stream_id, f"no-show-{game_id}", "system", build)
    with contextlib.suppress(ServiceError):
        controls.abandon(game_id, f"no-show-{game_id}", reason="no-show", by="tournament")
    advance(stream_id)
    return "forfeited"
