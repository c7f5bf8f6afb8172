"""Club membership (tournaments/clubs.py, #33 club-only tables): joining by a link whose code an
organiser may rotate, organisers adding and removing members, leaving, and who counts as a member
for the tables (games.access.seats.CLUBS)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError

from games.access import seats
from games.commands.create import SeatSpec, create_game
from games.errors import ServiceError
from games.models import Game
from tournaments import clubs
from tournaments.models import Club, Member

pytestmark = pytest.mark.django_db


def _users(*names: str, **extra: bool) -> list:
    return [get_user_model().objects.create_user(n, **extra) for n in names]


def test_the_maker_is_the_first_organiser_and_a_join_link_makes_a_member():
    org, ana = _users("org", "ana")
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    assert clubs.is_organiser(club, org) and clubs.is_member(club, org)
    member = clubs.join(club.join_code, ana)
    assert member.role == Member.Role.MEMBER and not clubs.is_organiser(club, ana)
    assert clubs.join(club.join_code, ana).pk == member.pk  # joining twice: one membership
    assert clubs.clubs_of(ana) == frozenset({club.pk}) and seats.clubs_of(ana) == frozenset({club.pk})
    assert [m.user.username for m in clubs.members(club)] == ["ana", "org"]
    with pytest.raises(IntegrityError):
        Member.objects.create(club=club, user=ana)


def test_a_new_code_makes_the_links_shared_before_join_nobody():
    org, ana, ben = _users("org", "ana", "ben")
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    old = club.join_code
    new = clubs.rotate_code(club, by=org)
    assert new != old and Club.objects.get(pk=club.pk).join_code == new
    with pytest.raises(ServiceError) as refused:
        clubs.join(old, ana)
    assert refused.value.code == "unknown_club_code" and refused.value.status == 404
    assert not clubs.is_member(club, ana)
    with pytest.raises(ServiceError):
        clubs.join(new, ben, "another-club")  # a code is its own club's only
    for code in ("", "x" * 65, None, 7):
        with pytest.raises(ServiceError):
            clubs.join(code, ben)
    assert clubs.join(new, ben).club_id == club.pk
    with pytest.raises(ServiceError) as refused:
        clubs.rotate_code(club, by=ben)  # a member is no organiser
    assert refused.value.code == "organisers_only"


def test_organisers_add_and_remove_members_and_members_leave():
    org, ana, ben = _users("org", "ana", "ben")
    (staff,) = _users("staff", is_staff=True)
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    clubs.add(club, "ana", by=org)
    assert clubs.is_member(club, ana)
    with pytest.raises(ServiceError) as refused:
        clubs.add(club, "ben", by=ana)
    assert refused.value.code == "organisers_only" and not clubs.is_member(club, ben)
    with pytest.raises(ServiceError) as refused:
        clubs.add(club, "nobody", by=org)
    assert refused.value.code == "unknown_user"
    with pytest.raises(ServiceError):
        clubs.add(club, "x" * 151, by=org)  # past the bound: refused before any look-up
    clubs.add(club, "ben", by=staff)  # staff organise every club
    clubs.remove(club, ben.pk, by=org)
    assert not clubs.is_member(club, ben)
    clubs.set_role(club, ana.pk, Member.Role.ORGANISER, by=org)
    assert clubs.is_organiser(club, ana)
    clubs.leave(club, ana)
    assert not clubs.is_member(club, ana) and clubs.clubs_of(ana) == frozenset()
    with pytest.raises(ServiceError) as refused:
        clubs.leave(club, ana)
    assert refused.value.code == "not_a_member"


def test_the_last_organiser_may_not_leave_members_without_one():
    org, ana = _users("org", "ana")
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    clubs.join(club.join_code, ana)
    with pytest.raises(ServiceError) as refused:
        clubs.leave(club, org)
    assert refused.value.code == "last_organiser" and clubs.is_member(club, org)
    clubs.leave(club, ana)
    clubs.leave(club, org)  # alone: may go
    assert not Member.objects.filter(club=club).exists()


def test_a_table_of_a_club_is_seen_by_its_members_players_and_staff_only():
    org, ana, ben, cy = _users("org", "ana", "ben", "cy")
    (staff,) = _users("staff", is_staff=True)
    club = clubs.create("Tuesday Club", "tuesday", by=org)
    clubs.join(club.join_code, ana)
    game = create_game(
        "tiny",
        {"players": 2, "goal": 50},
        [SeatSpec("cy", user=cy), SeatSpec("org", user=org)],
        club_id=club.pk,
    )
    public = create_game(
        "tiny",
        {"players": 2, "goal": 50},
        [SeatSpec("cy", user=cy), SeatSpec("org", user=org)],
    )
    assert seats.may_see(seats.Requester(ana), game)
    assert seats.may_see(seats.Requester(cy), game)  # seated, no member
    assert seats.may_see(seats.Requester(staff), game)
    assert not seats.may_see(seats.Requester(ben), game)
    assert not seats.may_see(seats.Requester(None), game)
    assert seats.may_see(seats.Requester(ben), public)
    for user, expected in ((ana, {game.pk, public.pk}), (ben, {public.pk}), (cy, {game.pk, public.pk})):
        assert set(seats.seen_by(user, Game.objects.all()).values_list("pk", flat=True)) == expected
    assert set(seats.seen_by(None, Game.objects.all()).values_list("pk", flat=True)) == {public.pk}
