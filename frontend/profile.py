"""The player's profile page, their home (#33): their games (frontend/my_games.py), and their personal API
tokens, made and revoked (games/access/tokens.py).

A new token is shown once, on the page the form that made it redirects to (never in an address or a
log; the session holds it for that one redirect), and only its digest is kept.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from frontend import form_errors, my_games
from games import bounds
from games.access import tokens
from games.errors import ServiceError
from games.models import ApiToken

NEW_TOKEN = "new_api_token"  # the session keeps a new token from the POST to the page that shows it, once
GIVE_A_NAME = gettext_lazy("Give the token a name of 1 to 64 characters.")
CHOOSE_SCOPES = gettext_lazy("Choose at least one of the scopes play, organise and read.")


class ProfileButtonForm(forms.Form):
    """Which button of the page: revoke a token, else make one."""

    action = forms.CharField(required=False, max_length=16)


class RevokeTokenForm(forms.Form):
    token = bounds.ID.form_field(label=gettext_lazy("Token"))


class NewTokenForm(forms.Form):
    """A new token: its name and its scopes (games/access/tokens.py checks them again, for the API too)."""

    name = forms.CharField(
        max_length=bounds.TOKEN_NAME.most, error_messages={"required": GIVE_A_NAME, "max_length": GIVE_A_NAME}
    )
    scopes = forms.MultipleChoiceField(
        choices=ApiToken.Scope.choices,
        error_messages={"required": CHOOSE_SCOPES, "invalid_choice": CHOOSE_SCOPES},
    )


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    error = ""
    typed: NewTokenForm | None = None
    if request.method == "POST":
        button = ProfileButtonForm(request.POST)
        if button.is_valid() and button.cleaned_data["action"] == "revoke":
            revoke = RevokeTokenForm(request.POST)
            if revoke.is_valid() and tokens.revoke(request.user, revoke.cleaned_data["token"]):
                messages.success(request, _("The token was revoked: it opens nothing any more."))
            return redirect("frontend:profile")
        form = NewTokenForm(request.POST)
        typed = form  # a refused form comes back as it was typed
        if not form.is_valid():
            error = form_errors.sentence(form)
        else:
            try:
                _row, token = tokens.create(
                    request.user, form.cleaned_data["name"], form.cleaned_data["scopes"]
                )
            except ServiceError as exc:
                error = exc.localized()["message"]
            else:
                # Shown by the GET this redirects to, and then forgotten: reloading that page neither
                # makes another token nor shows this one again.
                request.session[NEW_TOKEN] = token
                return redirect("frontend:profile")
    new_token = request.session.pop(NEW_TOKEN, "") if request.method == "GET" else ""
    context = {
        "tokens": tokens.live(request.user),
        "scopes": ApiToken.Scope.choices,
        "new_token": new_token,
        "error": error,
        "typed_name": typed["name"].value() or "" if typed is not None else "",
        "typed_scopes": typed["scopes"].value() or [] if typed is not None else ["play", "read"],
        **my_games.for_user(request.user),
    }
    response = render(request, "frontend/profile.html", context)
    response["Cache-Control"] = "no-store"  # a new token is on this page once
    return response
