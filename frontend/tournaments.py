"""Tournament pages: the list, the new-tournament form, the public page with the organiser's controls, exports."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from frontend.bracket_svg import bracket_svg
from frontend.options import GAME_OPTIONS, TOURNAMENTS, defaults_table, fields, parse_options
from games import computers, streams
from games import service as games
from games.catalogue import titles
from games.errors import ServiceError
from tournaments import deals, estimate, formats, log, service
from tournaments.models import Club, Entry, Match, Tournament
from tournaments.standings import CRITERIA

FORMAT_NAMES = {
    "single_elimination": gettext_lazy("Single elimination"),
    "double_elimination": gettext_lazy("Double elimination"),
    "round_robin": gettext_lazy("Round robin"),
    "swiss": gettext_lazy("Swiss"),
    "table_elimination": gettext_lazy("Table elimination"),
}
CRITERION_NAMES = {
    "match_points": gettext_lazy("Points"),
    "placement_points": gettext_lazy("Placement points"),
    "game_points": gettext_lazy("Game points"),
    "point_difference": gettext_lazy("Point difference"),
    "buchholz": gettext_lazy("Buchholz"),
    "buchholz_cut1": gettext_lazy("Buchholz cut 1"),
    "buchholz_median": gettext_lazy("Median Buchholz"),
    "sonneborn_berger": gettext_lazy("Sonneborn-Berger"),
    "head_to_head": gettext_lazy("Head to head"),
    "wins": gettext_lazy("Wins"),
    "matchpoints": gettext_lazy("Matchpoints"),
}
assert set(CRITERIA) <= set(CRITERION_NAMES)
# What each tie-break means, for the standings' headers and the page's help (docs/tournaments.md).
CRITERION_HELP = {
    "match_points": gettext_lazy(
        "Points from the matches: a win 1, a draw ½, a loss 0 (at a table: placement points), and a bye's points."
    ),
    "placement_points": gettext_lazy("Points from places at the tables, without byes."),
    "game_points": gettext_lazy("The points scored in the games themselves."),
    "point_difference": gettext_lazy("Points scored minus the opponents' average, game by game."),
    "buchholz": gettext_lazy(
        "The sum of the opponents' points: the stronger your opponents, the higher. A round not played counts as against a virtual opponent."
    ),
    "buchholz_cut1": gettext_lazy("Buchholz without the weakest opponent."),
    "buchholz_median": gettext_lazy("Buchholz without the weakest and the strongest opponent."),
    "sonneborn_berger": gettext_lazy(
        "The points of the opponents you beat, and half of those you drew with."
    ),
    "head_to_head": gettext_lazy("The results between the players still tied."),
    "wins": gettext_lazy("Matches won outright (a forfeit is not a win)."),
    "matchpoints": gettext_lazy(
        "Duplicate: 2 for each table where the same seat, with the same cards, did worse, 1 for each where it did as well."
    ),
}
assert set(CRITERION_NAMES) == set(CRITERION_HELP)


LIST_LENGTH = 100


def _older_repeats(rows: Any) -> list[int]:
    """Tournaments that start again when they end (``repeat``: the demo club's) are one series per
    club, game and name: all but the newest of each series."""
    newest: set[tuple[Any, ...]] = set()
    older: list[int] = []
    series = rows.filter(options__repeat=True).order_by("-pk").values_list("pk", "club_id", "game", "name")
    for pk, club_id, game, name in series:
        if (club_id, game, name) in newest:
            older.append(pk)
        else:
            newest.add((club_id, game, name))
    return older


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Tournaments, newest first, filtered by game, club and status (GET parameters); a repeating
    tournament is shown once, its newest."""
    rows = Tournament.objects.select_related("club")
    game, club, status = (request.GET.get(k, "") for k in ("game", "club", "status"))
    names = titles()
    if game in names:
        rows = rows.filter(game=game)
    clubs = list(Club.objects.filter(tournaments__isnull=False).distinct().order_by("name"))
    if club == "none":
        rows = rows.filter(club__isnull=True)
    elif club:
        rows = rows.filter(club__slug=club)
    if status in Tournament.Status.values:
        rows = rows.filter(status=status)
    rows = rows.exclude(pk__in=_older_repeats(rows))
    context = {
        "tournaments": rows.order_by("-pk")[:LIST_LENGTH],
        "titles": names,
        "format_names": FORMAT_NAMES,
        "clubs": clubs,
        "statuses": Tournament.Status.choices,
        "chosen": {"game": game, "club": club, "status": status},
        "filtered": bool(game or club or status),
    }
    return render(request, "frontend/tournaments/list.html", context)


# A cell starting with one of these is a formula to a spreadsheet (OWASP "CSV injection"): a name such
# as =HYPERLINK(...) would run when the organiser opens the export.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: str) -> str:
    """A text cell a spreadsheet shows as text: a leading formula sign gets a single quote before it."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _posted(post: Any) -> tuple[str, str, dict[str, Any]]:
    """The game, the format and the options of the tournament form (the options of the chosen game
    only, from its own fields ``GAME-KEY``; the engine fills in the rest when a table is made)."""
    game = post.get("game", "")
    options: dict[str, Any] = {
        "table_size": _int(post.get("table_size"), 2),
        "best_of": _int(post.get("best_of"), 1),
        "spectator_delay": _int(post.get("spectator_delay"), 0),
        "no_show_after": 60 * _int(post.get("no_show_minutes"), 0),
    }
    if post.get("rounds"):
        options["rounds"] = _int(post.get("rounds"), 0)
    for flag in ("third_place", "duplicate", "partnerships", "check_in", "late_entry"):
        if post.get(flag):
            options[flag] = True
    options["reset"] = bool(post.get("reset"))
    tiebreaks = [c for c in post.getlist("tiebreak") if c]
    if tiebreaks and post.getlist("tiebreak")[0]:
        options["tiebreaks"] = list(dict.fromkeys(tiebreaks))
    if post.get("registration_closes"):
        options["registration_closes"] = post["registration_closes"]
    options["auto_start"] = not post.get("manual_rounds")
    if game in GAME_OPTIONS:
        chosen = parse_options(game, post, prefix=f"{game}-", where=TOURNAMENTS)
        if chosen:
            options["game_config"] = chosen
    return game, post.get("format", ""), options


def _table_players(game: str, post: Any) -> int:
    """The players at a table of the form's tournament (for the defaults the form shows first)."""
    players = 4 if post.get("partnerships") else _int(post.get("table_size"), 2)
    spec = GAME_OPTIONS[game]
    return players if players in spec.players else spec.default_players


def estimate_text(found: estimate.RoundLength | None) -> str:
    """ "A round takes about 40 minutes (best of 3)", in the reader's language ("" without figures)."""
    if found is None:
        return ""
    if found.best_of == 1:
        return ngettext(
            "A round takes about %(minutes)s minute (one game).",
            "A round takes about %(minutes)s minutes (one game).",
            found.minutes,
        ) % {"minutes": found.minutes}
    return ngettext(
        "A round takes about %(minutes)s minute (best of %(games)s).",
        "A round takes about %(minutes)s minutes (best of %(games)s).",
        found.minutes,
    ) % {"minutes": found.minutes, "games": found.best_of}


def estimate_basis(found: estimate.RoundLength | None) -> str:
    """Where the estimate comes from, in a sentence."""
    if found is None:
        return ""
    game = found.game
    seconds = round(game.pace)
    if game.source == estimate.MEASURED:
        return ngettext(
            "From %(count)s game of these options played here.",
            "From %(count)s games of these options played here.",
            game.games,
        ) % {"count": game.games}
    if game.source == estimate.MOVES:
        return ngettext(
            "From the moves of %(count)s game played here, at %(seconds)s seconds a move.",
            "From the moves of %(count)s games played here, at %(seconds)s seconds a move.",
            game.games,
        ) % {"count": game.games, "seconds": seconds}
    return _(
        "From games between computer players, at %(seconds)s seconds a move, until %(count)s games "
        "of these options have been played here."
    ) % {"seconds": seconds, "count": estimate.ENOUGH}


def _estimate(game: str, fmt: str, options: dict[str, Any]) -> estimate.RoundLength | None:
    try:
        return estimate.for_tournament(game, service.validate_options(game, fmt or "swiss", options))
    except ServiceError:
        return None


@require_GET
def estimate_view(request: HttpRequest) -> JsonResponse:
    """The round length of the tournament form's current choices (the form's script asks as they
    change): ``{"minutes", "best_of", "source", "text", "basis"}``, or the error that would refuse
    the tournament."""
    game, fmt, options = _posted(request.GET)
    try:
        checked = service.validate_options(game, fmt or "swiss", options)
    except ServiceError as exc:
        return JsonResponse({"error": exc.localized()}, status=exc.status)
    found = estimate.for_tournament(game, checked)
    if found is None:
        return JsonResponse({"minutes": None, "text": "", "basis": ""})
    return JsonResponse(
        {
            "minutes": found.minutes,
            "best_of": found.best_of,
            "source": found.game.source,
            "text": estimate_text(found),
            "basis": estimate_basis(found),
        }
    )


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    post = request.POST
    names = titles()
    chosen_game = str(post.get("game")) if post.get("game") in GAME_OPTIONS else next(iter(names), "")
    context: dict[str, Any] = {
        "titles": names,
        "formats": FORMAT_NAMES,
        "values": post,
        "criteria": [(c, CRITERION_NAMES[c]) for c in CRITERIA],
        "tiebreak_slots": range(1, 5),
        "game_options": [
            (
                key,
                title,
                fields(
                    key,
                    TOURNAMENTS,
                    _table_players(key, post),
                    post if request.method == "POST" and key == chosen_game else None,
                    prefix=f"{key}-",
                ),
            )
            for key, title in names.items()
            if key in GAME_OPTIONS
        ],
        "option_defaults": {
            key: defaults_table(key, list(spec.players), TOURNAMENTS) for key, spec in GAME_OPTIONS.items()
        },
    }
    game, fmt, options = _posted(post)
    found = _estimate(chosen_game, fmt, options) if game == chosen_game else _estimate(chosen_game, "", {})
    context["estimate"], context["estimate_basis"] = estimate_text(found), estimate_basis(found)
    if request.method == "POST":
        try:
            row = service.create(post.get("name", ""), game, fmt, options, by=request.user)
        except ServiceError as exc:
            context["error"] = exc.localized()["message"]
        else:
            return redirect("frontend:tournament", row.pk)
    return render(request, "frontend/tournaments/new.html", context)


def _organiser(request: HttpRequest, row: Tournament) -> bool:
    user: Any = request.user
    return bool(user.is_authenticated and (user.is_staff or row.created_by_id == user.pk))


def _criteria(row: Tournament) -> list[str]:
    return formats.criteria_for(row.format, row.options) + (
        ["matchpoints"] if row.options.get("duplicate") else []
    )


def _bracket(row: Tournament, entries: dict[int, Entry], matches: list[Match]) -> str:
    """The bracket drawn from the projection rows (a page view never folds the tournament's log)."""
    seeding = [e.number for e in sorted(entries.values(), key=lambda e: e.seed or 0) if e.seed is not None]
    if row.format not in ("single_elimination", "double_elimination") or not seeding:
        return ""
    decided = [(m.key, _winner(m.entrants, m.result["places"])) for m in matches if m.result]
    return bracket_svg(formats.bracket_of(row.format, row.options, seeding, decided), entries)


def _winner(entrants: list[int], places: dict[str, int]) -> int:
    return min(entrants, key=lambda e: (places[str(e)], e))


def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    entries = {e.number: e for e in Entry.objects.filter(tournament=row)}
    rounds: dict[int, list[Match]] = {}
    matches = list(Match.objects.filter(tournament=row).prefetch_related("games"))
    for match in matches:
        match.names = [entries[e].shown_name for e in match.entrants]  # type: ignore[attr-defined]
        places = (match.result or {}).get("places", {})
        match.places = [places.get(str(e)) for e in match.entrants]  # type: ignore[attr-defined]
        match.live = [g for g in match.games.all() if not g.finished]  # type: ignore[attr-defined]
        rounds.setdefault(match.round, []).append(match)
    standings = sorted(entries.values(), key=lambda e: (e.rank is None, e.rank or 0, e.seed or 0, e.number))
    organiser = _organiser(request, row)
    # The organiser holds a live table with Pause and lets it go on with Resume (tournaments.service).
    live = [g.game_id for m in matches for g in m.live]  # type: ignore[attr-defined]
    paused = games.paused(live) if organiser and live else set()
    user: Any = request.user
    mine = next((e for e in entries.values() if user.is_authenticated and e.user_id == user.pk), None)
    current = row.rounds.last()
    late = (
        bool(row.options.get("late_entry")) and row.format == "swiss" and row.status in ("running", "paused")
    )
    allowed = int(row.options.get("half_point_byes") or 0)
    bye_rounds: list[int] = []
    if (
        mine is not None
        and allowed
        and row.planned_rounds
        and row.status != "finished"
        and not mine.withdrawn
    ):
        last = row.planned_rounds - int(row.options.get("no_byes_last_rounds") or 0)
        if len(mine.bye_requests) < allowed:
            bye_rounds = [n for n in range(row.round + 1, last + 1) if n not in mine.bye_requests]
    editable = (
        _organiser(request, row) and current is not None and not current.started and row.status != "finished"
    )
    context = {
        "t": row,
        "current_round": row.rounds.last(),
        "titles": titles(),
        "format_name": FORMAT_NAMES.get(row.format, row.format),
        "standings": standings,
        "columns": [(c, CRITERION_NAMES.get(c, c)) for c in _criteria(row)],
        "explained": [(CRITERION_NAMES[c], CRITERION_HELP[c]) for c in _criteria(row) if c in CRITERION_HELP],
        "rounds": sorted(rounds.items(), reverse=True),
        "bracket": _bracket(row, entries, matches),
        "organiser": organiser,
        "paused": paused,
        "mine": mine,
        "can_register": user.is_authenticated and mine is None and (row.status == "registration" or late),
        "late": late,
        "half_allowed": allowed,
        "bye_rounds": bye_rounds,
        "editable": editable,
        "round_matches": [m for m in matches if current is not None and m.round == current.number]
        if editable
        else [],
        "locked": set(current.locked) if current is not None else set(),
        "pairing_edits": service.EDITS,
        "computer_levels": list(computers.LEVEL_NAMES.items()),
        "estimate": estimate_text(_round_length(row)) if row.status != "finished" else "",
    }
    return render(request, "frontend/tournaments/page.html", context)


def _round_length(row: Tournament) -> estimate.RoundLength | None:
    try:
        return estimate.for_tournament(row.game, row.options)
    except ServiceError:
        return None  # options an older version allowed: no estimate rather than an error page


def _get(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("There is no such tournament.")) from None


@require_POST
def act(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every button of the page: the command named by ``action``; errors come back as a message."""
    row = _get(tournament_id)
    user: Any = request.user
    by = user if user.is_authenticated else None
    post = request.POST
    action = post.get("action", "")
    try:
        if by is None:
            raise ServiceError("sign_in", _("Sign in first."))
        if action == "register":
            service.register(row, user.get_username(), user=user, missed=post.get("missed", "zero"))
        elif action == "add_bot":
            service.check_organiser(row, by)
            # A computer entrant is named by its number and level ("Computer 3 (Strong)").
            service.register(row, "", bot_level=post.get("level", "greedy"), by=by)
        elif action == "check_in":
            service.check_in(row, _int(post.get("entrant"), 0), by=by)
        elif action == "withdraw":
            service.withdraw(row, _int(post.get("entrant"), 0), by=by)
        elif action == "seed":
            method = post.get("method", "random")
            order = (
                [_int(n, 0) for n in post.get("order", "").replace(",", " ").split()]
                if method == "manual"
                else None
            )
            service.seed(row, method, order, by=by)
        elif action == "start":
            service.start(row, by=by)
        elif action == "start_round":
            service.start_round(row, by=by)
        elif action == "repair":
            service.repair(row, by=by)
        elif action == "pause":
            service.pause(row, by=by)
        elif action == "resume":
            service.resume(row, by=by)
        elif action == "pause_table":
            service.pause_table(row, _int(post.get("game"), 0), by=by)
        elif action == "resume_table":
            service.resume_table(row, _int(post.get("game"), 0), by=by)
        elif action == "override":
            key = post.get("match", "")
            match = Match.objects.filter(tournament=row, key=key).first()
            if match is None:
                raise ServiceError("unknown_match", _("There is no such match."))
            places = {str(e): _int(post.get(f"place-{e}"), 0) for e in match.entrants}
            service.override(row, key, places, None, post.get("reason", ""), by=by)
        elif action == "set_rounds":
            service.set_rounds(row, _int(post.get("rounds"), 0), post.get("reason", ""), by=by)
        elif action in ("request_bye", "cancel_bye"):
            command = service.request_bye if action == "request_bye" else service.cancel_bye
            command(row, _int(post.get("entrant"), 0), _int(post.get("round"), 0), by=by)
        elif action == "edit_pairing":
            warnings = service.edit_pairing(
                row,
                post.get("edit", ""),
                a=_int(post.get("a"), 0) or None,
                b=_int(post.get("b"), 0) or None,
                table=post.get("table") or None,
                reason=post.get("reason", ""),
                by=by,
            )
            names = {e.number: e.shown_name for e in row.entries.all()}
            for warning in warnings:
                messages.warning(request, _warning_text(warning, names))
        elif action == "forfeit":
            service.forfeit(
                row, post.get("match", ""), [_int(post.get("entrant"), 0)], post.get("reason", ""), by=by
            )
        else:
            raise ServiceError("unknown_action", _("Unknown action."))
    except ServiceError as exc:
        messages.error(request, exc.localized()["message"])
    return redirect("frontend:tournament", row.pk)


def _warning_text(warning: formats.PairingWarning, names: dict[int, str]) -> str:
    who = " · ".join(names.get(e, str(e)) for e in warning.entrants)
    if warning.code == "repeat":
        return _("%(table)s: %(names)s have met before.") % {"table": warning.table, "names": who}
    return _("%(table)s: %(names)s do not share a score.") % {"table": warning.table, "names": who}


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    criteria = _criteria(row)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{row.pk}-standings.csv"'
    writer = csv.writer(response)
    header = [_("Rank"), _("Entrant"), *[str(CRITERION_NAMES.get(c, c)) for c in criteria]]
    writer.writerow([spreadsheet_text(h) for h in header])
    for entry in Entry.objects.filter(tournament=row).order_by("rank", "seed", "number"):
        # Ranks and tie-break values are the server's numbers; the name is whatever was typed (a
        # computer's as the pages call it).
        writer.writerow(
            [
                entry.rank or "",
                spreadsheet_text(entry.shown_name),
                *[entry.values.get(c, "") for c in criteria],
            ]
        )
    return response


def log_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The whole tournament log, as anyone may read it: the seeds that would let anyone work out the
    deals are left out, and so are the results of duplicate deals still to be played elsewhere
    (tournaments/deals.py). An event shown in part carries no hash (it would not check)."""
    row = _get(tournament_id)
    stored = streams.read(row.stream_id)
    hidden = deals.withheld(log.fold([e.as_dict() for e in stored]))
    events = []
    for e in stored:
        redacted = deals.redact(e.type, e.data, hidden)
        event = {
            "seq": e.seq,
            "type": e.type,
            "data": e.data if redacted is None else redacted,
            "actor": e.actor,
            "at": e.created_at.isoformat(),
        }
        if redacted is None:
            event["hash"] = e.hash
        events.append(event)
    body = {"tournament": row.pk, "name": row.name, "game": row.game, "format": row.format, "events": events}
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tournament-{row.pk}-log.json"'
    return response
