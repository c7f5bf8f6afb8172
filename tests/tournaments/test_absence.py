"""The rules of absence (#30): check-in closes at the start, withdrawals and no-shows before and after
a round starts, sit-out values, corrections that re-derive everything and mark a paired round stale."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from games.commands import moves
from games.computers import autoplay
from games.errors import ServiceError
from games.eventlog import queries
from games.eventlog.tables import load_table
from tournaments import absence, formats, log, projection, service
from tournaments.models import Entry, RatingHistory, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SKYJO = {"game_config": {"target": 10}}
KAZINO = {"game_config": {"match": "single"}}


def state(row: Tournament):  # type: ignore[no-untyped-def]
    return projection.load(row.stream_id)


def people(*names: str) -> list:  # type: ignore[type-arg]
    return [get_user_model().objects.create_user(n) for n in names]


def play_out(game_id: int) -> None:
    for _ in range(20000):
        table = load_table(game_id)
        if table.outcome() is not None or table.timeline.abandoned:
            return
        seat = table.to_act()[0]
        if autoplay.play_bot_turn(game_id, table.seq, seat) != "played":
            # A person's seat: the first legal move, as a player in a hurry would.
            moves.submit(
                game_id, seat, table.engine.legal_actions(table.state, seat)[0], f"p-{table.seq}", table.seq
            )
    raise AssertionError(f"game {game_id} did not end")


def finish_round(row: Tournament) -> None:
    for _ in range(20):
        t = state(row)
        live = [g.game_id for tb in t.rounds[-1].tables for g in tb.games if g.places is None]
        if not live:
            return
        for game_id in live:
            play_out(game_id)
    raise AssertionError("the round did not end")


# --- Check-in (defect 1) ----------------------------------------------------------------------------


def test_computers_need_no_check_in_and_who_did_not_check_in_is_not_paired() -> None:
    td, ana, ben, cy = people("td", "ana", "ben", "cy")
    row = service.create("Night", "skyjo", "swiss", {**SKYJO, "table_size": 4, "check_in": True}, by=td)
    for _ in range(8):
        service.register(row, "", bot_level="random", by=td)
    humans = [service.register(row, u.username, user=u) for u in (ana, ben, cy)]
    service.check_in(row, humans[0], by=ana)  # herself
    service.check_in(row, humans[1], by=td)  # the organiser checks anyone in
    service.check_in(row, humans[2], by=td)
    service.check_out(row, humans[2], by=td)  # … and out
    with pytest.raises(ServiceError) as exc:
        service.check_in(row, humans[2], by=ana)  # another entrant may not
    assert exc.value.code == "not_organiser"
    service.start(row, by=td)  # 8 computers + 2 people: enough for tables of 4
    t = state(row)
    paired = {e for tb in t.rounds[0].tables for e in tb.entrants} | set(t.rounds[0].byes)
    assert humans[2] not in paired and set(humans[:2]) <= paired
    assert t.entrants[humans[2]].missed_check_in and humans[2] not in t.active()
    assert Entry.objects.get(tournament=row, number=humans[2]).seed is None  # shown: not checked in
    with pytest.raises(ServiceError):
        service.check_in(row, humans[2], by=td)  # check-in closed at the start


def test_the_check_in_setting_can_be_changed_before_the_start_only() -> None:
    (td,) = people("td")
    row = service.create("Night", "kazino", "swiss", {**KAZINO, "check_in": True}, by=td)
    service.change_options(row, {"check_in": False}, by=td)
    assert state(row).options["check_in"] is False
    with pytest.raises(ServiceError) as exc:
        service.change_options(row, {"table_size": 99}, by=td)
    assert exc.value.code == "bad_options" and state(row).options["table_size"] == 2
    for _ in range(2):
        service.register(row, "", bot_level="random", by=td)
    service.start(row, by=td)
    with pytest.raises(ServiceError) as exc:
        service.change_options(row, {"check_in": True}, by=td)
    assert exc.value.code == "wrong_time"


def test_the_organiser_checks_players_in_and_out_from_the_page() -> None:
    from django.test import Client
    from django.urls import reverse

    td, ana = people("td", "ana")
    row = service.create("Night", "kazino", "swiss", {**KAZINO, "check_in": True}, by=td)
    entrant = service.register(row, "ana", user=ana)
    client = Client()
    client.force_login(td)
    page = client.get(reverse("frontend:tournament", args=[row.pk])).content.decode()
    assert 'value="check_in"' in page and 'value="set_check_in"' in page
    act = reverse("frontend:tournament_act", args=[row.pk])
    client.post(act, {"action": "check_in", "entrant": entrant})
    assert state(row).entrants[entrant].checked_in
    client.post(act, {"action": "check_out", "entrant": entrant})
    assert not state(row).entrants[entrant].checked_in
    client.post(act, {"action": "set_check_in", "on": "0"})
    assert state(row).options["check_in"] is False


# --- Absence before and after a round starts (defects 2, 4, 6) ----------------------------------------


def _swiss_of_four(td, **options):  # type: ignore[no-untyped-def]
    row = service.create(
        "Tables",
        "skyjo",
        "swiss",
        {**SKYJO, "table_size": 4, "rounds": 2, "auto_start": False, **options},
        by=td,
    )
    for _ in range(8):
        service.register(row, "", bot_level="random", by=td)
    service.start(row, by=td)
    return row


def test_a_withdrawal_before_the_round_starts_pairs_it_again_and_gives_no_free_points() -> None:
    (td,) = people("td")
    row = _swiss_of_four(td)
    t = state(row)
    locked = t.rounds[0].tables[1]
    service.edit_pairing(row, "lock", table=locked.key, reason="friends", by=td)
    gone = t.rounds[0].tables[0].entrants[0]
    service.withdraw(row, gone, by=td)
    t = state(row)
    rnd = t.rounds[0]
    assert gone not in {e for tb in rnd.tables for e in tb.entrants} | set(rnd.byes)
    assert any(tb.key == locked.key and tb.entrants == locked.entrants for tb in rnd.tables), "locked kept"
    service.start_round(row, by=td)
    t = state(row)
    assert not any(tb.forfeit for tb in t.rounds[0].tables), "nobody wins by forfeit at a re-paired table"


def test_the_organiser_may_prefer_a_bye_to_a_re_pairing_and_chooses_what_a_sit_out_scores() -> None:
    (td,) = people("td")
    row = service.create(
        "Pairs",
        "kazino",
        "swiss",
        {**KAZINO, "rounds": 2, "auto_start": False, "absence_before_round": "bye", "bye_value": "half"},
        by=td,
    )
    for _ in range(4):
        service.register(row, "", bot_level="random", by=td)
    service.start(row, by=td)
    first = state(row).rounds[0].tables[0]
    gone, other = first.entrants
    service.withdraw(row, gone, by=td)
    rnd = state(row).rounds[0]
    assert rnd.byes == [other] and len(rnd.tables) == 1
    service.start_round(row, by=td)
    finish_round(row)
    values = {int(r.entrant): r.values for r in formats.standings(state(row))}
    assert values[other]["match_points"] == Fraction(1, 2), "a sit-out worth half, as chosen"
    with pytest.raises(ServiceError):
        service.create("Bad", "kazino", "swiss", {**KAZINO, "bye_value": "double"}, by=td)


def test_a_sit_out_at_tables_of_four_scores_as_the_organiser_chose() -> None:
    t = log.Tournament(options={"table_size": 4})
    assert absence.bye_points(t) == 1  # before the choice existed
    for value, points in (("full", 3), ("half", Fraction(3, 2)), ("none", 0)):
        t.options["bye_value"] = value
        assert absence.bye_points(t) == points


def test_one_absentee_at_a_table_of_four_does_not_end_the_game_for_the_others() -> None:
    td, ana = people("td", "ana")
    row = service.create("Tables", "skyjo", "swiss", {**SKYJO, "table_size": 4, "rounds": 1}, by=td)
    for _ in range(3):
        service.register(row, "", bot_level="random", by=td)
    me = service.register(row, "ana", user=ana)
    service.start(row, by=td)
    t = state(row)
    table = t.rounds[0].tables[0]
    game_id = table.games[0].game_id
    service.forfeit(row, table.key, [me], "left the room", by=td)
    t = state(row)
    assert t.table(table.key).result is None and t.table(table.key).stand_ins == [me]
    assert load_table(game_id).computer_levels()[t.table(table.key).games[0].seats.index(me)]
    finish_round(row)
    t = state(row)
    result = t.table(table.key).result
    assert result is not None and result.places[me] == 4, "the absentee is placed last"
    outcome = queries.result(game_id)
    assert outcome is not None
    seats = t.table(table.key).games[0].seats
    others = [e for e in table.entrants if e != me]
    for x in others:  # each pair of the others in the order the game gave them (not all first)
        for y in others:
            in_game = outcome["places"][seats.index(x)] - outcome["places"][seats.index(y)]
            assert (result.places[x] - result.places[y]) * in_game >= 0
            assert (result.places[x] == result.places[y]) == (in_game == 0)
    assert not RatingHistory.objects.filter(game_id=game_id).exists(), "no one is rated on a stand-in's play"
    from django.test import Client

    page = Client().get(f"/tournaments/{row.pk}/").content.decode()
    assert "absent: a computer played their seat" in page


# --- Corrections (defect 3, #37 item 3) ---------------------------------------------------------------


def test_a_correction_of_places_moves_the_game_points_with_them_and_marks_the_paired_round_stale() -> None:
    (td,) = people("td")
    row = _swiss_of_four(td)
    service.start_round(row, by=td)
    finish_round(row)
    t = state(row)
    assert t.rounds[1].number == 2 and not t.rounds[1].started and not t.rounds[1].stale
    table = t.rounds[0].tables[0]
    before = table.result
    assert before is not None
    first = min(table.entrants, key=lambda e: before.places[e])
    last = max(table.entrants, key=lambda e: before.places[e])
    places = {str(e): before.places[e] for e in table.entrants}
    places[str(first)], places[str(last)] = before.places[last], before.places[first]
    service.override(row, table.key, places, None, "places entered the wrong way round", by=td)
    t = state(row)
    after = t.table(table.key).result
    assert after is not None
    assert after.scores[last] == before.scores[first] and after.scores[first] == before.scores[last]
    assert t.rounds[1].stale, "the paired round was paired from the old standings"
    row.refresh_from_db()
    assert row.rounds.get(number=2).stale  # the console reads it
    from django.test import Client

    client = Client()
    client.force_login(td)
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert 'id="stale-round"' in page and 'value="repair"' in page
    service.repair(row, by=td)
    assert not state(row).rounds[1].stale


def test_a_correction_of_a_match_still_in_play_is_refused() -> None:
    (td,) = people("td")
    row = _swiss_of_four(td)
    service.start_round(row, by=td)
    t = state(row)
    table = t.rounds[0].tables[0]
    with pytest.raises(ServiceError) as exc:
        service.override(
            row, table.key, {str(e): i + 1 for i, e in enumerate(table.entrants)}, None, "x", by=td
        )
    assert exc.value.code == "in_play"
    assert state(row).table(table.key).override is None


# --- Real cards: a second person confirms (#37 item 4) -------------------------------------------------


def test_a_result_entered_with_the_table_code_is_confirmed_only_with_another_seats_code() -> None:
    from tournaments import board

    td, *players = people("td", "p1", "p2")
    row = service.create("Cards", "kazino", "swiss", {**KAZINO, "rounds": 1}, by=td)
    for user in players:
        service.register(row, user.username, user=user)
    service.set_over_the_board(row, True, by=td)
    service.start(row, by=td)
    t = state(row)
    table = t.current.tables[0]
    a, b = table.entrants
    code = board.code_of(t, table.key)
    service.enter_result(row, table.key, 1, [{"cards": {str(a): 30, str(b): 22}}], entrant=a, code=code)
    seen = state(row).table(table.key).board_game(1).entered_seq
    with pytest.raises(ServiceError) as exc:  # the same phone claiming the other seat
        service.confirm_result(row, table.key, 1, seen, entrant=b, code=code)
    assert exc.value.code == "seat_code"
    with pytest.raises(ServiceError) as exc:  # a's own seat code does not prove b
        service.confirm_result(row, table.key, 1, seen, entrant=b, code=board.seat_code_of(t, table.key, a))
    assert exc.value.code == "seat_code"
    with pytest.raises(ServiceError) as exc:  # a dispute says what is wrong
        service.dispute_result(
            row, table.key, 1, seen, "  ", entrant=b, code=board.seat_code_of(t, table.key, b)
        )
    assert exc.value.code == "no_reason"
    assert state(row).table(table.key).result is None
    service.confirm_result(row, table.key, 1, seen, entrant=b, code=board.seat_code_of(t, table.key, b))
    assert state(row).table(table.key).result is not None


def test_a_no_show_at_a_table_of_three_is_played_out_by_a_computer() -> None:
    td, ana = people("td", "ana")
    row = service.create(
        "Watch", "skyjo", "swiss", {**SKYJO, "table_size": 3, "rounds": 1, "no_show_after": 60}, by=td
    )
    for _ in range(2):
        service.register(row, "", bot_level="random", by=td)
    me = service.register(row, "ana", user=ana)
    service.start(row, by=td)
    t = state(row)
    record = t.rounds[0].tables[0].games[0]
    seat = record.seats.index(me)
    for _ in range(500):
        table = load_table(record.game_id)
        if seat in table.to_act():
            break
        autoplay.play_bot_turn(record.game_id, table.seq, table.to_act()[0])
    assert service.check_no_show(row.stream_id, record.game_id) == "stood in"
    finish_round(row)
    result = state(row).rounds[0].tables[0].result
    assert result is not None and result.places[me] == 3
    outcome = queries.result(record.game_id)
    assert outcome is not None
    a, b = (e for e in record.seats if e != me)
    in_game = {e: outcome["places"][record.seats.index(e)] for e in (a, b)}
    assert (result.places[a] < result.places[b]) == (in_game[a] < in_game[b]), "places from the game"
    assert (result.places[a] == result.places[b]) == (in_game[a] == in_game[b])


def test_no_computer_stands_in_at_a_table_of_three_playing_with_real_cards() -> None:
    """A computer cannot sit at real cards: at a real-card table of three, an absentee loses by
    forfeit, whichever command asks (stands_in answered yes there, and each caller checked again)."""
    from tournaments.commands.progress import stands_in

    (td,) = people("td")
    row = service.create("Cards of three", "skyjo", "swiss", {**SKYJO, "table_size": 3, "rounds": 1}, by=td)
    entrants = [service.register(row, name, by=td) for name in ("Ana", "Ben", "Cy")]
    service.set_over_the_board(row, True, by=td)
    service.start(row, by=td)
    t = state(row)
    table = t.current.tables[0]
    assert len(table.entrants) == 3 and t.current.over_the_board
    assert not stands_in(t, table, [entrants[0]])
    service.forfeit(row, table.key, [entrants[0]], "left", by=td)
    after = state(row).table(table.key)
    assert after.stand_ins == [] and after.result is not None and after.result.places[entrants[0]] == 3


def test_a_tournaments_absence_time_reaches_its_tables_and_is_bounded() -> None:
    """#37 deliver 5: the time after which a gone player may be claimed against is a tournament option
    (bounded like the new-table form's), given to every table the tournament starts."""
    from games.models import Game
    from tournaments.models import MatchGame

    td, ana, ben = people("td", "ana", "ben")
    with pytest.raises(ServiceError):
        service.create("Night", "kazino", "swiss", {**KAZINO, "absent_after": 10**9}, by=td)
    row = service.create("Night", "kazino", "swiss", {**KAZINO, "absent_after": 300}, by=td)
    for user in (ana, ben):
        service.register(row, user.username, user=user)
    service.start(row, by=td)
    games_of = list(MatchGame.objects.filter(match__tournament=row).values_list("game_id", flat=True))
    assert games_of and {Game.objects.get(pk=g).absent_after for g in games_of} == {300}
