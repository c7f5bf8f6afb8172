"""Open seats (#33, finding a game): a seat anyone signed in may take from the lobby, taken once, by
one person at most one seat of a table, and two people racing for it: one wins, the other is told."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.access import invites, seats
from games.commands.create import SeatSpec, create_game
from games.errors import ServiceError
from games.models import Game, Seat
from tests import races

pytestmark = pytest.mark.django_db(transaction=True)


def _table(open_seats: int = 1, owner: object = None) -> Game:
    specs = [SeatSpec("owner", user=owner)] + [
        SeatSpec("Open seat", awaiting_player=True, open_to_all=True) for _ in range(open_seats)
    ]
    return create_game("tiny", {"players": len(specs), "goal": 50}, specs)


def _users(*names: str) -> list:
    return [get_user_model().objects.create_user(n) for n in names]


def _race(*calls) -> list[object]:
    """Run the calls at once (each in its own thread and connection); what each returned or raised."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite runs one writer at a time)")
    return races.at_once(*calls)


def test_two_people_taking_the_same_seat_one_wins_the_other_is_told():
    ana, ben, cy = _users("ana", "ben", "cy")
    game = _table(owner=ana)
    results = _race(lambda: invites.take_open(game.pk, user=ben), lambda: invites.take_open(game.pk, user=cy))
    won = [r for r in results if isinstance(r, Seat)]
    lost = [r for r in results if isinstance(r, ServiceError)]
    assert len(won) == 1 and len(lost) == 1, results
    assert lost[0].code == "seat_taken" and lost[0].status == 410
    seat = Seat.objects.get(game=game, number=1)
    assert seat.user == won[0].user and not seat.awaiting_player and not seat.open_to_all


def test_one_person_taking_two_seats_of_a_table_at_once_gets_one():
    ana, ben = _users("ana", "ben")
    game = _table(open_seats=2, owner=ana)
    results = _race(
        lambda: invites.take_open(game.pk, user=ben, number=1),
        lambda: invites.take_open(game.pk, user=ben, number=2),
    )
    assert sorted(type(r).__name__ for r in results) == ["AlreadySeated", "Seat"], results
    assert Seat.objects.filter(game=game, user=ben).count() == 1
    assert Seat.objects.filter(game=game, awaiting_player=True).count() == 1


def test_a_player_at_the_table_cannot_take_another_of_its_seats():
    ana, ben = _users("ana", "ben")
    game = _table(open_seats=2, owner=ana)
    with pytest.raises(invites.AlreadySeated):
        invites.take_open(game.pk, user=ana)  # the table's maker
    invites.take_open(game.pk, user=ben)
    with pytest.raises(invites.AlreadySeated) as refused:
        invites.take_open(game.pk, user=ben)
    assert refused.value.status == 409 and refused.value.code == "already_seated"
    assert Seat.objects.filter(game=game, user=ben).count() == 1
    assert Seat.objects.get(game=game, number=2).awaiting_player
    # The open seat left is still anyone else's to take.
    (cy,) = _users("cy")
    assert invites.take_open(game.pk, user=cy).number == 2


def test_a_seat_kept_for_an_invite_is_not_taken_from_the_lobby():
    ana, ben = _users("ana", "ben")
    specs = [SeatSpec("owner", user=ana), SeatSpec("Open seat", awaiting_player=True)]
    game = create_game("tiny", {"players": 2, "goal": 50}, specs)
    with pytest.raises(invites.Gone):
        invites.take_open(game.pk, user=ben)
    assert Seat.objects.get(game=game, number=1).awaiting_player


def test_the_page_says_why_a_second_seat_is_refused(client):
    ana, ben = _users("ana", "ben")
    game = _table(open_seats=2, owner=ana)
    client.force_login(ben)
    assert client.post(f"/tables/{game.pk}/take/").status_code == 302
    again = client.post(f"/tables/{game.pk}/take/")
    assert again.status_code == 409
    assert "You already play a seat at this table." in again.content.decode()
    assert seats.held(seats.Requester(user=ben), game).keys() == {1}


def test_a_seat_taken_between_the_look_and_the_claim_is_told_taken_not_over(monkeypatch):
    """The race above, made certain: the other person's claim lands after this one has found the open
    seat and before it reads the seat's invite. The table is still being played: ``seat_taken``."""
    ana, ben, cy = _users("ana", "ben", "cy")
    game = _table(owner=ana)
    real = invites.current
    raced: list[bool] = []

    def current(table):  # type: ignore[no-untyped-def]
        if not raced:
            raced.append(True)
            invites.take_open(game.pk, user=ben)  # the other claim wins meanwhile
        return real(table)

    monkeypatch.setattr(invites, "current", current)
    with pytest.raises(ServiceError) as lost:
        invites.take_open(game.pk, user=cy)
    assert lost.value.code == "seat_taken" and lost.value.status == 410
    assert Seat.objects.get(game=game, number=1).user == ben
