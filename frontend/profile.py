"""The player's profile page: their personal API tokens, made and revoked (games/tokens.py).

A new token is shown once, on the page that answers the form that made it (never in an address, a
redirect or a log), and only its digest is kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import tokens
from games.errors import ServiceError
from games.models import ApiToken


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    new_token = ""
    error = ""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "revoke":
            try:
                token_id = int(request.POST.get("token", ""))
            except ValueError:
                token_id = -1
            if tokens.revoke(request.user, token_id):
                messages.success(request, _("The token was revoked: it opens nothing any more."))
            return redirect("frontend:profile")
        try:
            _row, new_token = tokens.create(
                request.user, request.POST.get("name", ""), request.POST.getlist("scopes")
            )
        except ServiceError as exc:
            error = exc.localized()["message"]
    context = {
        "tokens": tokens.live(request.user),
        "scopes": ApiToken.Scope.choices,
        "new_token": new_token,
        "error": error,
    }
    response = render(request, "frontend/profile.html", context)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token is on this page only
    return response
