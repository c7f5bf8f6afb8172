"""The lessons: an index, each game's lesson page (its steps, and a button that deals the lesson on a
real table) and what the table page needs to show a lesson's steps (games/lessons, docs/lessons.md)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games import lessons
from games.access import seats
from games.commands.create import SeatSpec, create_game
from games.eventlog.tables import Table, load_table
from games.lessons import LEARNER, Learn, Lesson, Reply
from games.lessons import play as lesson_play
from games.models import Game
from games.words.catalogue import installed, titles
from games.words.names import guest_name

# The lesson's computer keeps playing once the script is over, at the easy level.
COMPUTER_LEVEL = "greedy"


def index(request: HttpRequest) -> HttpResponse:
    info = {game.name: game for game in installed()}
    found = [(lesson, info[lesson.engine]) for lesson in lessons.all_lessons() if lesson.engine in info]
    return render(request, "frontend/lessons/index.html", {"lessons": found})


@require_http_methods(["GET", "POST"])
def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the lesson's steps; POST: deal it on a new lesson table, the learner in seat 1."""
    found = lessons.get(slug)
    if found is None:
        raise Http404
    if request.method == "POST":
        game = _start(request, found)
        return redirect("frontend:table", game_id=game.pk)
    context = {"lesson": found, "title": titles()[found.engine], "steps": [_(s.title) for s in found.steps]}
    return render(request, "frontend/lessons/lesson.html", context)


def _start(request: HttpRequest, found: Lesson) -> Game:
    if request.user.is_authenticated:
        me = SeatSpec(request.user.get_username(), user=request.user)
    else:
        me = SeatSpec(guest_name(LEARNER))
    specs = [
        me,
        *(SeatSpec.computer(n + 1, COMPUTER_LEVEL) for n in range(1, found.config["players"])),
    ]
    game = create_game(
        found.engine,
        found.config,
        specs,
        seed=found.seed,
        kind=Game.Kind.LESSON,
        created_by=request.user if request.user.is_authenticated else None,
    )
    # As for any new table: a new session key before the seat's credential rides on it.
    request.session.cycle_key()
    seats.remember(request.session, game.seats.get(number=LEARNER))
    return game


def client(game: Game) -> dict[str, Any] | None:
    """What the table page shows of a lesson table's lesson (its steps in the reader's language, the
    texts only of those shown so far: ``_shown``, and the two ways to play at the end); None at any
    other table."""
    if game.kind != Game.Kind.LESSON:
        return None
    found = lessons.of_engine(game.engine)
    if found is None:
        return None
    shown = _shown(found, load_table(game))
    steps = []
    move = 0
    for index, step in enumerate(found.steps):
        steps.append(
            {
                "title": _(step.title),
                "text": _(step.text) if index < shown else None,
                "move": move if isinstance(step, Learn) else None,
                # The move to make, marked on the board (#33), for the steps shown so far only: a lesson's
                # deal and script are the same for every learner (games/lessons/), nothing of a game's.
                "action": step.action if isinstance(step, Learn) and index < shown else None,
            }
        )
        move += isinstance(step, Learn)
    new_table = reverse("frontend:new_table", args=[found.engine])
    return {
        "slug": found.slug,
        "steps": steps,
        "shown": shown,
        "progress": reverse("frontend:lesson_progress", args=[game.pk]),
        "computer": {"url": new_table, "text": _(found.computer_match)},
        "friends": {
            "url": f"{new_table}?{urlencode({'with': 'friend', **found.friends_options})}",
            "text": _(found.friends_match),
        },
    }


def _shown(found: Lesson, table: Table) -> int:
    """How many of the lesson's steps may be read now. A step says what the learner holds and what
    the computer played before it ("the ends show 6 and 2"), so its text waits until the moves the
    script makes before it are on the table: no page tells a card before the table shows it."""
    made = {seat: lesson_play.made(table, seat) for seat in range(found.config["players"])}
    before: dict[int, int] = {LEARNER: 0}  # the script's moves before this step, per seat
    shown = 0
    for entry in found.script:
        if isinstance(entry, Reply):
            before[entry.seat] = before.get(entry.seat, 0) + 1
            continue
        if any(made.get(seat, 0) < n for seat, n in before.items()):
            break
        shown += 1
        if isinstance(entry, Learn):
            before[LEARNER] += 1
    return shown


@require_GET
def progress(request: HttpRequest, game_id: int) -> JsonResponse:
    """How many moves the learner has made, and the steps that may be read now: the page works out the
    step from them (public: every move of a table is)."""
    game = get_object_or_404(Game.objects.tables(), pk=game_id, kind=Game.Kind.LESSON)
    found = lessons.of_engine(game.engine)
    if found is None:
        raise Http404
    table = load_table(game)
    shown = _shown(found, table)
    texts = [_(step.text) for step in found.steps[:shown]]
    actions = [step.action if isinstance(step, Learn) else None for step in found.steps[:shown]]
    return JsonResponse(
        {
            "made": lesson_play.made(table, LEARNER),
            "shown": shown,
            "texts": texts,
            "actions": actions,
            "seq": table.seq,
        }
    )
