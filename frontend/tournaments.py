"""Tournament pages: the list, the new-tournament form, the public page with the organiser's controls, exports."""

from __future__ import annotations

import csv
import re
from collections.abc import Collection
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_GET, require_POST

from frontend.bracket_svg import bracket_svg, describe
from frontend.options import GAME_OPTIONS, TOURNAMENTS, defaults_table, fields, parse_options
from games import computers, streams
from games import service as games
from games.catalogue import titles
from games.errors import ServiceError
from tournaments import deals, estimate, formats, log, service
from tournaments.models import Club, Entry, Match, Round, Tournament
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


def table_label(key: str) -> str:
    """A table as players call it: "R2-T3" is table 3 (of round 2); a bracket match keeps its name."""
    found = re.fullmatch(r"R\d+-T(\d+)", key)
    return found.group(1) if found else key


def _bracket(
    row: Tournament, entries: dict[int, Entry], matches: list[Match], live: Collection[str] = ()
) -> str:
    """The bracket drawn from the projection rows (a page view never folds the tournament's log);
    ``live``: the matches being played, framed."""
    seeding = [e.number for e in sorted(entries.values(), key=lambda e: e.seed or 0) if e.seed is not None]
    if row.format not in ("single_elimination", "double_elimination") or not seeding:
        return ""
    decided = [(m.key, _winner(m.entrants, m.result["places"])) for m in matches if m.result]
    return bracket_svg(formats.bracket_of(row.format, row.options, seeding, decided), entries, live)


def _bracket_details(row: Tournament, entries: dict[int, Entry], matches: list[Match]) -> list[Any]:
    """Each bracket match in words, for the line under the bracket a tap or focus shows."""
    seeding = [e.number for e in sorted(entries.values(), key=lambda e: e.seed or 0) if e.seed is not None]
    if row.format not in ("single_elimination", "double_elimination") or not seeding:
        return []
    decided = [(m.key, _winner(m.entrants, m.result["places"])) for m in matches if m.result]
    drawn = formats.bracket_of(row.format, row.options, seeding, decided)
    live = {m.key: m.live[0].game_id for m in matches if m.live}  # type: ignore[attr-defined]
    return [
        {"key": m.id, "text": describe(m, entries, m.id in live), "watch": live.get(m.id)}
        for m in drawn.matches
    ]


def _winner(entrants: list[int], places: dict[str, int]) -> int:
    return min(entrants, key=lambda e: (places[str(e)], e))


# A place at a table, in words ("1st"); past the eighth, the number.
ORDINALS = {
    1: pgettext_lazy("place", "1st"),
    2: pgettext_lazy("place", "2nd"),
    3: pgettext_lazy("place", "3rd"),
    4: pgettext_lazy("place", "4th"),
    5: pgettext_lazy("place", "5th"),
    6: pgettext_lazy("place", "6th"),
    7: pgettext_lazy("place", "7th"),
    8: pgettext_lazy("place", "8th"),
}


def place_words(places: list[int | None]) -> list[tuple[str, str]]:
    """Each entrant's result in words and as a class: two at a table "won" / "lost" / "drawn"; more,
    their place ("1st", "2nd"…, shared places alike)."""
    if any(p is None for p in places):
        return [("", "")] * len(places)
    if len(places) == 2:
        if places[0] == places[1]:
            return [(_("drawn"), "drawn")] * 2
        return [(_("won"), "won") if p == 1 else (_("lost"), "lost") for p in places]
    return [(str(ORDINALS.get(int(p or 0), p)), "won" if p == 1 else "place") for p in places]


def _lines(
    row: Tournament,
    matches: list[Match],
    entries: dict[int, Entry],
    mine: Entry | None,
    rounds: dict[int, Round],
) -> None:
    """What a round's card says of each match: its table, each side's name and result in words, whether
    it is being played, decided, forfeited, or its result withheld (duplicate deals still in play)."""
    for match in matches:
        places = (match.result or {}).get("places", {})
        shown = [places.get(str(e)) for e in match.entrants]
        words = place_words(shown)
        absent = set(match.forfeit or [])
        sides = []
        for k, e in enumerate(match.entrants):
            entry = entries.get(e)
            word, cls = words[k]
            if absent and match.result:
                word = _("absent (forfeit)") if e in absent else _("won by forfeit")
            sides.append(
                {
                    "number": e,
                    "name": entry.shown_name if entry else str(e),
                    "members": list(entry.members) if entry else [],
                    "seed": entry.seed if entry else None,
                    "place": shown[k],
                    "word": word,
                    "cls": cls,
                    "mine": mine is not None and e == mine.number,
                }
            )
        games = list(match.games.all())
        match.label = table_label(match.key)  # type: ignore[attr-defined]
        match.sides = sides  # type: ignore[attr-defined]
        match.names = [s["name"] for s in sides]  # type: ignore[attr-defined]
        match.places = shown  # type: ignore[attr-defined]
        # A decided match plays no more: a game left unfinished (stopped by a forfeit) is not live.
        match.live = [] if match.result else [g for g in games if not g.finished]  # type: ignore[attr-defined]
        match.finished_games = [g for g in games if g.finished]  # type: ignore[attr-defined]
        rnd = rounds.get(match.round)
        if match.result:
            state = "decided"
        elif match.live:  # type: ignore[attr-defined]
            state = "live"
        elif games and row.options.get("duplicate"):
            state = "withheld"  # its games are over; their deals are still being played elsewhere
        elif rnd is not None and rnd.started:
            state = "waiting"
        else:
            state = "paired"
        match.state = state  # type: ignore[attr-defined]


def _stage(row: Tournament, current: Round | None) -> str:
    """Where the tournament is, for the organiser's console: ``before`` the start, ``between`` rounds
    (the next one paired and waiting to start, or not paired yet), ``during`` a round, ``over``."""
    if row.status == "registration":
        return "before"
    if row.status == "finished":
        return "over"
    if current is not None and current.started and not current.complete:
        return "during"
    return "between"


def _chosen_round(request: HttpRequest, row: Tournament, numbers: list[int]) -> int:
    """The round whose tab is open: the one in the address (``?round=N``), else the current one."""
    wanted = _int(request.GET.get("round"), 0)
    if wanted in numbers:
        return wanted
    return numbers[-1] if numbers else 0


def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    row = _get(tournament_id)
    entries = {e.number: e for e in Entry.objects.filter(tournament=row)}
    round_rows = {r.number: r for r in row.rounds.all()}
    matches = list(Match.objects.filter(tournament=row).prefetch_related("games"))
    user: Any = request.user
    mine = next((e for e in entries.values() if user.is_authenticated and e.user_id == user.pk), None)
    _lines(row, matches, entries, mine, round_rows)
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round, []).append(match)
    standings = sorted(entries.values(), key=lambda e: (e.rank is None, e.rank or 0, e.seed or 0, e.number))
    organiser = _organiser(request, row)
    # The organiser holds a live table with Pause and lets it go on with Resume (tournaments.service).
    live = [g.game_id for m in matches for g in m.live]  # type: ignore[attr-defined]
    paused = games.paused(live) if organiser and live else set()
    current = round_rows[max(round_rows)] if round_rows else None
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
    editable = organiser and current is not None and not current.started and row.status != "finished"
    names = {n: e.shown_name for n, e in entries.items()}
    numbers = sorted(set(round_rows) | set(by_round))
    chosen = _chosen_round(request, row, numbers)
    rounds = [
        {
            "number": n,
            "matches": by_round.get(n, []),
            "byes": [names.get(e, str(e)) for e in (round_rows[n].byes if n in round_rows else [])],
            "half_byes": [names.get(e, str(e)) for e in (round_rows[n].half_byes if n in round_rows else [])],
            "started": n in round_rows and round_rows[n].started,
            "complete": n in round_rows and round_rows[n].complete,
            "over_the_board": n in round_rows and round_rows[n].over_the_board,
            "live": any(m.state == "live" for m in by_round.get(n, [])),  # type: ignore[attr-defined]
            "withheld": any(m.state == "withheld" for m in by_round.get(n, [])),  # type: ignore[attr-defined]
        }
        for n in numbers
    ]
    knockout = row.format in ("single_elimination", "double_elimination", "table_elimination")
    current_matches = by_round.get(current.number, []) if current is not None else []
    criteria = _criteria(row)
    context = {
        "t": row,
        "current_round": current,
        "titles": titles(),
        "format_name": FORMAT_NAMES.get(row.format, row.format),
        "standings": standings,
        "columns": [(c, CRITERION_NAMES.get(c, c), CRITERION_HELP.get(c, "")) for c in criteria],
        "explained": [(CRITERION_NAMES[c], CRITERION_HELP[c]) for c in criteria if c in CRITERION_HELP],
        "rounds": rounds,
        "chosen_round": chosen,
        "bracket": _bracket(row, entries, matches, {m.key for m in matches if m.state == "live"}),  # type: ignore[attr-defined]
        "bracket_details": _bracket_details(row, entries, matches),
        "organiser": organiser,
        "console": organiser and row.status != "finished",
        "stage": _stage(row, current),
        "paused": paused,
        "mine": mine,
        "can_register": user.is_authenticated and mine is None and (row.status == "registration" or late),
        "late": late,
        "half_allowed": allowed,
        "bye_rounds": bye_rounds,
        "editable": editable,
        "round_matches": current_matches if editable else [],
        "current_matches": current_matches,
        "correctable": not knockout,  # a knockout corrects only its current round (service.override)
        "can_add": row.status == "registration" or (late and row.status != "finished"),
        "active_entries": [e for e in standings if not e.withdrawn],
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
