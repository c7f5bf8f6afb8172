"""Tables played with real cards ("over the board", issue #20 item 5): results entered on phones,
confirmed by the other players, disputes decided by the organiser; every step an event of the log;
standings, tie-breaks and ratings as for online games."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.errors import ServiceError
from games.eventlog import streams
from games.models import Game
from tournaments import board, formats, projection, ratings, service
from tournaments.models import Match, MatchGame, RatingHistory, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()


def kazino_cards(a: int, b: int, first: int, second: int) -> list[dict]:
    """One single Kazino game: ``first`` captured ``a`` cards, ``second`` captured ``b``."""
    return [{"cards": {str(first): a, str(second): b}}]


def setup(game="kazino", players=4, fmt="swiss", accounts=True, **options) -> tuple[Tournament, list]:
    organiser = User.objects.create_user("org")
    options.setdefault("game_config", {"match": "single"} if game == "kazino" else {})
    row = service.create("Club night", game, fmt, options, by=organiser)
    users = []
    for n in range(players):
        user = User.objects.create_user(f"p{n + 1}") if accounts else None
        service.register(row, f"Player {n + 1}", user=user)
        users.append(user)
    service.set_over_the_board(row, True, by=organiser)
    service.seed(row, "manual", list(range(1, players + 1)), by=organiser)
    service.start(row, by=organiser)
    row.refresh_from_db()
    return row, [organiser, *users]


def types(row: Tournament) -> list[str]:
    return [e.type for e in streams.read(row.stream_id)]


def current(row: Tournament):
    return projection.load(row.stream_id)


def test_a_round_over_the_board_makes_no_online_game_and_waits_for_results():
    row, _people = setup()
    t = current(row)
    assert t.current is not None and t.current.over_the_board and t.current.started
    assert [tb.entrants for tb in t.current.tables] == [[1, 3], [2, 4]] or len(t.current.tables) == 2
    assert not MatchGame.objects.filter(match__tournament=row).exists()
    assert Game.objects.filter(kind="tournament").count() == 0
    assert "game.started" not in types(row)
    row.refresh_from_db()
    assert row.over_the_board and row.rounds.get(number=1).over_the_board


def test_an_entry_confirmed_by_the_other_player_decides_the_match_and_the_standings():
    row, people = setup()
    t = current(row)
    table = t.current.tables[0]
    a, b = table.entrants
    user = {e: people[e] for e in (a, b)}
    service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=a, user=user[a])
    match = Match.objects.get(tournament=row, key=table.key)
    assert match.result is None and match.board[0]["hands"] and match.board[0]["confirmed"] == [a]
    seen = match.board[0]["entered_seq"]
    service.confirm_result(row, table.key, 1, seen, entrant=b, user=user[b])
    match = Match.objects.get(tournament=row, key=table.key)
    assert match.result == {"places": {str(a): 1, str(b): 2}, "scores": {str(a): "10", str(b): "0"}}
    assert match.board[0]["places"] == {str(a): 1, str(b): 2}
    log = types(row)
    assert log[-4:-1] == ["result.entered", "result.confirmed", "result.recorded"] or (
        "result.recorded" in log and log.index("result.recorded") > log.index("result.confirmed")
    )
    assert "match.decided" in log
    # Standings as for an online game: a win is a point.
    entries = {e.number: e for e in row.entries.all()}
    assert entries[a].values["match_points"] == "1" and entries[b].values["match_points"] == "0"


def test_only_the_players_of_the_table_or_the_holder_of_its_code_may_enter():
    row, people = setup()
    t = current(row)
    table, other = t.current.tables
    a, b = table.entrants
    stranger = people[other.entrants[0]]
    with pytest.raises(ServiceError) as exc:
        service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=a, user=stranger)
    assert exc.value.code == "not_at_table"
    with pytest.raises(ServiceError) as exc:
        service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=a, code="WRONG1")
    assert exc.value.code == "bad_code"
    code = board.code_of(t, table.key)
    assert len(code) == board.CODE_LENGTH and board.code_table(t, code.lower()) == table.key
    assert board.code_table(t, board.code_of(t, other.key)) == other.key
    service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=b, code=code)
    event = streams.read(row.stream_id)[-1]
    assert event.type == "result.entered" and event.data["via"] == "code" and event.data["by"] is None
    assert event.actor == "table-code"
    assert code not in str([e.data for e in streams.read(row.stream_id)])  # never in the log


def test_a_dispute_goes_to_the_organiser_who_decides_with_a_reason():
    row, people = setup()
    organiser = people[0]
    t = current(row)
    table = t.current.tables[0]
    a, b = table.entrants
    service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=a, user=people[a])
    seen = Match.objects.get(tournament=row, key=table.key).board[0]["entered_seq"]
    service.dispute_result(row, table.key, 1, seen, "I had 27 cards", entrant=b, user=people[b])
    match = Match.objects.get(tournament=row, key=table.key)
    assert match.result is None and match.board[0]["disputes"] == [{"entrant": b, "reason": "I had 27 cards"}]
    with pytest.raises(ServiceError) as exc:  # a player cannot decide
        service.resolve_result(row, table.key, 1, kazino_cards(25, 27, a, b), "counted again", by=people[a])
    assert exc.value.code == "not_organiser"
    service.resolve_result(row, table.key, 1, kazino_cards(25, 27, a, b), "counted again", by=organiser)
    match = Match.objects.get(tournament=row, key=table.key)
    assert match.result["places"] == {str(a): 2, str(b): 1}
    assert match.board[0]["resolved_by"] == organiser.pk and match.board[0]["reason"] == "counted again"
    assert [e for e in types(row) if e.startswith("result.")][-4:] == [
        "result.entered",
        "result.disputed",
        "result.resolved",
        "result.recorded",
    ]


def test_a_confirmation_of_an_entry_that_changed_since_is_refused():
    row, people = setup()
    table = current(row).current.tables[0]
    a, b = table.entrants
    service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=a, user=people[a])
    seen = Match.objects.get(tournament=row, key=table.key).board[0]["entered_seq"]
    service.enter_result(row, table.key, 1, kazino_cards(29, 23, a, b), entrant=a, user=people[a])
    with pytest.raises(ServiceError) as exc:
        service.confirm_result(row, table.key, 1, seen, entrant=b, user=people[b])
    assert exc.value.code == "stale"
    with pytest.raises(ServiceError) as exc:  # game 2 of a best-of-1 match takes no entry
        service.enter_result(row, table.key, 2, kazino_cards(29, 23, a, b), entrant=a, user=people[a])
    assert exc.value.code == "stale"


def test_the_organiser_enters_and_corrects_any_result_and_the_match_follows():
    row, people = setup()
    organiser = people[0]
    table = current(row).current.tables[0]
    a, b = table.entrants
    service.resolve_result(row, table.key, 1, kazino_cards(30, 22, a, b), by=organiser)
    assert Match.objects.get(tournament=row, key=table.key).result["places"] == {str(a): 1, str(b): 2}
    with pytest.raises(ServiceError) as exc:
        service.resolve_result(row, table.key, 1, kazino_cards(20, 32, a, b), "", by=organiser)
    assert exc.value.code == "no_reason"
    service.resolve_result(row, table.key, 1, kazino_cards(20, 32, a, b), "miscounted", by=organiser)
    match = Match.objects.get(tournament=row, key=table.key)
    assert match.result["places"] == {str(a): 2, str(b): 1}
    recorded = [e for e in streams.read(row.stream_id) if e.type == "result.recorded"]
    assert [e.data.get("correction", False) for e in recorded] == [False, True]


def test_a_best_of_three_asks_for_more_entries_until_the_match_is_decided():
    row, people = setup(players=2, best_of=3, rounds=1)
    t = current(row)
    table = t.current.tables[0]
    a, b = table.entrants
    for number, cards in ((1, (30, 22)), (2, (22, 30))):
        service.resolve_result(row, table.key, number, kazino_cards(*cards, a, b), by=people[0])
        t = current(row)
        assert formats.board_game_open(t, t.table(table.key)) == number + 1
    assert formats.board_seats(t, t.table(table.key), 2) == [b, a]  # the first seat moves round
    service.resolve_result(row, table.key, 3, kazino_cards(40, 12, a, b), by=people[0])
    row.refresh_from_db()
    match = Match.objects.get(tournament=row, key=table.key)
    assert match.result["places"] == {str(a): 1, str(b): 2}
    assert row.status == "finished"


def test_one_round_can_be_marked_and_the_next_plays_online_again():
    organiser = User.objects.create_user("org")
    row = service.create(
        "Mixed", "kazino", "swiss", {"rounds": 2, "game_config": {"match": "single"}}, by=organiser
    )
    players = [User.objects.create_user(f"u{n}") for n in range(2)]
    for n, user in enumerate(players):
        service.register(row, f"P{n}", user=user)
    service.set_round_over_the_board(row, 1, True, by=organiser)
    service.start(row, by=organiser)
    t = current(row)
    assert t.current.over_the_board
    table = t.current.tables[0]
    service.resolve_result(row, table.key, 1, kazino_cards(30, 22, *table.entrants), by=organiser)
    t = current(row)
    assert t.current.number == 2 and not t.current.over_the_board
    assert MatchGame.objects.filter(match__tournament=row).count() == 1  # round 2 is played online
    with pytest.raises(ServiceError) as exc:
        service.set_round_over_the_board(row, 2, True, by=organiser)
    assert exc.value.code == "bad_round"


def test_computer_players_cannot_sit_at_real_tables():
    organiser = User.objects.create_user("org")
    row = service.create("Bots", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    service.register(row, "Bot", bot_level="random")
    with pytest.raises(ServiceError) as exc:
        service.set_over_the_board(row, True, by=organiser)
    assert exc.value.code == "board_no_bots"
    row2 = service.create("People", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    service.set_over_the_board(row2, True, by=organiser)
    with pytest.raises(ServiceError) as exc:
        service.register(row2, "Bot", bot_level="random", by=organiser)
    assert exc.value.code == "board_no_bots"


def test_results_over_the_board_are_rated_once_and_a_rebuild_agrees():
    row, people = setup()
    organiser = people[0]
    t = current(row)
    for table in t.current.tables:
        a, b = table.entrants
        service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=a, user=people[a])
        seen = Match.objects.get(tournament=row, key=table.key).board[0]["entered_seq"]
        service.confirm_result(row, table.key, 1, seen, entrant=b, user=people[b])
    history = sorted(RatingHistory.objects.values_list("rating__player", "game_id", "number", "mu"))
    assert len(history) == 4 and {h[1] for h in history} == {row.stream_id}
    first = current(row).rounds[0].tables[0]
    service.resolve_result(row, first.key, 1, kazino_cards(20, 32, *first.entrants), "recount", by=organiser)
    # #37 item 4: the ratings no longer keep the result the correction replaced.
    corrected = {
        (player, place)
        for player, place in RatingHistory.objects.filter(game_id=row.stream_id).values_list(
            "rating__player", "place"
        )
    }
    a, b = first.entrants
    assert (f"user:{people[a].pk}", 2) in corrected and (f"user:{people[b].pk}", 1) in corrected
    assert len(RatingHistory.objects.all()) == len(history)
    before = sorted(
        (r.player, round(r.mu, 9), round(r.sigma, 9), r.games) for r in ratings.Rating.objects.all()
    )
    assert ratings.rebuild() == 2
    after = sorted(
        (r.player, round(r.mu, 9), round(r.sigma, 9), r.games) for r in ratings.Rating.objects.all()
    )
    assert after == before
    call_command("rebuild_tournaments")
    match = Match.objects.get(tournament=row, key=first.key)
    assert match.result["places"] == {str(first.entrants[0]): 2, str(first.entrants[1]): 1}


def test_guests_typed_in_by_name_are_not_rated_as_online():
    row, people = setup(accounts=False)
    table = current(row).current.tables[0]
    service.resolve_result(row, table.key, 1, kazino_cards(30, 22, *table.entrants), by=people[0])
    assert not RatingHistory.objects.exists()


def test_a_rebuild_of_the_projection_gives_the_same_rows():
    row, people = setup()
    table = current(row).current.tables[0]
    a, b = table.entrants
    service.enter_result(row, table.key, 1, kazino_cards(30, 22, a, b), entrant=a, user=people[a])
    before = sorted(Match.objects.filter(tournament=row).values_list("key", "result", "board"))
    call_command("rebuild_tournaments", "--no-ratings")
    assert sorted(Match.objects.filter(tournament=row).values_list("key", "result", "board")) == before


def test_a_withdrawal_before_any_entry_forfeits_the_table():
    row, people = setup()
    table = current(row).current.tables[0]
    a, b = table.entrants
    service.withdraw(row, b, by=people[0])
    match = Match.objects.get(tournament=row, key=table.key)
    assert match.forfeit == [b] and match.result["places"] == {str(a): 1, str(b): 2}
