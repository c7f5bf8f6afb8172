"""The lobby and the accounts pages."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from frontend import lobby
from frontend.languages import save_language
from frontend.query_forms import GameQuery
from games.access import seats
from games.words.catalogue import installed, titles


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: the tables being played (latest move first), the recent ones, the games; one game
    at a time with ``?game=``."""
    names = titles()
    query = GameQuery(request.GET)
    game = query.value("game")
    if (game is not None and game not in names) or "game" in query.errors:
        raise Http404(_("There is no such game."))
    requester = seats.Requester.of_request(request, header=False)
    tabs = [{"game": "", "title": _("All games"), "current": game is None}]
    tabs += [{"game": key, "title": title, "current": key == game} for key, title in names.items()]
    context = {
        "games": installed(),
        "chosen": game,
        "chosen_title": names.get(game or "", ""),
        "tabs": tabs,
        "idle_minutes": int(settings.LOBBY_IDLE_MINUTES),
        **lobby.listing(requester, lobby.clock(), game),
    }
    return render(request, "frontend/home.html", context)


def signup(request: HttpRequest) -> HttpResponse:
    form: UserCreationForm = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        # The language the player signed up in becomes their saved choice, on every device.
        save_language(user, request.LANGUAGE_CODE)
        return redirect("frontend:home")
    return render(request, "registration/signup.html", {"form": form})
