"""A username may be 150 characters long, and every column that copies one holds it whole.

Seats kept 64 characters (``Seat.display_name``): a player with a longer username who took a seat was
a server error on PostgreSQL (DataError), and tournament games cut their entrants' names to 64. Run on
PostgreSQL (DATABASE_URL) these fail on the old columns; the first test fails on any database.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games.commands.create import SeatSpec, create_game
from games.errors import ServiceError
from games.models import NAME_LENGTH, Seat
from replay.export import export_game
from replay.importer import import_history
from tests.replay.play import play
from tournaments import ratings
from tournaments import service as tournaments
from tournaments.models import Entry, MatchGame, Rating, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

LONGEST = "u" * 150  # Django's User.username holds 150 characters


def test_every_column_that_copies_a_username_holds_one_whole():
    username = get_user_model()._meta.get_field("username").max_length
    assert username <= NAME_LENGTH
    assert Seat._meta.get_field("display_name").max_length >= NAME_LENGTH
    assert Entry._meta.get_field("name").max_length >= NAME_LENGTH
    assert Rating._meta.get_field("name").max_length >= NAME_LENGTH
    # A computer player rated before computers were numbered kept "bot:" and its seat's name.
    assert Rating._meta.get_field("player").max_length >= len("bot:") + NAME_LENGTH


def test_a_player_with_the_longest_username_takes_a_seat(client):
    user = get_user_model().objects.create_user(LONGEST)
    client.force_login(user)
    response = client.post("/new/kazino/", {"players": "2", "seat0": "me", "seat1": "bot:random"})
    assert response.status_code == 302, response.content[:500]
    seat = Seat.objects.get(game__engine="kazino", number=0)
    assert seat.display_name == LONGEST and seat.user == user
    page = client.get(response["Location"])
    assert page.status_code == 200 and LONGEST in page.content.decode()


def test_tournament_entrants_keep_their_whole_names_at_their_tables(client):
    organiser, player = (get_user_model().objects.create_user(n) for n in ("organiser", LONGEST))
    row = tournaments.create("Long Names Cup", "kazino", "swiss", {"table_size": 2}, by=organiser)
    client.force_login(player)
    client.post(f"/tournaments/{row.pk}/do/register")
    client.force_login(organiser)
    # A computer player has no name of its own: a name sent along is not used (games/words/computers.py).
    client.post(f"/tournaments/{row.pk}/do/add_bot", {"name": "B" * 200, "level": "random"})
    client.post(f"/tournaments/{row.pk}/do/start")
    row = Tournament.objects.get(pk=row.pk)
    assert row.status == "running", list(Entry.objects.filter(tournament=row).values_list("name", flat=True))
    computer = "Computer 2 (Beginner)"
    assert set(Entry.objects.filter(tournament=row).values_list("name", flat=True)) == {LONGEST, computer}
    game = MatchGame.objects.get(match__tournament=row).game_id
    assert set(Seat.objects.filter(game_id=game).values_list("display_name", flat=True)) == {
        LONGEST,
        computer,
    }
    too_long = "x" * (NAME_LENGTH + 1)
    with pytest.raises(ServiceError) as refused:
        tournaments.register(Tournament.objects.get(pk=row.pk), too_long, by=organiser)
    assert refused.value.code == "bad_name"
    with pytest.raises(ServiceError) as refused:
        tournaments.register(row, "Pair", members=["Ann", too_long], by=organiser)
    assert refused.value.code == "bad_members"


def test_computer_players_with_the_longest_names_are_rated_and_their_game_exported_and_imported():
    names = ["A" * NAME_LENGTH, "B" * NAME_LENGTH]
    seats = [SeatSpec(name, bot_level="random") for name in names]
    game = create_game("kazino", {"players": 2}, seats, kind="rated")
    assert ratings.record(game.pk, {"places": [1, 2]})
    # Rated by number and level (games/words/computers.py); the seats keep their names for exports.
    assert set(Rating.objects.values_list("player", flat=True)) == {"bot:random:1", "bot:random:2"}
    assert set(Rating.objects.values_list("name", flat=True)) == {
        "Computer 1 (Beginner)",
        "Computer 2 (Beginner)",
    }

    with transaction.atomic():  # played on "another server": rolled back once exported
        played = create_game("tiny", {"players": 2, "goal": 3}, seats)
        play(played)
        doc = export_game(played.pk, "all")
        transaction.set_rollback(True)
    assert [s["name"] for s in doc["seats"]] == names
    copy = import_history(doc)
    assert list(copy.seats.values_list("display_name", flat=True)) == names
