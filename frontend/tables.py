"""Tables in the browser: create one, sit at one, claim an invite, ask for a hint.

A browser plays the seats its signed-in user holds and those whose credentials its session keeps
(games/access/seats.py); no page carries a credential, not even its holder's: the table's socket and the hint
are authorised by the same session.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat import service as chat
from frontend import form_errors, lessons, round_clock
from frontend.options import (
    GAME_OPTIONS,
    RATED_BY_DEFAULT,
    SEAT_CHOICES,
    TABLES,
    defaults_table,
    fields,
    parse_options,
)
from frontend.table_forms import HintForm, NewTableForm, ShowTableForm
from games import bots, bounds, engines
from games.access import invites, ratelimit, seats
from games.commands.create import SeatSpec, create_game
from games.errors import Forbidden, ServiceError
from games.eventlog import queries
from games.models import Game, Seat
from games.words.catalogue import installed, titles
from games.words.names import GUEST, PLAYER, stored_name
from tournaments import clubs as member_clubs


def _seat_spec(choice: str, name: str, number: int, request: HttpRequest, passing: bool = False) -> SeatSpec:
    """``passing``: the device is passed between players, who are then all called "Player N" alike
    (a guest's own seat too: "Guest 1" beside "Player 2" read as two kinds of people) unless the form
    names them (#33: the second player of a passed device could not be named)."""
    named = name.strip()
    if named and (choice == "local" or (choice == "me" and not request.user.is_authenticated)):
        return SeatSpec(named)
    if choice.startswith("bot:") and choice[4:] in bots.LEVELS:
        level = choice[4:]
        return SeatSpec.computer(number + 1, level)
    if choice == "friend":
        return SeatSpec(_("Open seat"), awaiting_player=True)
    if choice == "open":
        return SeatSpec(_("Open seat"), awaiting_player=True, open_to_all=True)
    if choice == "me" and request.user.is_authenticated:
        return SeatSpec(request.user.get_username(), user=request.user)
    if choice == "me" and not passing:
        return SeatSpec(stored_name(GUEST, number), name_role=GUEST)
    return SeatSpec(stored_name(PLAYER, number), name_role=PLAYER)


def _table_kind(request: HttpRequest, kind: str, choices: list[str]) -> str:
    """The kind the form asked for (a form without one makes a casual table: nothing counts unless
    asked); a rated one needs every player of this browser signed in: a guest or a second player
    on this device has no rating to put at stake."""
    if kind == "rated" and not request.user.is_authenticated:
        raise Forbidden("sign_in", _("Sign in to play rated games."))
    if kind == "rated" and "local" in choices:
        raise ServiceError(
            "rated_needs_accounts",
            _("In a rated game every player plays on their own account: choose casual to pass the device."),
        )
    return kind


def _made(request: HttpRequest, game: str, form: NewTableForm) -> HttpResponse | str:
    """The table the valid form asks for, and the page it is played on; or why it cannot be made."""
    players, chosen = form.cleaned_data["players"], form.seats()
    choices = [choice for choice, _name in chosen]
    try:
        if not {"me", "local"} & set(choices):
            raise ServiceError("no_human", _("Take at least one seat yourself."))
        kind = _table_kind(request, form.cleaned_data["kind"], choices)
        # Only the options chosen: the engine fills in the others with the rules' defaults for
        # them (an All Fives table plays to 250 with two players, 200 with three or four).
        try:
            config = engines.compose(game, parse_options(game, request.POST), players)
        except engines.IllegalAction as exc:
            raise ServiceError.from_illegal(exc) from None
        passing = "local" in choices
        specs = [_seat_spec(choice, name, n, request, passing) for n, (choice, name) in enumerate(chosen)]
        table = create_game(
            game,
            config,
            specs,
            kind=kind,
            created_by=request.user if request.user.is_authenticated else None,
            # Left empty: the model's default.
            absent_after=form.cleaned_data["absent_after"],
            # Only the members of one of the player's clubs (#33), or everyone.
            club_id=form.cleaned_data["club"],
        )
    except ServiceError as exc:
        return str(exc.localized()["message"])
    _fresh_session(request)
    for seat in table.seats.all():
        if choices[seat.number] in ("me", "local"):
            seats.remember(request.session, seat)
    return redirect("frontend:table", game_id=table.pk)


def new_table(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_OPTIONS:
        raise Http404
    spec = GAME_OPTIONS[game]
    error = ""
    rated = game in RATED_BY_DEFAULT and request.user.is_authenticated
    shown_players = spec.default_players
    if request.method == "POST":
        form = NewTableForm(request.POST, request.user, spec)
        valid = form.is_valid()
        rated = form.cleaned_data.get("kind") == "rated"
        shown_players = form.players_or(spec.default_players)
        if not valid:
            error = form_errors.sentence(form)
        else:
            answer = _made(request, game, form)
            if isinstance(answer, HttpResponse):
                return answer
            error = answer
    posted = request.POST if request.method == "POST" else None
    if posted is None and any(option.key in request.GET for option in spec.offered(TABLES)):
        # A link may choose options (a lesson's "with friends": Kazino online is one game, a match of
        # its own); they are only where the form starts, and the engine checks them when it is sent.
        posted = request.GET
    context = {
        "game": game,
        "title": titles()[game],
        "spec": spec,
        "players": shown_players,
        "option_fields": fields(game, TABLES, shown_players, posted),
        "option_defaults": {game: defaults_table(game, list(spec.players), TABLES)},
        "seat_choices": SEAT_CHOICES,
        # The other seats: a computer, or a friend when the page was asked for that (a lesson's end).
        "others": "friend" if ShowTableForm(request.GET).friend() else "bot:greedy",
        "error": error,
        "max_players": max(spec.players),
        "rated": rated,
        "absent_after": bounds.ABSENT_AFTER,
        "absent_after_value": bounds.ABSENT_AFTER.parse_or(
            posted.get("absent_after") if posted is not None else None,
            Game._meta.get_field("absent_after").default,
        ),
        "rated_by_default": game in RATED_BY_DEFAULT,
        # "Who may see and join the table": everyone, or the members of one of the player's clubs.
        "my_clubs": member_clubs.my_clubs(request.user),
        "chosen_club": bounds.ID.parse_or(posted.get("club") if posted is not None else None, None),
        # Play now's "if nobody comes, play a computer" (frontend/playnow.py).
        "fallback_range": range(bounds.FALLBACK_MINUTES.low, bounds.FALLBACK_MINUTES.high + 1),
    }
    return render(request, "frontend/new_table.html", context)


def choose_game(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/choose_game.html", {"games": installed()})


def _fresh_session(request: HttpRequest) -> None:
    """A seat's credential is about to ride on this session: give it a new key (as signing in does),
    so that a session key planted in this browser beforehand (session fixation) does not get it."""
    request.session.cycle_key()


def _held(request: HttpRequest, game: Game) -> dict[int, Seat]:
    """The seats this browser plays: a page is authorised by its session, never by a header."""
    return seats.held(seats.Requester.of_request(request, header=False), game)


# What get_object_or_404 says of an id no table has (the 404 page shows no reason: the same page).
NO_GAME = f"No {Game._meta.object_name} matches the given query."


def seen_game(request: HttpRequest, game_id: int) -> Game:
    """The table's game, if this browser may see it (``games.access.seats.may_see``: a secret deal's
    table is its players', organiser's and staff's); otherwise the 404 of an id no table has, word for
    word."""
    game = get_object_or_404(Game.objects.tables(), pk=game_id)
    if not seats.may_see(seats.Requester.of_request(request, header=False), game):
        raise Http404(NO_GAME)
    return game


def table(request: HttpRequest, game_id: int) -> HttpResponse:
    game = seen_game(request, game_id)
    mine = _held(request, game)
    links = []
    if mine:  # the players at the table may pass the open seats' invites on
        for invite in invites.current(game):
            url = reverse("frontend:invite", args=[game.pk, invite.code])
            links.append({"seat": invite.seat.number + 1, "url": request.build_absolute_uri(url)})
    client = {
        "game": game.pk,
        "engine": game.engine,
        # Numbers only: the socket asks for a seat by number and the session proves it is this
        # browser's (docs/live-tables.md).
        "seats": sorted(mine),
        # Undo, redo, restart, hints and pausing the computer players: casual tables only; a rated
        # table offers a rematch once its game is over (games.commands.controls.new_game).
        "casual": game.allows_undo,
        "kind": game.kind,
        # Spectators watch through the spectator edge when there is one (infra/edge/).
        # Not a table whose deal is secret: the edge knows nobody, so it shows such a table to no one,
        # while Daphne's socket lets its organiser watch (games.access.seats.may_see).
        "socket": f"{settings.SPECTATOR_SOCKET}{game.pk}/"
        # Nor a club-only table: the edge cannot tell a member from anyone else.
        if settings.SPECTATOR_SOCKET and not mine and game.club_id is None and not game.deal_is_secret()
        else f"/ws/tables/{game.pk}/",
        "hint": reverse("frontend:hint", args=[game.pk]),
        "rules": reverse("frontend:rules", args=[game.engine]),
        # The players' chat, where the table allows it (chat/service.py: spectators have none).
        "chat": bool(mine) and chat.allowed(game),
    }
    context = {
        "chat_length": bounds.CHAT_TEXT.most,
        "game": game,
        "title": titles().get(game.engine, game.engine),
        "client": client,
        "invites": links,
        "lesson": lessons.client(game),
        # A tournament game shows its round's clock (public: the room screen shows it too).
        "round_clock": round_clock.for_table(game.pk),
    }
    return render(request, "frontend/table.html", context)


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    """An invite link. Opening it only asks (link previews must not take the seat); the POST claims
    it, once (games/access/invites.py). A link that cannot be claimed says why and grants nothing."""
    try:
        if request.method != "POST":
            seat = invites.open_seat(game_id, code, user=request.user)
            title = titles().get(seat.game.engine, seat.game.engine)
            return render(request, "frontend/invite.html", {"seat": seat, "title": title})
        seat = invites.claim(game_id, code, user=request.user)
    except ServiceError as exc:
        return _invite_refused(request, game_id, exc)
    _fresh_session(request)
    seats.remember(request.session, seat)
    return redirect("frontend:table", game_id=game_id)


@require_POST
def take_seat(request: HttpRequest, game_id: int) -> HttpResponse:
    """The lobby's "Take the open seat": a signed-in player takes a seat open to all (#33, finding a
    game); it is theirs on this session, as an invite's would be."""
    if not request.user.is_authenticated:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    try:
        seat = invites.take_open(game_id, user=request.user)
    except ServiceError as exc:
        return _invite_refused(request, game_id, exc)
    _fresh_session(request)
    seats.remember(request.session, seat)
    return redirect("frontend:table", game_id=game_id)


def _invite_refused(request: HttpRequest, game_id: int, exc: ServiceError) -> HttpResponse:
    game = Game.objects.tables().filter(pk=game_id).first()
    if game is not None and not seats.may_see(seats.Requester.of_request(request, header=False), game):
        game = None  # no "Watch the table": the page of a table that does not exist
    context = {"message": exc.localized()["message"], "game": game}
    return render(request, "frontend/invite_refused.html", context, status=exc.status)


@require_http_methods(["GET", "POST"])
def old_invite(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    """The invite links of old, which carried the seat's credential itself: they grant nothing now,
    whatever the token (nothing is looked up), and say so."""
    exc = invites.Gone("old_invite", invites.OLD_LINK)
    return _invite_refused(request, game_id, exc)


@require_GET
def hint(request: HttpRequest, game_id: int) -> JsonResponse:
    """The strong computer player's choice for one of my seats, from that seat's view only; casual
    tables only (a rated or tournament game gets ``no_hint``, checked again by the service)."""
    game = seen_game(request, game_id)
    asked = HintForm(request.GET)
    seat = asked.cleaned_data["seat"] if asked.is_valid() else -1
    mine = _held(request, game)
    if seat not in mine:
        return JsonResponse(
            {"error": {"code": "not_your_seat", "message": _("You do not play this seat.")}}, status=403
        )
    try:
        queries.check_hints(game)
        # A hint is a search by the strong player, the dearest request of the site.
        ratelimit.check_seat(mine[seat].token, group=ratelimit.HINT_GROUP, rate=settings.HINT_RATE_LIMIT)
        action, seq = queries.hint(game, seat)
    except ServiceError as exc:
        return JsonResponse({"error": exc.localized()}, status=exc.status)
    if action is None:
        return JsonResponse(
            {"error": {"code": "not_your_turn", "message": _("It is not your turn.")}}, status=409
        )
    return JsonResponse({"action": action, "seq": seq})


def rules_body(game: str, language: str) -> list[str]:
    """The rules text in ``language`` (``rules/GAME_body.LANG.html``), else the English one: a list
    for ``{% include %}``, which takes the first template that exists.

    Rules are translated as whole pages, not sentence by sentence: each language's page follows the
    original rules it was written from (docs/glossary.md), with our decisions added.
    """
    names = [f"frontend/rules/{game}_body.html"]
    if language and language != "en":
        names.insert(0, f"frontend/rules/{game}_body.{language}.html")
    return names


def rules(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_OPTIONS:
        raise Http404
    context = {"game": game, "title": titles()[game], "body": rules_body(game, get_language())}
    # One page for every game: the game's own text is its body (rules_body).
    return render(request, "frontend/rules/page.html", context)
