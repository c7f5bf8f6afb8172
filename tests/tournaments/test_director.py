"""What a tournament director signs off on: a fixed number of rounds, forfeits that stop the game,
a pause that lets running games decide, byes as FIDE gives them, pairing edits with their reasons,
and round robin withdrawals (issue #19, items 4–9)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.commands import moves
from games.computers import autoplay
from games.errors import ServiceError
from games.eventlog import streams
from games.eventlog.tables import load_table
from games.models import Game
from tournaments import formats, projection, service, simulate
from tournaments.log import BYE
from tournaments.models import Entry, Match, RatingHistory, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

KAZINO = {"game_config": {"match": "single"}}


def state(row: Tournament):  # type: ignore[no-untyped-def]
    return projection.load(row.stream_id)


def play_out(game_id: int) -> None:
    for _ in range(5000):
        table = load_table(game_id)
        if table.outcome() is not None or table.timeline.abandoned:
            return
        assert autoplay.play_bot_turn(game_id, table.seq, table.to_act()[0]) == "played"
    raise AssertionError(f"game {game_id} did not end")


def live_games(row: Tournament, number: int | None = None) -> list[int]:
    """The games being played in round ``number`` (the last round by default)."""
    t = state(row)
    rnd = t.rounds[-1] if number is None else t.rounds[number - 1]
    return [
        g.game_id for table in rnd.tables for g in table.games if g.places is None and table.result is None
    ]


def finish_round(row: Tournament) -> None:
    """Play the current round's games (and the more games its matches need) to their end."""
    number = len(state(row).rounds)
    while live_games(row, number):
        for game_id in live_games(row, number):
            play_out(game_id)


def values(row: Tournament) -> dict[int, dict[str, Fraction]]:
    return {int(r.entrant): r.values for r in formats.standings(state(row))}


def test_the_number_of_rounds_is_announced_at_the_start_and_changed_only_by_the_organiser() -> None:
    organiser = get_user_model().objects.create_user("td")
    row = service.create("Fixed", "kazino", "swiss", {**KAZINO, "auto_start": False}, by=organiser)
    for n in range(1, 18):
        service.register(row, f"Bot {n}", bot_level="random", by=organiser)
    service.start(row, by=organiser)
    assert formats.swiss_rounds(state(row)) == 5  # ⌈log₂ 17⌉
    # A withdrawal (16 left, ⌈log₂ 16⌉ = 4) and a late entry do not change the length.
    service.withdraw(row, 3, by=organiser)
    assert formats.swiss_rounds(state(row)) == 5
    stranger = get_user_model().objects.create_user("someone")
    with pytest.raises(ServiceError) as refused:
        service.set_rounds(row, 6, "more time", by=stranger)
    assert refused.value.code == "not_organiser"
    with pytest.raises(ServiceError) as refused:
        service.set_rounds(row, 6, " ", by=organiser)
    assert refused.value.code == "no_reason"
    with pytest.raises(ServiceError) as refused:
        service.set_rounds(row, 0, "fewer", by=organiser)
    assert refused.value.code == "bad_rounds"
    service.set_rounds(row, 6, "the club stays late", by=organiser)
    assert formats.swiss_rounds(state(row)) == 6
    changed = [e for e in streams.read(row.stream_id) if e.type == "tournament.rounds_changed"]
    assert [e.data["reason"] for e in changed] == ["the club stays late"]


def test_a_forfeit_on_a_running_game_stops_it_and_it_is_never_rated() -> None:
    row = simulate.setup("kazino", "swiss", 2, {**KAZINO, "rounds": 1}, "random")
    service.start(row)
    (game_id,) = live_games(row)
    table = load_table(game_id)
    autoplay.play_bot_turn(game_id, table.seq, table.to_act()[0])
    key = state(row).rounds[0].tables[0].key
    absent = state(row).rounds[0].tables[0].entrants[0]
    service.forfeit(row, key, [absent], "did not come back")
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.ABORTED
    table = load_table(game_id)
    assert table.timeline.abandoned and table.timeline.abandon_reason == "forfeit"
    # Nothing more can be played there, and it is not rated.
    with pytest.raises(ServiceError):
        moves.submit(game_id, table.to_act()[0], {"type": "x"}, "late", table.seq)
    assert autoplay.play_bot_turn(game_id, table.seq, table.to_act()[0]) == "idle"
    assert not RatingHistory.objects.filter(game_id=game_id).exists()
    assert Match.objects.get(tournament=row, key=key).forfeit == [absent]
    # The replay and the table say why it ended.
    page = Client().get(f"/games/{game_id}/replay/").content.decode()
    assert 'id="stopped"' in page and "forfeit" in page
    from games.live import publish

    snapshot = publish.snapshot(table, 0)
    assert snapshot["stopped"] == "forfeit" and snapshot["legal_actions"] == []


def test_paused_games_still_decide_their_matches_but_nothing_new_starts() -> None:
    row = simulate.setup("kazino", "swiss", 4, {**KAZINO, "rounds": 2}, "random")
    service.start(row)
    service.pause(row)
    finish_round(row)
    t = state(row)
    assert all(tb.result is not None for tb in t.rounds[0].tables), (
        "the games under way decided their matches"
    )
    assert any(v["match_points"] for v in values(row).values()), "and the standings moved"
    assert all(e.rank for e in Entry.objects.filter(tournament=row))
    assert len(t.rounds) == 1, "the next round waits for the resume"
    service.resume(row)
    assert len(state(row).rounds) == 2 and live_games(row)

    row = simulate.setup("kazino", "swiss", 4, {**KAZINO, "best_of": 3, "rounds": 1}, "random")
    service.start(row)
    service.pause(row)
    finish_round(row)
    assert all(len(tb.games) == 1 for tb in state(row).rounds[0].tables), "no second game while paused"
    service.resume(row)
    assert all(len(tb.games) == 2 for tb in state(row).rounds[0].tables)


def test_a_requested_half_point_bye_is_not_paired_and_scores_half() -> None:
    options = {**KAZINO, "rounds": 4, "half_point_byes": 1, "no_byes_last_rounds": 1}
    row = simulate.setup("kazino", "swiss", 5, options, "random")
    with pytest.raises(ServiceError) as refused:
        service.request_bye(row, 1, 4)
    assert refused.value.code == "bad_round", "none in the last round"
    service.start(row)
    for entrant, round_, code in ((1, 4, "bad_round"), (1, 1, "bad_round"), (1, 9, "bad_round")):
        with pytest.raises(ServiceError) as refused:
            service.request_bye(row, entrant, round_)
        assert refused.value.code == code
    service.request_bye(row, 2, 2)
    service.request_bye(row, 2, 2)  # asked again: nothing more
    service.request_bye(row, 3, 3)
    service.cancel_bye(row, 3, 3)
    with pytest.raises(ServiceError) as refused:
        service.request_bye(row, 2, 3)
    assert refused.value.code == "too_many_byes"
    finish_round(row)
    rnd = state(row).rounds[1]
    assert rnd.half_byes == [2]
    assert all(2 not in tb.entrants for tb in rnd.tables) and 2 not in rnd.byes
    finish_round(row)
    mine = [m for m in formats.meetings(state(row)) if m.round == 2 and 2 in m.places]
    assert len(mine) == 1 and mine[0].bye and mine[0].points == Fraction(1, 2)
    # Cancelled in time (before its round is paired), a request gives nothing.
    assert 3 not in state(row).rounds[2].half_byes


def test_a_late_entrant_chooses_zero_or_half_for_the_rounds_it_missed() -> None:
    options = {**KAZINO, "rounds": 3, "late_entry": True, "half_point_byes": 1}
    row = simulate.setup("kazino", "swiss", 4, options, "random")
    service.start(row)
    with pytest.raises(ServiceError) as refused:
        service.register(row, "Unsure", bot_level="random", missed="maybe")
    assert refused.value.code == "bad_missed"
    late = service.register(row, "Late", bot_level="random", missed="half")  # round 1 is under way
    finish_round(row)
    assert any(late in tb.entrants for tb in state(row).rounds[1].tables), "it plays from round 2"
    missed = [m for m in formats.meetings(state(row)) if late in m.places and m.bye]
    assert [(m.round, m.points) for m in missed] == [(1, Fraction(1, 2))]
    with pytest.raises(ServiceError) as refused:
        service.register(row, "Later", bot_level="random", missed="half")  # 2 missed, 1 allowed
    assert refused.value.code == "too_many_byes"
    later = service.register(row, "Later", bot_level="random")
    missed = [m for m in formats.meetings(state(row)) if later in m.places and m.bye]
    assert [(m.round, m.points) for m in missed] == [(1, 0), (2, 0)]


def test_unplayed_rounds_enter_buchholz_by_a_dummy_with_ones_own_score_and_forfeit_wins_are_no_wins() -> None:
    from tournaments.standings import Meeting, standings

    # Three rounds. A: bye in round 1 (1 point), beats B, beats C.  B: beats C, loses to A, beats D by forfeit.
    meetings = [
        Meeting(1, {"A": 1}, bye=True),
        Meeting(1, {"B": 1, "C": 2}),
        Meeting(2, {"A": 1, "B": 2}),
        Meeting(2, {"C": 1, "D": 2}),
        Meeting(3, {"A": 1, "C": 2}),
        Meeting(3, {"B": 1, "D": 2}, unplayed=True),
        Meeting(1, {"D": 1}, bye=True, points=Fraction(0)),  # D joined late, missed round 1 for 0
    ]
    rows = {
        r.entrant: r.values
        for r in standings("ABCD", meetings, ["match_points", "buchholz", "wins"], virtual_opponents=3)
    }
    assert rows["A"]["match_points"] == 3 and rows["B"]["match_points"] == 2
    # C.07 (2023) 16.4: A's bye is a game against a dummy with A's own score (3); B and C add their scores.
    assert rows["A"]["buchholz"] == 3 + 2 + 1
    # B: opponents C (1) and A (3); round 3 won by forfeit: a dummy with B's own score (2). No win.
    assert rows["B"]["buchholz"] == 1 + 3 + 2
    assert rows["B"]["wins"] == 1


def test_the_organiser_swaps_moves_and_locks_before_a_round_starts_with_reasons_and_warnings() -> None:
    organiser = get_user_model().objects.create_user("td")
    row = service.create(
        "Edits", "kazino", "swiss", {**KAZINO, "rounds": 3, "auto_start": False}, by=organiser
    )
    for n in range(1, 7):
        service.register(row, f"Bot {n}", bot_level="random", by=organiser)
    service.start(row, by=organiser)
    rnd = state(row).rounds[0]
    (a, b), (c, d), (e, f) = (tb.entrants for tb in rnd.tables)
    with pytest.raises(ServiceError) as refused:
        service.edit_pairing(row, "swap", a=a, b=c, reason="", by=organiser)
    assert refused.value.code == "no_reason"
    with pytest.raises(ServiceError) as refused:
        service.edit_pairing(row, "move", a=a, table=rnd.tables[1].key, reason="x", by=organiser)
    assert refused.value.code == "bad_edit"  # a table of three in a two-player event
    service.edit_pairing(row, "swap", a=b, b=c, reason="they asked", by=organiser)
    t = state(row)
    assert [tb.entrants for tb in t.rounds[0].tables][:2] == [[a, c], [b, d]]
    service.edit_pairing(
        row, "lock", table=t.rounds[0].tables[0].key, reason="board 1 as agreed", by=organiser
    )
    service.repair(row, by=organiser)
    t = state(row)
    assert t.rounds[0].tables[0].entrants == [a, c], "the locked board is kept by the re-pairing"
    assert t.rounds[0].locked == {t.rounds[0].tables[0].key}
    assert [e.data["reason"] for e in streams.read(row.stream_id) if e.type == "round.edited"] == [
        "they asked",
        "board 1 as agreed",
    ]
    service.start_round(row, by=organiser)
    finish_round(row)
    # Round 2: seat together two who met in round 1, and the organiser is told so.
    t = state(row)
    x, y = t.rounds[1].tables[0].entrants
    before = next(tb.entrants for tb in t.rounds[0].tables if x in tb.entrants)
    (old,) = [e for e in before if e != x]
    warnings = service.edit_pairing(row, "swap", a=y, b=old, reason="a test", by=organiser)
    assert [(w.code, set(w.entrants)) for w in warnings if w.code == "repeat"] == [("repeat", {x, old})]
    with pytest.raises(ServiceError) as refused:
        service.edit_pairing(row, "move", a=x, table=BYE, reason="x", by=organiser)
    assert refused.value.code == "bad_edit"  # it would leave a table of one


def test_round_robin_withdrawal_annuls_before_half_and_forfeits_after() -> None:
    options = {**KAZINO, "auto_start": False}
    row = simulate.setup("kazino", "round_robin", 4, options, "random")
    service.start(row)
    service.start_round(row)
    service.withdraw(row, 1)  # its round-1 game is lost by forfeit (#30): 0 of 3 games, fewer than half
    finish_round(row)
    t = state(row)
    assert 1 in formats._annulled(t)
    assert all(1 not in m.places for m in formats.meetings(t)), "its results are annulled"
    assert all(1 not in tb.entrants for tb in t.rounds[1].tables) and 1 not in t.rounds[1].byes

    row = simulate.setup("kazino", "round_robin", 4, options, "random")
    service.start(row)
    for _ in range(2):
        service.start_round(row)
        finish_round(row)
    service.withdraw(row, 1)  # 2 of 3 played
    service.start_round(row)
    t = state(row)
    assert 1 not in formats._annulled(t)
    last = next(tb for tb in t.rounds[2].tables if 1 in tb.entrants)
    assert last.forfeit == [1], "half or more played: the rest are forfeited"
    forfeits = [m for m in formats.meetings(t) if 1 in m.places and m.unplayed]
    assert len(forfeits) == 1
