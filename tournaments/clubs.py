"""Club membership (#33, club-only tables): who belongs to a club, and who runs it.

A member sees and joins the club's club-only tables (games.access.seats.in_club asks ``clubs_of`` through
``games.access.seats.CLUBS``). An organiser — a member of that role, the club's maker, or staff — shares the
club's join link (and rotates its code, so that the links given before join nobody), adds members by
their user name and removes them. A member may leave; the last organiser may not leave a club that
has other members (nobody would be left to run it).

Every refusal is a ``ServiceError`` with a sentence: pages show it, nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import bounds
from games.engines.base import _
from games.errors import Forbidden, NotFound, ServiceError
from tournaments.models import Club, Member, new_join_code

NOT_A_MEMBER = _("You are not a member of this club.")


def _user_id(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def clubs_of(user: Any) -> frozenset[int]:
    """The ids of the clubs ``user`` is a member of (registered in games.access.seats.CLUBS)."""
    uid = _user_id(user)
    if uid is None:
        return frozenset()
    return frozenset(Member.objects.filter(user_id=uid).values_list("club_id", flat=True))


def my_clubs(user: Any) -> list[Club]:
    """The clubs ``user`` is a member of, by name (the new-table form's "only members of")."""
    uid = _user_id(user)
    if uid is None:
        return []
    return list(Club.objects.filter(members__user_id=uid).order_by("name"))


def membership(club: Club, user: Any) -> Member | None:
    uid = _user_id(user)
    return None if uid is None else Member.objects.filter(club=club, user_id=uid).first()


def is_member(club: Club, user: Any) -> bool:
    """A member of the club (staff see its member list too: ``may_see_members``)."""
    return membership(club, user) is not None


def is_organiser(club: Club, user: Any) -> bool:
    uid = _user_id(user)
    if uid is None:
        return False
    if user.is_staff or club.created_by_id == uid:
        return True
    return Member.objects.filter(club=club, user_id=uid, role=Member.Role.ORGANISER).exists()


def may_see_members(club: Club, user: Any) -> bool:
    return is_member(club, user) or is_organiser(club, user)


def members(club: Club) -> list[Member]:
    return list(Member.objects.filter(club=club).select_related("user").order_by("user__username"))


def create(name: str, slug: str, *, by: Any) -> Club:
    """A club made by ``by``, who is its first organiser."""
    club = Club.objects.create(name=name, slug=slug, created_by=by)
    Member.objects.create(club=club, user=by, role=Member.Role.ORGANISER)
    return club


def _add(club: Club, user: Any, role: str = Member.Role.MEMBER) -> Member:
    try:
        with transaction.atomic():
            return Member.objects.create(club=club, user=user, role=role)
    except IntegrityError:  # joined twice at once, or already there: one membership
        return Member.objects.get(club=club, user=user)


def join(code: Any, user: Any, slug: str | None = None) -> Member:
    """``user`` joins the club whose join code is ``code`` (already a member: their membership)."""
    if _user_id(user) is None:
        raise Forbidden("sign_in", _("Sign in to join a club."))
    club = by_code(code, slug)
    return _add(club, user, Member.Role.ORGANISER if club.created_by_id == user.pk else Member.Role.MEMBER)


def by_code(code: Any, slug: str | None = None) -> Club:
    """The club of a join code (and of ``slug``, when the link names it); NotFound for a code no club
    has now (a rotated one included)."""
    gone = NotFound("unknown_club_code", _("This join link works no more: ask the club for a new one."))
    if not isinstance(code, str) or not code or len(code) > bounds.CODE.most:
        raise gone
    club = Club.objects.filter(join_code=code).first()
    if club is None or (slug is not None and club.slug != slug):
        raise gone
    return club


def _organiser_only(club: Club, by: Any) -> None:
    if not is_organiser(club, by):
        raise Forbidden("organisers_only", _("Only the club's organisers may do this."))


def add(club: Club, username: str, *, by: Any) -> Member:
    """An organiser adds a user by their user name."""
    _organiser_only(club, by)
    user = get_user_model().objects.filter(username=bounds.NAME.check(username, _("User name"))).first()
    if user is None:
        raise ServiceError("unknown_user", _("Nobody has this user name."))
    return _add(club, user)


def remove(club: Club, user_id: int, *, by: Any) -> None:
    """An organiser removes a member (themselves too, as leaving would)."""
    _organiser_only(club, by)
    member = Member.objects.filter(club=club, user_id=user_id).first()
    if member is None:
        raise ServiceError("not_a_member", _("This player is not a member of the club."))
    _leave(member)


def leave(club: Club, user: Any) -> None:
    member = membership(club, user)
    if member is None:
        raise ServiceError("not_a_member", NOT_A_MEMBER)
    _leave(member)


def _leave(member: Member) -> None:
    with transaction.atomic():
        organisers = Member.objects.select_for_update().filter(
            club_id=member.club_id, role=Member.Role.ORGANISER
        )
        others = Member.objects.filter(club_id=member.club_id).exclude(pk=member.pk)
        last = member.role == Member.Role.ORGANISER and list(organisers) == [member]
        if last and others.exists():
            raise ServiceError(
                "last_organiser",
                _("You are the club's last organiser: make another member an organiser first."),
            )
        member.delete()


def set_role(club: Club, user_id: int, role: str, *, by: Any) -> Member:
    """An organiser makes a member an organiser, or an organiser a member again."""
    _organiser_only(club, by)
    if role not in Member.Role.values:
        raise ServiceError("bad_role", _("Choose member or organiser."))
    member = Member.objects.filter(club=club, user_id=user_id).first()
    if member is None:
        raise ServiceError("not_a_member", _("This player is not a member of the club."))
    member.role = role
    member.save(update_fields=["role"])
    return member


def rotate_code(club: Club, *, by: Any) -> str:
    """A new join code: the links shared before join nobody from now on."""
    _organiser_only(club, by)
    club.join_code = new_join_code()
    club.save(update_fields=["join_code"])
    return club.join_code
