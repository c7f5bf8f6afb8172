"""A club's members in the browser (#33, club-only tables): the members' page, the join link, and the
organisers' buttons (add by user name, remove, make organiser, a new join code); a member may leave.

One Django form per button, bounded by games/bounds.py; tournaments/clubs.py decides who may do what.
The members' page is for members (and organisers, staff): to anyone else it is the 404 of a club that
does not exist, so that who belongs to a club is not read by strangers.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games import bounds
from games.errors import ServiceError
from games.formfields import BoundedIntegerField
from tournaments import clubs
from tournaments.models import Club, Member


class AddMemberForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=bounds.NAME.most, strip=True)


class MemberForm(forms.Form):
    """A button on one member's row: remove them, or change their role."""

    user = BoundedIntegerField(bounds.ID, label=gettext_lazy("Member"))
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Member.Role.choices, required=False)


class ClubChoiceForm(forms.Form):
    """The new-table form's and Play now's "Who may see and join the table": everyone, or the members
    of one of the player's clubs."""

    club = BoundedIntegerField(bounds.ID, label=gettext_lazy("Club"), required=False)

    def __init__(self, data: Any, user: Any) -> None:
        super().__init__(data)
        self.user = user

    def clean_club(self) -> int | None:
        club = self.cleaned_data.get("club")
        if club is not None and club not in clubs.clubs_of(self.user):
            raise forms.ValidationError(_("Choose one of your clubs."), code="not_a_member")
        return club


def club_or_404(slug: str) -> Club:
    """The club of a page's address, or the page is not found (a slug is 50 characters at most)."""
    found = Club.objects.filter(slug=slug).first() if len(slug) <= 50 else None
    if found is None:
        raise Http404(_("There is no such club."))
    return found


def _members_url(club: Club) -> str:
    return reverse("frontend:club_members", args=[club.slug])


def members(request: HttpRequest, slug: str, *, error: str = "", status: int = 200) -> HttpResponse:
    club = club_or_404(slug)
    if not clubs.may_see_members(club, request.user):
        raise Http404(_("There is no such club."))
    organiser = clubs.is_organiser(club, request.user)
    join = reverse("frontend:club_join", args=[club.slug, club.join_code])
    context = {
        "club": club,
        "members": clubs.members(club),
        "organiser": organiser,
        "me": clubs.membership(club, request.user),
        "join_link": request.build_absolute_uri(join) if organiser else None,
        "add_form": AddMemberForm(label_suffix=""),  # no colon: Kreyòl writes a space before one
        "roles": Member.Role,
        "error": error,
    }
    return render(request, "frontend/club_members.html", context, status=status)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """A club's join link: opening it asks (link previews must not join anyone), the POST joins."""
    if not request.user.is_authenticated:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    try:
        club = clubs.by_code(code, slug)
        if request.method == "POST":
            clubs.join(code, request.user, slug)
            return redirect(_members_url(club))
    except ServiceError as exc:
        context = {"message": exc.localized()["message"]}
        return render(request, "frontend/club_join.html", context, status=exc.status)
    context = {"club": club, "member": clubs.is_member(club, request.user)}
    return render(request, "frontend/club_join.html", context)


def _act(request: HttpRequest, slug: str, action: Any) -> HttpResponse:
    """Run an organiser's or a member's button; a refusal shows the members' page with its reason."""
    if not request.user.is_authenticated:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    club = club_or_404(slug)
    if not clubs.may_see_members(club, request.user):
        raise Http404(_("There is no such club."))
    try:
        done = action(club)
    except ServiceError as exc:
        return members(request, slug, error=exc.localized()["message"], status=exc.status)
    return done if isinstance(done, HttpResponse) else redirect(_members_url(club))


def _cleaned(form: forms.Form) -> dict[str, Any]:
    """The form's cleaned data; a ServiceError saying what it refused when it is not valid."""
    if not form.is_valid():
        raise ServiceError("bad_form", " ".join(str(m) for errors in form.errors.values() for m in errors))
    return form.cleaned_data


@require_POST
def add(request: HttpRequest, slug: str) -> HttpResponse:
    def action(club: Club) -> None:
        clubs.add(club, _cleaned(AddMemberForm(request.POST))["username"], by=request.user)

    return _act(request, slug, action)


@require_POST
def change(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser removes a member (no ``role``) or gives them a role."""

    def action(club: Club) -> None:
        data = _cleaned(MemberForm(request.POST))
        if data.get("role"):
            clubs.set_role(club, data["user"], data["role"], by=request.user)
        else:
            clubs.remove(club, data["user"], by=request.user)

    return _act(request, slug, action)


@require_POST
def rotate(request: HttpRequest, slug: str) -> HttpResponse:
    return _act(request, slug, lambda club: clubs.rotate_code(club, by=request.user))


@require_POST
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    def action(club: Club) -> HttpResponse:
        clubs.leave(club, request.user)
        return redirect("frontend:club", slug=club.slug)

    return _act(request, slug, action)
