"""The lobby and the accounts pages."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from frontend.languages import save_language
from games.catalogue import installed, titles
from games.models import Game


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: tables with an open seat, live tables to watch, recent games."""
    live = Game.objects.listed().filter(status=Game.Status.ACTIVE).order_by("-created_at")
    open_seat = Q(seats__user__isnull=True, seats__bot_level="", seats__awaiting_player=True)
    open_tables = live.annotate(open=Count("seats", filter=open_seat)).filter(open__gt=0)[:20]
    context = {
        "games": installed(),
        "titles": titles(),
        "open_tables": open_tables,
        "live_tables": live.prefetch_related("seats")[:30],
        "recent": Game.objects.listed()
        .filter(status=Game.Status.FINISHED)
        .order_by("-finished_at")
        .prefetch_related("seats")[:20],
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
