"""The player's profile page, their home (#33): their games (frontend/my_games.py), and their personal API
tokens, made and revoked (games/tokens.py).

A new token is shown once, on the page the form that made it redirects to (never in an address or a
log; the session holds it for that one redirect), and only its digest is kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from frontend import my_games
from games import bounds, tokens
from games.errors import ServiceError
from games.models import ApiToken

NEW_TOKEN = "new_api_token"  # the session keeps a new token from the POST to the page that shows it, once


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    error = ""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "revoke":
            token_id = bounds.ID.parse_or(request.POST.get("token"), -1)
            if tokens.revoke(request.user, token_id):
                messages.success(request, _("The token was revoked: it opens nothing any more."))
            return redirect("frontend:profile")
        try:
            _row, token = tokens.create(
                request.user, request.POST.get("name", ""), request.POST.getlist("scopes")
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
        **my_games.for_user(request.user),
    }
    response = render(request, "frontend/profile.html", context)
    response["Cache-Control"] = "no-store"  # a new token is on this page once
    return response
