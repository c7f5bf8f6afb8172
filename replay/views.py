"""Replay pages, replay rooms and the comments of a game (JSON).

The page carries no picture: the client loads them hand by hand over the replay socket, where every
index is checked for this viewer. The page says only where to start, what to offer and who sits
where.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games import bounds
from games.access import seats
from games.engines.base import _
from games.errors import Forbidden, ServiceError
from games.eventlog import queries
from games.models import Game
from games.words.catalogue import titles
from games.words.names import seat_name
from replay import access, better, comments, fair, frames, graph, review, rooms
from replay.access import Position, Viewer
from replay.frames import Replay
from replay.models import Room

HIDDEN_VALUES = {"1": True, "true": True, "0": False, "false": False}


class PositionForm(forms.Form):
    """``at=SEQ&as=PERSPECTIVE`` of a replay link or a new room: read by ``access.land``, which
    ignores a bad value with a notice. A value longer than any seq or perspective is such a bad
    value (``REFUSED``), the same notice."""

    REFUSED = "?"

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        self.fields["at"] = forms.CharField(required=False, max_length=bounds.DIGITS + 1)
        self.fields["as"] = forms.CharField(required=False, max_length=16)  # a keyword of Python

    def given(self, name: str) -> str:
        self.is_valid()
        return self.REFUSED if name in self.errors else str(self.cleaned_data.get(name) or "")


class CommentForm(forms.Form):
    """A comment: the moment it is about and its text (replay/comments.py says what is wrong with
    either, for the API too: the sentences are one)."""

    # As bounds.read_int reads a number: at most DIGITS characters (a longer one is no moment: None).
    seq = forms.CharField(required=False, max_length=bounds.DIGITS)
    text = forms.CharField(required=False, strip=False)


class HiddenForm(forms.Form):
    """``hidden=1`` (or ``true``) hides a comment, ``hidden=0`` (or ``false``) shows it again."""

    hidden = forms.CharField(required=False, max_length=5)

    def clean_hidden(self) -> bool | None:
        return HIDDEN_VALUES.get(self.cleaned_data.get("hidden", "").lower())


def _game(request: HttpRequest, game_id: int) -> Game:
    """The game, if this browser may see it (``games.access.seats.may_see``); else the 404 of an id no table
    has."""
    game = get_object_or_404(Game.objects.tables(), pk=game_id)
    if not seats.may_see(seats.Requester.of_request(request, header=False), game):
        raise Http404(f"No {Game._meta.object_name} matches the given query.")
    return game


def _viewer(request: HttpRequest, game: Game) -> Viewer:
    """Pages are a browser's: its session says which seats it holds (games/access/seats.py)."""
    return access.viewer_of(seats.Requester.of_request(request, header=False), game)


def _client(
    request: HttpRequest, game: Game, replay: Replay, viewer: Viewer, position: Position, room: Room | None
) -> dict[str, Any]:
    page = reverse("replay:page", args=[game.pk])
    return {
        "game": game.pk,
        "engine": game.engine,
        "finished": replay.finished,
        "socket": f"/ws/replays/rooms/{room.key}/" if room else f"/ws/replays/{game.pk}/",
        "seats": [
            {"number": s.number, "name": seat_name(s), "bot": s.bot_level or None, "team": s.team}
            for s in game.seats.order_by("number")
        ],
        "mine": sorted(viewer.seats),
        "hands": [list(h) for h in access.visible_hands(replay, viewer)],
        "last": access.last_visible(replay, viewer),
        "perspectives": access.offered(replay, viewer),
        "position": {
            "index": position.index,
            "seq": position.seq(replay),
            "hand": position.hand(replay),
            "perspective": position.perspective,
        },
        "notice": access.notice_text(position.notice),
        "link": request.build_absolute_uri(page),
        "comments": reverse("replay:comments", args=[game.pk]),
        "review": reverse("replay:review", args=[game.pk]) if replay.finished else None,
        "better": reverse("replay:better", args=[game.pk]) if replay.finished else None,
        "can_comment": comments.may_comment(replay, viewer),
        "moderator": viewer.moderates(game),
        "user": viewer.user_id,
        "csrf": get_token(request),
        "room": {"key": room.key, "url": request.build_absolute_uri(reverse("replay:room", args=[room.key]))}
        if room
        else None,
        "open_room": reverse("replay:open_room", args=[game.pk]) if viewer.user_id else None,
    }


STOPPED = {
    "forfeit": gettext_lazy("This game was stopped before its end: the organiser recorded a forfeit."),
    "no-show": gettext_lazy("This game was stopped before its end: a player did not come (no-show)."),
}
STOPPED_OTHERWISE = gettext_lazy("This game was stopped before its end.")


def _render(
    request: HttpRequest, game: Game, replay: Replay, viewer: Viewer, position: Position, room: Room | None
) -> HttpResponse:
    context = {
        "game": game,
        "title": titles().get(game.engine, game.engine),
        "client": _client(request, game, replay, viewer, position, room),
        "room": room,
        "fair": fair.verify(game.pk, opened=replay.finished, head=replay.head),
        "stopped": STOPPED.get(replay.stopped, STOPPED_OTHERWISE) if replay.stopped else "",
        "graph": _graph(game, replay),
    }
    return render(request, "replay/replay.html", context)


def _graph(game: Game, replay: Replay) -> dict[str, Any] | None:
    """The review's graph (replay/graph.py), once the review is done; in the request's language."""
    if not replay.finished:
        return None
    names = {s["number"]: s["display_name"] for s in queries.seating(game.pk)["seats"]}
    return graph.build(replay, review.timeline(game.pk), names)


def page(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/games/ID/replay/[?at=SEQ&as=PERSPECTIVE]``: lands on that moment, or as near as allowed."""
    game = _game(request, game_id)
    replay = frames.load(game.pk)
    viewer = _viewer(request, game)
    asked = PositionForm(request.GET)
    position = access.land(replay, viewer, asked.given("at"), asked.given("as"))
    return _render(request, game, replay, viewer, position, None)


@require_POST
def open_room(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)
    if not request.user.is_authenticated:
        page_url = reverse("replay:page", args=[game.pk])
        return redirect(f"{reverse('login')}?{urlencode({'next': page_url})}")
    replay = frames.load(game.pk)
    viewer = _viewer(request, game)
    asked = PositionForm(request.POST)
    room = rooms.open_room(game, replay, viewer, asked.given("at"), asked.given("as"))
    return redirect("replay:room", key=room.key)


def room(request: HttpRequest, key: str) -> HttpResponse:
    """``/replays/rooms/KEY/``: the room's replay, following its driver."""
    try:
        row = rooms.get(key)
    except ServiceError:
        raise Http404 from None
    game = row.game
    if not seats.may_see(seats.Requester.of_request(request, header=False), game):
        raise Http404  # as for a room that does not exist
    replay = frames.load(game.pk)
    viewer = _viewer(request, game)
    rooms.join(row, viewer)
    position = access.settle(replay, viewer, replay.index_of(row.seq), rooms.stored_perspective(row))
    return _render(request, game, replay, viewer, position, row)


def _refused(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"error": exc.localized()}, status=exc.status)


@require_http_methods(["GET", "POST"])
def comment_list(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET: the comments this viewer may read. POST (seq, text): a new comment."""
    game = _game(request, game_id)
    replay = frames.load(game.pk)
    viewer = _viewer(request, game)
    if request.method == "GET":
        return JsonResponse({"comments": comments.listing(game, replay, viewer)})
    form = CommentForm(request.POST)
    form.is_valid()  # what it refused is None here, which comments.create refuses with its sentence
    typed = form.cleaned_data
    try:
        note = comments.create(game, replay, viewer, typed.get("seq"), typed.get("text"))
    except ServiceError as exc:
        return _refused(exc)
    return JsonResponse({"comment": note}, status=201)


@require_POST
def comment_hide(request: HttpRequest, game_id: int, note_id: int) -> JsonResponse:
    """POST hidden=1 hides a comment, hidden=0 shows it again (staff, or whoever made the table)."""
    game = _game(request, game_id)
    viewer = _viewer(request, game)
    form = HiddenForm(request.POST)
    hidden = form.cleaned_data["hidden"] if form.is_valid() else None
    try:
        note = comments.moderate(game, viewer, note_id, hidden)
    except ServiceError as exc:
        return _refused(exc)
    return JsonResponse({"comment": note})


@require_http_methods(["GET", "POST"])
def review_state(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET: the engine review of a finished game (state, each player's summary, every decision).
    POST: ask for it (signed-in users); asking again changes nothing while one is queued or done."""
    game = _game(request, game_id)
    replay = frames.load(game.pk)
    if not replay.finished:
        return _refused(ServiceError("not_finished", _("Only a finished game can be reviewed.")))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return _refused(Forbidden("sign_in", _("Sign in to ask for a review.")))
        try:
            review.request(game.pk)
        except ServiceError as exc:
            return _refused(exc)
    drawn = _graph(game, replay)
    return JsonResponse(
        {
            "summary": review.summary(game.pk),
            "decisions": review.timeline(game.pk),
            # The graph as the page draws it (a review done after the page was opened).
            "graph": render_to_string("replay/review_graph.html", {"graph": drawn}, request) if drawn else "",
        }
    )


class BetterForm(forms.Form):
    """``?at=SEQ&as=PERSPECTIVE``: the flagged decision (the seq of its command's first event) and
    where the viewer looks from."""

    at = bounds.SEQ.form_field()

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        self.fields["as"] = forms.CharField(max_length=8)  # a keyword of Python


@require_http_methods(["GET"])
def better_board(request: HttpRequest, game_id: int) -> JsonResponse:
    """The better move of a flagged decision on the board (replay/better.py), as this viewer may see it."""
    game = _game(request, game_id)
    form = BetterForm(request.GET)
    try:
        if not form.is_valid():
            if "at" in form.errors:
                raise bounds.SEQ.refusal("at")
            raise ServiceError("bad_perspective", access.BAD_PERSPECTIVE)
        perspective = access.parse_perspective(form.cleaned_data["as"])
        replay = frames.load(game.pk)
        if not replay.finished:
            raise ServiceError("not_finished", _("Only a finished game can be reviewed."))
        shown = better.board(replay, _viewer(request, game), form.cleaned_data["at"], perspective)
    except ServiceError as exc:
        return _refused(exc)
    return JsonResponse(shown)
