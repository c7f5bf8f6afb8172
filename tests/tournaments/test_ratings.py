"""Which games the ratings take (tournaments/ratings.py): rated tables' and tournaments', from their
first event; never a casual one, whatever the game (issue #18: casual Kazino games fed the ratings
while allowing undo, restart with the deal known and the strong computer's hints)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.commands import controls, moves
from games.commands.create import SeatSpec, create_game
from games.computers.autoplay import play_bot_turn
from games.eventlog import queries, store
from games.eventlog.tables import load_table
from games.models import Game
from tournaments import ratings
from tournaments.models import Rating, RatingHistory

pytestmark = pytest.mark.django_db(transaction=True)


def _players() -> list[SeatSpec]:
    model = get_user_model()
    return [SeatSpec(name, user=model.objects.create_user(name)) for name in ("ana", "ben")]


def _add(game: Game, seat: int, n: int) -> None:
    moves.submit(
        game.pk, seat, {"type": "add", "n": n}, f"add-{store.head(game.pk)[0]}", store.head(game.pk)[0]
    )


def _ratings() -> list[tuple[str, float, float, int]]:
    return list(Rating.objects.values_list("player", "mu", "sigma", "games").order_by("player", "club"))


@pytest.mark.parametrize("kind", [Game.Kind.CASUAL, Game.Kind.RATED])
def test_a_casual_game_is_never_rated_and_a_rated_one_is(kind):
    game = create_game("tiny", {"players": 2, "goal": 2}, _players(), kind=kind)
    _add(game, 0, 2)  # seat 0 wins: the game_finished signal reaches the ratings
    assert queries.result(game.pk) is not None
    rated = RatingHistory.objects.filter(game_id=game.pk).count()
    assert rated == (2 if kind == Game.Kind.RATED else 0)


@pytest.mark.parametrize("kind", [Game.Kind.CASUAL, Game.Kind.RATED])
def test_a_casual_kazino_game_no_longer_feeds_the_ratings(kind):
    seats = [SeatSpec(f"Bot {n} (greedy)", bot_level="greedy") for n in (1, 2)]
    game = create_game("kazino", {"players": 2, "match": "single"}, seats, seed=18, kind=kind)
    while (outcome := queries.result(game.pk)) is None:
        table = load_table(game.pk)
        play_bot_turn(game.pk, table.seq, table.to_act()[0])
    counted = Rating.objects.filter(game="kazino").count()
    assert counted == (2 if kind == Game.Kind.RATED else 0)
    before = _ratings()
    ratings.record(game.pk, outcome)  # the signal again: rated once, or never
    assert _ratings() == before


def test_each_game_of_a_rated_table_is_rated_on_its_own_and_rebuild_agrees():
    game = create_game("tiny", {"players": 2, "goal": 2}, _players(), kind=Game.Kind.RATED)
    _add(game, 0, 2)  # ana wins game 1
    controls.new_game(game.pk, "again", store.head(game.pk)[0], by="seat:1")  # game 2 aims at 3
    _add(game, 0, 2)
    _add(game, 1, 1)  # ben wins game 2
    history = RatingHistory.objects.filter(game_id=game.pk)
    assert sorted(history.values_list("rating__name", "number")) == [
        ("ana", 1),
        ("ana", 2),
        ("ben", 1),
        ("ben", 2),
    ]
    live = _ratings()
    assert [games for *_rest, games in live] == [2, 2]
    assert ratings.rebuild() == 2
    assert _ratings() == live


def test_a_log_with_a_move_taken_back_is_not_rated_whatever_its_kind():
    game = create_game("tiny", {"players": 2, "goal": 2}, _players(), kind=Game.Kind.RATED)
    _add(game, 0, 1)
    # Only a bug or a forged log could put one there: the service refuses undo at a rated table.
    store.append(
        game.pk,
        store.head(game.pk)[0],
        [{"type": "table.undo", "by": "seat:0"}],
        command_id="x",
        actor="system",
    )
    assert load_table(game.pk).state.total == 0
    _add(game, 0, 2)
    assert queries.result(game.pk) is not None
    assert not RatingHistory.objects.exists()
    assert ratings.rebuild() == 0
