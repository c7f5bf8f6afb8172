"""Which games count in the points ranking (seasons/counted.py), read from the event log: rated and
tournament tables, finished, not forfeited, no guest; never a casual table, a lesson, an abandoned
game or a log with a move taken back — and an organiser's correction at a tournament takes its games
out at the next read."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import engines
from games.commands import controls
from games.commands.create import SeatSpec, create_game
from games.commands.moves import submit
from games.eventlog import queries, store
from games.models import Game
from seasons import counted, points
from tournaments import service as tournaments
from tournaments import simulate
from tournaments.models import Club, Match, MatchGame

pytestmark = pytest.mark.django_db(transaction=True)
engines.register("tinypoints", "tests.seasons.points_engine")


@pytest.fixture(autouse=True)
def _fresh():
    counted.forget()
    yield
    counted.forget()


def _players(*names: str) -> list[SeatSpec]:
    model = get_user_model()
    return [SeatSpec(n, user=model.objects.get_or_create(username=n)[0]) for n in names]


def _win(game: Game, seat: int) -> None:
    """Seat ``seat`` reaches the goal of 2 (seat 0 moves first: seat 1 wins by 1 then 1)."""
    head = lambda: store.head(game.pk)[0]  # noqa: E731
    moves = [(0, 2)] if seat == 0 else [(0, 1), (1, 1)]
    for s, n in moves:
        submit(game.pk, s, {"type": "add", "n": n}, f"m-{head()}", head())


def _table(kind: str, winner: int, *names: str) -> Game:
    game = create_game(
        "tinypoints", {"players": 2, "goal": 2}, _players(*(names or ("ana", "ben"))), kind=kind
    )
    _win(game, winner)
    return game


def _lines() -> dict[str, tuple[int, int, int]]:
    return {
        ln.name: (ln.points, ln.games, ln.wins)
        for ln in points.rank(counted.counted("tinypoints"), "tinypoints")
    }


def test_rated_games_count_and_casual_lessons_abandoned_and_guests_do_not():
    _table(Game.Kind.RATED, 0)
    _table(Game.Kind.RATED, 1)
    _table(Game.Kind.CASUAL, 0)
    _table(Game.Kind.LESSON, 0)
    guest = create_game(
        "tinypoints",
        {"players": 2, "goal": 2},
        [
            SeatSpec("ana", user=get_user_model().objects.get(username="ana")),
            SeatSpec("guest"),
        ],
        kind=Game.Kind.RATED,
    )
    _win(guest, 0)
    abandoned = create_game(
        "tinypoints", {"players": 2, "goal": 2}, _players("ana", "ben"), kind=Game.Kind.RATED
    )
    controls.abandon(abandoned.pk, "gone", reason="no show", by="system")
    assert _lines() == {"ana": (13, 2, 1), "ben": (13, 2, 1)}
    assert counted.counted("skyjo") == [] and not counted.has_points("skyjo")


def test_each_game_of_a_rated_table_counts_and_the_ranking_follows_the_log():
    game = _table(Game.Kind.RATED, 0)
    assert _lines() == {"ana": (10, 1, 1), "ben": (3, 1, 0)}
    controls.new_game(game.pk, "again", store.head(game.pk)[0], by="seat:1")
    for seat, n in ((0, 2), (1, 1)):  # game 2 aims at 3 (the tiny engine's rematch): ben wins it
        head = store.head(game.pk)[0]
        submit(game.pk, seat, {"type": "add", "n": n}, f"g2-{head}", head)
    # The store moved on: the kept fold is read again.
    assert _lines() == {"ana": (13, 2, 1), "ben": (13, 2, 1)}


def test_a_correction_at_a_tournament_takes_its_games_out_of_the_ranking():
    club = Club.objects.create(name="Friday club", slug="friday")
    row = simulate.setup(
        "kazino", "round_robin", 3, {"game_config": {"match": "single"}}, "greedy", club=club, seed=7
    )
    row = simulate.drive(row, timeout=600)
    games = {
        mg.game_id: mg.match.key
        for mg in MatchGame.objects.filter(match__tournament=row).select_related("match")
    }
    found = counted.counted("kazino")
    assert {c.table for c in found} == set(games)
    assert all(c.club_id == club.pk for c in found)
    # The points are the engine's, game by game, as the log's outcome holds them.
    for c in found:
        outcome = queries.result(c.table)
        assert [p for _k, _n, p in c.players] == outcome["games"][c.index - 1]["points"]
    everyone = points.rank(found, "kazino")
    ours = points.rank(found, "kazino", club_id=club.pk)
    assert [(x.player, x.points) for x in everyone] == [(x.player, x.points) for x in ours]
    assert points.rank(found, "kazino", club_id=club.pk + 1) == []
    match = Match.objects.get(tournament=row, key="R1-T1")
    a, b = match.entrants
    places = match.result["places"]
    tournaments.override(row, "R1-T1", {str(a): places[str(b)], str(b): places[str(a)]}, None, "wrong result")
    after = counted.counted("kazino")
    assert {c.table for c in after} == {g for g, key in games.items() if key != "R1-T1"}


def test_a_move_at_a_table_keeps_the_fold_and_a_game_s_end_reads_it_again():
    _table(Game.Kind.RATED, 0)
    live = create_game("tinypoints", {"players": 2, "goal": 2}, _players("cy", "di"), kind=Game.Kind.RATED)
    first = counted.counted("tinypoints")
    head = store.head(live.pk)[0]
    submit(live.pk, 0, {"type": "add", "n": 1}, f"m-{head}", head)  # a move: nothing ends
    assert counted.counted("tinypoints") is first
    head = store.head(live.pk)[0]
    submit(live.pk, 1, {"type": "add", "n": 1}, f"m-{head}", head)  # di wins: read again
    assert counted.counted("tinypoints") is not first
    assert _lines()["di"] == (10, 1, 1)
