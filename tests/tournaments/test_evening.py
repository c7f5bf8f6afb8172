"""A director's whole evening through the service (#30, no browser): a Swiss at tables of four with
check-in and a no-show, a withdrawal after pairing, a late entry, a forfeit at a table of four in the
middle of its game, a correction after the next round was paired (stale, paired again), a round with
real cards and a dispute settled — and the final standings and tie-breaks checked against a computation
of this test's own from the tournament's ``log.json`` (not the project's standings code)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.commands import moves
from games.eventlog.tables import load_table
from tournaments import projection, service
from tournaments.models import Entry, Tournament

from .log_standings import independent_standings

pytestmark = pytest.mark.django_db(transaction=True)

SIZE = 4
OPTIONS = {
    "game_config": {"target": 10},
    "table_size": SIZE,
    "rounds": 3,
    "check_in": True,
    "late_entry": True,
    "auto_start": False,
    "bye_value": "half",
    "tiebreaks": ["match_points", "buchholz", "wins", "game_points"],
}


def state(row: Tournament):  # type: ignore[no-untyped-def]
    return projection.load(row.stream_id)


def move(game_id: int) -> bool:
    """One move at the game (a person's: a legal move at random); False once it is over."""
    table = load_table(game_id)
    if table.outcome() is not None or table.timeline.abandoned:
        return False
    seat = table.to_act()[0]
    if seat in table.computer_seats():
        from games.computers import autoplay

        autoplay.play_bot_turn(game_id, table.seq, seat)
        return True
    legal = table.engine.legal_actions(table.state, seat)
    action = random.Random(f"{game_id}:{table.seq}").choice(legal)
    moves.submit(game_id, seat, action, f"m-{game_id}-{table.seq}", table.seq)
    return True


def finish_round(row: Tournament) -> None:
    for _ in range(50):
        t = state(row)
        live = [
            g.game_id for tb in t.rounds[-1].tables if tb.result is None for g in tb.games if g.places is None
        ]
        if not live:
            return
        for game_id in live:
            for _m in range(20000):
                if not move(game_id):
                    break
    raise AssertionError("the round did not end")


def skyjo_hand(entrants: list[int], totals: list[int]) -> list[dict]:
    return [{"totals": {str(e): v for e, v in zip(entrants, totals, strict=False)}, "closer": entrants[0]}]


def test_a_whole_evening_ends_with_standings_that_the_log_alone_gives() -> None:
    User = get_user_model()
    td = User.objects.create_user("td")
    users = {n: User.objects.create_user(f"p{n}") for n in range(1, 12)}
    row = service.create("Friday Skyjo", "skyjo", "swiss", OPTIONS, by=td)
    number = {n: service.register(row, f"p{n}", user=users[n]) for n in range(1, 11)}
    user_of = {number[n]: users[n] for n in number}
    for n in range(1, 10):  # p10 never comes: a no-show at check-in
        service.check_in(row, number[n], by=users[n] if n % 2 else td)
    service.start(row, by=td)
    assert state(row).entrants[number[10]].missed_check_in

    # A withdrawal after round 1 is paired: the round is paired again, nobody wins by forfeit.
    service.withdraw(row, number[9], by=td)
    t = state(row)
    assert sorted(len(tb.entrants) for tb in t.rounds[0].tables) == [4, 4]
    service.start_round(row, by=td)

    # A late entry during round 1 joins round 2.
    late = service.register(row, "p11", user=users[11])
    user_of[late] = users[11]

    # A forfeit at a table of four in the middle of its game: a computer plays the seat out.
    t = state(row)
    first, second = t.rounds[0].tables
    game_id = first.games[0].game_id
    for _ in range(6):
        move(game_id)
    absent = first.entrants[2]
    service.forfeit(row, first.key, [absent], "left for the night bus", by=td)
    assert state(row).table(first.key).stand_ins == [absent]
    finish_round(row)
    t = state(row)
    assert t.table(first.key).result.places[absent] == SIZE  # type: ignore[union-attr]

    # Round 2 is paired (manual starts); a correction of round 1 then changes the standings.
    assert (
        len(t.rounds) == 2
        and not t.rounds[1].started
        and late in {e for tb in t.rounds[1].tables for e in tb.entrants}
    )
    done = t.table(second.key).result
    assert done is not None
    top = min(second.entrants, key=lambda e: (done.places[e], e))
    bottom = max(second.entrants, key=lambda e: (done.places[e], -e))
    places = {str(e): done.places[e] for e in second.entrants}
    places[str(top)], places[str(bottom)] = done.places[bottom], done.places[top]
    service.override(row, second.key, places, None, "scores read against the wrong names", by=td)
    assert state(row).rounds[1].stale
    service.repair(row, by=td)
    assert not state(row).rounds[1].stale
    service.start_round(row, by=td)
    finish_round(row)

    # Round 3 with real cards: results entered on phones, one disputed and settled by the organiser.
    service.set_round_over_the_board(row, 3, True, by=td)
    service.start_round(row, by=td)
    t = state(row)
    disputed = t.rounds[2].tables[0]
    for table in t.rounds[2].tables:
        who = table.entrants
        totals = [2, 5, 11, 14][: len(who)]
        service.enter_result(row, table.key, 1, skyjo_hand(who, totals), entrant=who[0], user=user_of[who[0]])
        seen = state(row).table(table.key).board_game(1).entered_seq
        if table.key == disputed.key:
            service.dispute_result(
                row, table.key, 1, seen, "I had 4, not 5", entrant=who[1], user=user_of[who[1]]
            )
            fixed = [2, 4, 11, 14][: len(who)]
            service.resolve_result(row, table.key, 1, skyjo_hand(who, fixed), "counted again together", by=td)
            continue
        for other in who[1:]:
            service.confirm_result(row, table.key, 1, seen, entrant=other, user=user_of[other])
    row.refresh_from_db()
    assert row.status == "finished"

    client = Client()
    exported = json.loads(client.get(f"/tournaments/{row.pk}/log.json").content)
    kinds = [e["type"] for e in exported["events"]]
    for kind in ("seat.stood_in", "result.overridden", "round.stale", "result.disputed", "result.resolved"):
        assert kind in kinds, kind
    expected = independent_standings(exported["events"])
    assert set(expected) == set(rows_of(row)) and len({v["buchholz"] for _r, v in expected.values()}) > 1
    assert expected[number[10]][1]["match_points"] == 0  # never paired
    rows = {e.number: e for e in Entry.objects.filter(tournament=row)}
    for entrant, (rank, values) in expected.items():
        assert rows[entrant].rank == rank, (entrant, rank, rows[entrant].rank)
        got = {k: Fraction(v) for k, v in rows[entrant].values.items()}
        assert got == values, (entrant, got, values)
    finished = next(e for e in exported["events"] if e["type"] == "tournament.finished")
    assert {int(k): v for k, v in finished["data"]["places"].items()} == {
        e: r for e, (r, _v) in expected.items()
    }


def rows_of(row: Tournament) -> list[int]:
    return list(Entry.objects.filter(tournament=row).values_list("number", flat=True))
