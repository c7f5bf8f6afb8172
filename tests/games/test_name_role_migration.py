"""games 0014: guests' and pass-and-play players' names stored in one language become a role (#23.4)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0013_lesson_kind")]
AFTER = [("games", "0014_seat_name_role")]


def migrate(targets):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def _back_to_the_latest():  # type: ignore[no-untyped-def]
    """Leave the test database at the latest migrations: migrating back to 0013 also took back every
    later one (the API's tokens), and the tests after this one on the same worker need them."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_names_of_guests_and_local_players_in_any_language_become_roles():
    apps = migrate(BEFORE)
    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    table = Game.objects.create(engine="skyjo", engine_version=1, config={}, kind="casual")
    rows = [
        ("Envite 1", {}),
        ("Manlalaro 2", {}),
        ("Guest 3", {}),
        ("Jwè 4", {}),
        ("Guest 9", {}),  # not its seat's number: a name someone chose
        ("Player 6", {"awaiting_player": True}),
        ("Computer 7 (Easy)", {"bot_level": "greedy", "bot_number": 7}),
        ("Guest 8", {"user_id": None, "display_name": "Ann"}),
    ]
    for number, (name, extra) in enumerate(rows):
        Seat.objects.create(game=table, number=number, token=f"t{number}", **{"display_name": name, **extra})
    apps = migrate(AFTER)
    Seat = apps.get_model("games", "Seat")
    got = [(s.name_role, s.display_name) for s in Seat.objects.filter(game_id=table.pk).order_by("number")]
    assert got == [
        ("guest", "Guest 1"),
        ("player", "Player 2"),
        ("guest", "Guest 3"),
        ("player", "Player 4"),
        ("", "Guest 9"),
        ("", "Player 6"),
        ("", "Computer 7 (Easy)"),
        ("", "Ann"),
    ]
