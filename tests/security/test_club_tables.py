"""Club-only tables (#33): every address that names a table — its page, the hint, invites and open
seats, the HTTP API and its stream, replays, comments and reviews, the table socket, the spectator
socket and edge, the replay socket — answers a non-member (signed in or not) word for word as for an
id no table has, and serves the club's members and the table's seated players as any table.

The paths and the comparison are the secret-deal test's (tests/tournaments/test_secret_tables.py):
the same question of a table that must not be there for some readers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from frontend import lobby
from games.access import seats
from games.commands import moves
from games.commands.create import SeatSpec, create_game
from games.eventlog import queries, store
from games.models import Game, Seat
from tests.replay.sockets import session_of
from tests.tournaments.test_secret_tables import _socket, answers, edge_state, http, same_text
from tournaments import clubs

pytestmark = pytest.mark.django_db(transaction=True)

OUTSIDERS = ("anonymous", "stranger")
INSIDERS = ("member", "player", "staff")


@dataclass
class Place:
    users: dict[str, Any]  # role -> user (anonymous: None)
    live: Game  # the player and an open seat anyone of the club may take
    finished: Game  # the player against a computer, played to the end


def club_with_tables() -> Place:
    """A club whose organiser made a live club-only table with an open seat, and a finished one; the
    seated ``player`` has left the club since (a seated player sees their table all the same)."""
    # Ids no page prints otherwise (the answers are compared with each table's id written as "ID", so a
    # table numbered 1 would turn a page's "initial-scale=1" into the id): rows made and dropped.
    Game.objects.bulk_create([Game(engine="tiny", engine_version=1, config={}) for _ in range(1234)])
    Game.objects.all().delete()
    users = get_user_model().objects
    organiser = users.create_user("club-organiser")
    club = clubs.create("Tuesday Club", "tuesday", by=organiser)
    member, player = users.create_user("member"), users.create_user("player")
    for user in (member, player):
        clubs.join(club.join_code, user)
    live = create_game(
        "dominoes",
        {"players": 2},
        [
            SeatSpec("player", user=player),
            SeatSpec("Open seat", awaiting_player=True, open_to_all=True),
        ],
        created_by=player,
        club_id=club.pk,
    )
    finished = create_game(
        "tiny",
        {"players": 2, "goal": 2},
        [SeatSpec("player", user=player), SeatSpec.computer(2, "random")],
        created_by=player,
        club_id=club.pk,
    )
    moves.submit(finished.pk, 0, {"type": "add", "n": 2}, "win", store.head(finished.pk)[0])
    assert queries.result(finished.pk) is not None
    clubs.leave(club, player)
    return Place(
        {
            "anonymous": None,
            "stranger": users.create_user("stranger"),
            "member": member,
            "player": player,
            "staff": users.create_user("staff", is_staff=True),
        },
        live,
        finished,
    )


def test_a_club_only_table_answers_non_members_as_a_table_that_does_not_exist(settings) -> None:
    settings.SPECTATOR_SOCKET = "/ws/watch/"
    place = club_with_tables()
    missing = Game.objects.order_by("-pk").first().pk + 1000  # type: ignore[union-attr]
    nothing = {role: answers(place, role, missing, missing) for role in (*OUTSIDERS, *INSIDERS)}  # type: ignore[arg-type]
    for role in OUTSIDERS:
        got = answers(place, role, place.live.pk, place.finished.pk)  # type: ignore[arg-type]
        for path, answer in got.items():
            assert answer == nothing[role][path], f"{role}: {path} told that the table exists"
    # The spectator edge knows nobody: a club-only table is no table there, for anyone.
    assert edge_state(place.live.pk) == edge_state(missing) == "unknown_game"

    for role in INSIDERS:
        got = answers(place, role, place.live.pk, place.finished.pk)  # type: ignore[arg-type]
        assert got["table page"][0] == 200 and got["v1 state"][0] == 200 and got["api state"][0] == 200
        assert got["replay page"][0] == 200 and got["v1 stream"][2] == "a stream"
        assert got["v1 history"][0] == 200 and got["comments"][0] == 200
        assert got["table socket"][-1] == "state" and got["replay socket"][-1] == "ready"
        assert got["spectator socket"] == nothing[role]["spectator socket"], "the edge knows nobody"
    # So a member's page watches through Daphne's socket, which knows them.
    client = Client()
    client.force_login(place.users["member"])
    page = client.get(f"/tables/{place.live.pk}/")
    assert page.context["client"]["socket"] == f"/ws/tables/{place.live.pk}/"

    # The better move drawn on the board, and a replay room a member opens: a room's link and socket
    # lead nowhere for a non-member either.
    better = "/games/{id}/replay/better/?at=1&as=public"
    assert http(client, "get", better, place.finished.pk) != http(client, "get", better, missing)
    room = client.post(f"/games/{place.finished.pk}/replay/rooms/")["Location"].rstrip("/").rsplit("/", 1)[1]
    assert client.get(f"/replays/rooms/{room}/").status_code == 200
    for role in OUTSIDERS:
        visitor = Client()
        user = place.users[role]
        if user is not None:
            visitor.force_login(user)
        assert http(visitor, "get", better, place.finished.pk) == http(visitor, "get", better, missing)
        there, nowhere = (
            same_text(visitor.get(f"/replays/rooms/{key}/").content.decode(), key) for key in (room, "0" * 8)
        )
        assert there == nowhere, f"{role}: the room told that the table exists"
        session = async_to_sync(session_of)(user) if user is not None else None
        sockets = [async_to_sync(_socket)("/ws/replays/rooms/{id}/", key, session) for key in (room, "0" * 8)]
        assert sockets[0] == sockets[1], f"{role}: the room's socket told that the table exists"
    connections.close_all()


def test_only_a_member_takes_the_open_seat_and_only_members_and_players_find_the_table() -> None:
    place = club_with_tables()
    now = lobby.clock()

    def listed(role: str) -> dict[int, Any]:
        rows = lobby.listing(seats.Requester(place.users[role]), now)
        return {r.game.pk: r for r in rows["live"] + rows["recent"]}

    assert place.live.pk not in listed("stranger") and place.finished.pk not in listed("stranger")
    assert place.live.pk not in listed("anonymous")
    assert listed("member")[place.live.pk].open_to_reader and listed("member")[place.live.pk].club
    assert place.finished.pk in listed("player")  # left the club, still seated there

    stranger = Client()
    stranger.force_login(place.users["stranger"])
    refused = stranger.post(f"/tables/{place.live.pk}/take/")
    assert refused.status_code == 410  # as at a table with no open seat: nothing said of the club
    assert Seat.objects.get(game=place.live, number=1).awaiting_player

    member = Client()
    member.force_login(place.users["member"])
    taken = member.post(f"/tables/{place.live.pk}/take/")
    assert taken.status_code == 302
    seat = Seat.objects.get(game=place.live, number=1)
    assert seat.user == place.users["member"] and not seat.awaiting_player
    connections.close_all()
