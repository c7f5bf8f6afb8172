"""Play now in the browser (#33, finding a game): the new-table form's "Play now" button sends the
game's options as shown there; the player is seated at once with whoever waits for the same, or waits
on a page that asks ``state`` every few seconds (a small JSON answer) and goes to the table when one is
made (games/access/playnow.py)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from frontend import form_errors
from frontend.options import GAME_OPTIONS, parse_options
from frontend.table_forms import PlayNowForm
from games import engines
from games.access import playnow
from games.errors import ServiceError
from games.models import Seek
from games.words.catalogue import titles

# Milliseconds between two questions of the waiting page (it stops when the wait is over).
POLL_MS = 3000


def _new_table(game: str) -> str:
    return reverse("frontend:new_table", args=[game])


def _refused(request: HttpRequest, game: str, message: str, status: int) -> HttpResponse:
    context = {"message": message, "game": game, "title": titles()[game]}
    return render(request, "frontend/play_now.html", context, status=status)


@require_POST
def play_now(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_OPTIONS:
        raise Http404
    if not request.user.is_authenticated:
        return redirect(f"{settings.LOGIN_URL}?next={_new_table(game)}")
    spec = GAME_OPTIONS[game]
    form = PlayNowForm(request.POST, request.user, spec)
    if not form.is_valid():
        return _refused(request, game, form_errors.sentence(form), 400)
    try:
        players, kind = form.cleaned_data["players"], form.cleaned_data["kind"]
        try:
            config = engines.compose(game, parse_options(game, request.POST), players)
        except engines.IllegalAction as exc:
            raise ServiceError.from_illegal(exc) from None
        minutes = form.minutes()
        club = form.cleaned_data["club"]  # only the members of this club, or everyone (#33)
        seek = playnow.press(request.user, game, config, kind, fallback_minutes=minutes, club_id=club)
    except ServiceError as exc:
        return _refused(request, game, exc.localized()["message"], exc.status)
    if seek.game_id is not None:
        return redirect("frontend:table", game_id=seek.game_id)
    return redirect("frontend:play_wait", seek_id=seek.pk)


def _seek(request: HttpRequest, seek_id: int) -> Seek:
    try:
        return playnow.state(seek_id, request.user)
    except playnow.NoSuchWait:
        raise Http404 from None


@require_GET
def wait(request: HttpRequest, seek_id: int) -> HttpResponse:
    """The waiting page: "Waiting for an opponent…" and Cancel; the table once there is one."""
    seek = _seek(request, seek_id)
    if seek.game_id is not None:
        return redirect("frontend:table", game_id=seek.game_id)
    context = {
        "seek": seek,
        "waiting": seek.status == Seek.Status.WAITING,
        "game": seek.engine,
        "title": titles().get(seek.engine, seek.engine),
        "poll": {"url": reverse("frontend:play_state", args=[seek.pk]), "every": POLL_MS},
        "fallback_minutes": round((seek.fallback_at - seek.created_at).total_seconds() / 60)
        if seek.fallback_at
        else None,
    }
    return render(request, "frontend/play_now.html", context)


@require_GET
def wait_state(request: HttpRequest, seek_id: int) -> JsonResponse:
    """What the waiting page asks: ``waiting``, or over (``table`` set when a table was made)."""
    seek = _seek(request, seek_id)
    table = reverse("frontend:table", args=[seek.game_id]) if seek.game_id is not None else None
    return JsonResponse({"state": seek.status, "table": table})


@require_POST
def cancel(request: HttpRequest, seek_id: int) -> HttpResponse:
    try:
        seek = playnow.cancel(seek_id, request.user)
    except playnow.NoSuchWait:
        raise Http404 from None
    if seek.game_id is not None:  # seated meanwhile: the table is theirs
        return redirect("frontend:table", game_id=seek.game_id)
    return redirect("frontend:new_table", game=seek.engine)
