"""The migrations that number computer players (games 0011, tournaments 0006) on rows written before."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0011_invite"), ("tournaments", "0005_entry_name_rating_player")]
AFTER = [("games", "0012_seat_bot_number"), ("tournaments", "0006_computer_numbers")]


def migrate(targets):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_old_computer_seats_entries_and_ratings_get_their_numbers():
    apps = migrate(BEFORE)
    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    Tournament, Entry = apps.get_model("tournaments", "Tournament"), apps.get_model("tournaments", "Entry")
    Rating, RatingHistory = (
        apps.get_model("tournaments", "Rating"),
        apps.get_model("tournaments", "RatingHistory"),
    )
    table = Game.objects.create(engine="kazino", engine_version=1, config={}, kind="casual")
    Seat.objects.create(game=table, number=0, display_name="Ann", token="t0")
    Seat.objects.create(
        game=table, number=1, display_name="Òdinatè 2 (fasil)", bot_level="greedy", token="t1"
    )
    match = Game.objects.create(engine="kazino", engine_version=1, config={}, kind="tournament")
    Seat.objects.create(
        game=match, number=0, display_name="Computer 3 (Strong)", bot_level="strong", token="t2"
    )
    Seat.objects.create(game=match, number=1, display_name="Bot 5 (greedy)", bot_level="greedy", token="t3")
    row = Tournament.objects.create(stream_id=1, name="Old", game="kazino", format="swiss", status="finished")
    Entry.objects.create(tournament=row, number=3, name="Computer 3 (Strong)", bot_level="strong")
    Entry.objects.create(tournament=row, number=4, name="Ann")
    now = timezone.now()
    # One computer rated under two languages' names, another under the simulations' name, a name
    # that tells no computer, and a person.
    en = Rating.objects.create(
        player="bot:Computer 2 (Easy)", name="Computer 2 (Easy)", game="kazino", mu=30, sigma=5, games=3
    )
    ht = Rating.objects.create(
        player="bot:Òdinatè 2 (fasil)", name="Òdinatè 2 (fasil)", game="kazino", mu=20, sigma=6, games=1
    )
    RatingHistory.objects.create(rating=en, game_id=1, mu=30, sigma=5, at=now)
    RatingHistory.objects.create(rating=ht, game_id=2, mu=20, sigma=6, at=now)
    Rating.objects.create(
        player="bot:Bot 5 (greedy)", name="Bot 5 (greedy)", game="kazino", mu=25, sigma=7, games=2
    )
    Rating.objects.create(player="bot:HAL", name="HAL", game="kazino", mu=25, sigma=8, games=1)
    Rating.objects.create(player="user:1", name="ann", game="kazino", mu=25, sigma=8, games=1)

    apps = migrate(AFTER)
    Seat, Entry = apps.get_model("games", "Seat"), apps.get_model("tournaments", "Entry")
    Rating, RatingHistory = (
        apps.get_model("tournaments", "Rating"),
        apps.get_model("tournaments", "RatingHistory"),
    )
    assert dict(Seat.objects.values_list("token", "bot_number")) == {"t0": None, "t1": 2, "t2": 3, "t3": 5}
    assert dict(Entry.objects.values_list("name", "bot_number")) == {"Computer 3 (Strong)": 3, "Ann": None}
    rows = {r.player: r for r in Rating.objects.all()}
    assert set(rows) == {"bot:greedy:2", "bot:greedy:5", "bot:HAL", "user:1"}
    merged = rows["bot:greedy:2"]
    assert (merged.name, merged.games, merged.mu) == ("Computer 2 (Easy)", 4, 30)  # the one with more games
    assert sorted(RatingHistory.objects.filter(rating=merged).values_list("game_id", flat=True)) == [1, 2]
    assert rows["bot:greedy:5"].name == "Computer 5 (Easy)"


@pytest.fixture(autouse=True)
def _back_to_the_latest():  # type: ignore[no-untyped-def]
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
