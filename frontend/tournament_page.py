"""The tournament's page: standings, rounds and their tables, the bracket, and for the organiser
the console's parts (the results desk, the undo offer, pairing warnings; its actions are
frontend/console.py).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from frontend import round_clock, seating_advice
from frontend import tournament_forms as console_forms
from frontend.bracket_svg import bracket_svg, describe
from frontend.match_names import match_title, namer, table_label
from frontend.match_scores import score
from frontend.query_forms import RoundQuery
from frontend.tournament_estimates import _round_length, board_estimate_text, estimate_text
from frontend.tournaments import (
    CRITERION_HELP,
    CRITERION_NAMES,
    FORMAT_NAMES,
    _criteria,
    _get,
    _organiser,
    place_words,
)
from games import bounds
from games.eventlog import queries, streams
from games.words import computers
from games.words.catalogue import titles
from tournaments import (
    board,
    board_pace,
    deals,
    formats,
    log,
    projection,
    round_warnings,
    service,
    undo,
)
from tournaments.models import Entry, Match, Round, Tournament


def _bracket(
    row: Tournament, entries: dict[int, Entry], matches: list[Match], live: Collection[str] = ()
) -> str:
    """The bracket drawn from the projection rows (a page view never folds the tournament's log);
    ``live``: the matches being played, framed."""
    drawn = _drawn(row, entries, matches)
    if drawn is None:
        return ""
    name = namer(row)
    titles = {m.id: name(m.id) for m in drawn.matches}
    return bracket_svg(drawn, entries, live, scores=match_scores(row, matches), titles=titles)


def _drawn(row: Tournament, entries: dict[int, Entry], matches: list[Match]) -> Any:
    seeding = [e.number for e in sorted(entries.values(), key=lambda e: e.seed or 0) if e.seed is not None]
    if row.format not in ("single_elimination", "double_elimination") or not seeding:
        return None
    decided = [(m.key, _winner(m.entrants, m.result["places"])) for m in matches if m.result]
    return formats.bracket_of(row.format, row.options, seeding, decided)


def match_scores(row: Tournament, matches: list[Match]) -> dict[str, dict[int, int]]:
    """Each match's games won by entrant ("2–1" in a best of 3), for the matches that have a score."""
    best_of = int(row.options.get("best_of", 1))
    out: dict[str, dict[int, int]] = {}
    for m in matches:
        found = score(m, best_of)
        if found is not None:
            out[m.key] = dict(zip(m.entrants, found.wins, strict=True))
    return out


def _bracket_details(row: Tournament, entries: dict[int, Entry], matches: list[Match]) -> list[Any]:
    """Each bracket match in words, for the line under the bracket a tap or focus shows."""
    drawn = _drawn(row, entries, matches)
    if drawn is None:
        return []
    live = {m.key: m.live[0].game_id for m in matches if m.live}  # type: ignore[attr-defined]
    mine = {m.key for m in matches if getattr(m, "mine", False)}
    scores = match_scores(row, matches)
    name = namer(row)
    return [
        {
            "key": m.id,
            "text": describe(m, entries, m.id in live, scores.get(m.id), name(m.id)),
            "watch": live.get(m.id),
            "mine": m.id in mine,  # the reader plays it: "Play now", not "Watch" (#30 defect 9)
        }
        for m in drawn.matches
    ]


def _winner(entrants: list[int], places: dict[str, int]) -> int:
    return min(entrants, key=lambda e: (places[str(e)], e))


def _lines(
    row: Tournament,
    matches: list[Match],
    entries: dict[int, Entry],
    mine: Entry | None,
    rounds: dict[int, Round],
    held: dict[str, int] | None = None,
) -> None:
    """What a round's card says of each match: its table, each side's name and result in words, whether
    it is being played, decided, forfeited, or its result withheld (duplicate deals still in play).
    ``held`` (``deals.held_back``): tables shown as they stood at their first withheld game."""
    held = held or {}
    name = namer(row)
    best_of = int(row.options.get("best_of", 1))
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
            if e in (match.stand_ins or []):  # the rules of absence (#30): placed last
                absent_word = _("absent: a computer played their seat")
                word = f"{word} · {absent_word}" if word else absent_word
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
        if match.key in held:
            # Nothing after the first withheld game: a third game, or none, would tell the second's result.
            games = [g for g in games if g.number <= held[match.key]]
        match.label = table_label(match.key)  # type: ignore[attr-defined]
        match.label_text = name(match.key)  # type: ignore[attr-defined]
        found = score(match, best_of)
        # The score in games, the winner's count first once decided ("2–1"); in play, in seat order.
        winner = next((k for k, s in enumerate(sides) if s["place"] == 1), None) if match.result else None
        match.score = found.text(winner) if found else ""  # type: ignore[attr-defined]
        for k, side in enumerate(sides):
            side["games_won"] = found.wins[k] if found else None
        match.sides = sides  # type: ignore[attr-defined]
        match.names = [s["name"] for s in sides]  # type: ignore[attr-defined]
        match.places = shown  # type: ignore[attr-defined]
        # A decided match plays no more: a game left unfinished (stopped by a forfeit) is not live.
        match.live = [] if match.result or match.key in held else [g for g in games if not g.finished]  # type: ignore[attr-defined]
        match.finished_games = [g for g in games if g.finished]  # type: ignore[attr-defined]
        # The reader's own live game is theirs to play, not to watch (#30 defect 9).
        match.mine = any(s["mine"] for s in sides)  # type: ignore[attr-defined]
        rnd = rounds.get(match.round)
        # A table played with real cards: the game being entered, its entry and its disputes (#30).
        sheet = list(match.board or [])
        done = sum(1 for g in sheet if g.get("places"))
        entry = sheet[done] if len(sheet) > done else None
        names = {s["number"]: s["name"] for s in sides}
        match.disputes = [  # type: ignore[attr-defined]
            {"name": names.get(d.get("entrant"), ""), "reason": d.get("reason", "")}
            for d in (entry or {}).get("disputes", [])
        ]
        entered = entry is not None and entry.get("hands") is not None
        match.entered_by = names.get((entry or {}).get("entered_by"), "") if entered else ""  # type: ignore[attr-defined]
        match.unconfirmed = [  # type: ignore[attr-defined]
            s["name"] for s in sides if entered and s["number"] not in board.answered(entry or {})
        ]
        if match.key in held:
            state = "withheld"
        elif match.result:
            state = "decided"
        elif match.disputes:  # type: ignore[attr-defined]
            state = "disputed"
        elif entered:
            state = "entered"  # waiting for the other players to confirm it
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
    wanted = RoundQuery(request.GET).value("round", 0)
    if wanted in numbers:
        return wanted
    return numbers[-1] if numbers else 0


def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return page(request, _get(tournament_id))


def page(
    request: HttpRequest, row: Tournament, *, status: int = 200, typed: dict[str, Any] | None = None
) -> HttpResponse:
    """The tournament's page; ``typed``: an action's form sent again (frontend/console.py) — its
    ``action``, what was typed (``data``) and a ``question`` to confirm it — shown filled in."""
    entries = {e.number: e for e in Entry.objects.filter(tournament=row)}
    round_rows = {r.number: r for r in row.rounds.all()}
    matches = list(Match.objects.filter(tournament=row).prefetch_related("games"))
    user: Any = request.user
    mine = next((e for e in entries.values() if user.is_authenticated and e.user_id == user.pk), None)
    organiser = _organiser(request, row)
    # The organiser holds and watches every table; everyone else sees a table with a withheld result
    # as it stood then (#37). Folded only while a duplicate round may hold something back.
    held: dict[str, int] = {}
    public_seq = row.seq
    if row.options.get("duplicate") and row.status != "finished":
        stored = streams.read(row.stream_id)
        t = log.fold([e.as_dict() for e in stored])
        # The page's seq is the public log's (the socket's nudges say the same): it counts no event
        # held back, for the organiser too, or their page would wait for a nudge that never comes.
        public_seq = deals.public_seq([(e.seq, e.type, e.data) for e in stored], deals.withheld(t))
        if not organiser:
            held = deals.held_back(t)
    if mine is not None:  # one's own match is one's own to play on
        held = {
            k: n
            for k, n in held.items()
            if not any(m.key == k and mine.number in m.entrants for m in matches)
        }
    _lines(row, matches, entries, mine, round_rows, held)
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round, []).append(match)
    standings = sorted(entries.values(), key=lambda e: (e.rank is None, e.rank or 0, e.seed or 0, e.number))
    # The organiser holds a live table with Pause and lets it go on with Resume (tournaments.service).
    live = [g.game_id for m in matches for g in m.live]  # type: ignore[attr-defined]
    # Everyone reads a held table as held (its computers wait), not as "playing now" (#30 defect 9).
    paused = queries.paused(live) if live else set()
    for match in matches:
        match.held = bool(match.live) and all(g.game_id in paused for g in match.live)  # type: ignore[attr-defined]
    # The reader's own game being played: "Play now" at the top of the page, whichever round tab is open.
    my_game = next((g.game_id for m in matches if m.mine for g in m.live), None)  # type: ignore[attr-defined]
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
        "seating_tables": ""
        if row.status == "finished"
        else seating_advice.tables_now(row.format, row.options, sum(1 for e in standings if not e.withdrawn)),
        "locked": set(current.locked) if current is not None else set(),
        "pairing_edits": service.EDITS,
        "computer_levels": list(computers.LEVEL_NAMES.items()),
        # Rounds with real cards take their own pace, measured from this tournament's finished
        # real-card rounds (the online pace misled: "10 minutes" for Pitch to 11, #30 defect 11).
        "estimate": ""
        if row.status == "finished"
        else board_estimate_text(board_pace.board_round(row.game, row.options, streams.read(row.stream_id)))
        if row.over_the_board or (current and current.over_the_board)
        else estimate_text(_round_length(row)),
        "typed": typed or {},
        "public_seq": public_seq,
        "my_game": my_game,
        "desk": results_desk(current_matches) if organiser else None,
        # The podium: ranks 1 to 3 of the final standings (a shared place shows each who shares it).
        # One who withdrew keeps the place the standings give them (a leader who went home before
        # the last round is still first): leaving them out left a podium without its first step.
        "podium": [e for e in standings if e.rank and e.rank <= 3] if row.status == "finished" else [],
        # Computer players cannot sit at tables with real cards (the command refuses them).
        "computers_allowed": not (
            row.over_the_board
            or any(n > sum(1 for r in round_rows.values() if r.started) for n in row.board_rounds)
        ),
        "most_computers": bounds.COMPUTERS.high,
        "most_pasted": console_forms.MOST_PASTED,
        "pairing_edit_choices": console_forms.EditPairingForm.base_fields["edit"].choices,  # type: ignore[attr-defined]
        "pairing_warnings": console_warnings(row, entries) if editable else [],
        "undo": undo_offer(row) if organiser and row.status != "finished" else None,
        # The round's clock in the console; the tables with no result yet, listed when time is up.
        "round_clock": round_clock.console(row, [m for m in current_matches if not m.result])
        if organiser and current is not None and current.started and row.status != "finished"
        else None,
    }
    _typed_places(typed, current_matches)
    return render(request, "frontend/tournaments/page.html", context, status=status)


DESK_STATES = {
    "live": pgettext_lazy("tables", "playing"),
    "waiting": pgettext_lazy("tables", "waiting for a result"),
    "entered": pgettext_lazy("tables", "to be confirmed"),
    "disputed": pgettext_lazy("tables", "disputed"),
    "withheld": pgettext_lazy("tables", "waiting for the other tables"),
    "decided": pgettext_lazy("tables", "confirmed"),
}


def results_desk(matches: list[Match]) -> dict[str, Any] | None:
    """The round at a glance for the results desk: how many tables are in each state (playing,
    waiting for a result, to be confirmed, disputed, confirmed) and which have no result yet."""
    if not matches:
        return None
    counts: dict[str, int] = {}
    for match in matches:
        state = match.state  # type: ignore[attr-defined]
        counts[state] = counts.get(state, 0) + 1
    return {
        "counts": [(state, word, counts[state]) for state, word in DESK_STATES.items() if state in counts],
        "unreported": [
            match.label_text  # type: ignore[attr-defined]
            for match in matches
            if match.state in ("waiting", "entered", "disputed")  # type: ignore[attr-defined]
        ],
    }


def undo_text(row: Tournament, found: undo.Last) -> str:
    """What the last action did, in the words its confirmation used ("Ana and Ben swapped places.")."""
    names = {e.number: e.shown_name for e in Entry.objects.filter(tournament=row)}
    first = found.events[0]
    kind = found.kind
    if kind == "round.edited":
        edit = first.get("edit")
        if edit == "swap":
            a, b = int(first["a"]), int(first["b"])
            return _("%(a)s and %(b)s swapped places.") % {"a": names.get(a, a), "b": names.get(b, b)}
        if edit == "move":
            who, to = int(first["entrant"]), str(first["table"])
            where = _("sit out") if to == "bye" else match_title(to)
            return _("%(a)s moved to %(table)s.") % {"a": names.get(who, who), "table": where}
        if edit == "lock":
            return _("%(table)s is locked.") % {"table": match_title(str(first["table"]))}
        return _("%(table)s is unlocked.") % {"table": match_title(str(first["table"]))}
    if kind == "tournament.seeded":
        return _("The entrants are seeded.")
    if kind in ("entrant.checked_in", "entrant.checked_out", "entrant.withdrawn"):
        who = int(first["entrant"])
        text = {
            "entrant.checked_in": _("%(name)s is checked in."),
            "entrant.checked_out": _("%(name)s is checked out."),
            "entrant.withdrawn": _("%(name)s is withdrawn."),
        }[kind]
        return text % {"name": names.get(who, who)}
    if kind == "result.forfeited":
        absent = ", ".join(str(names.get(int(e), e)) for e in first.get("absent", []))
        return _("Forfeit recorded at %(table)s: %(name)s did not come.") % {
            "table": match_title(str(first["table"])),
            "name": absent,
        }
    return _("The result of %(table)s is corrected.") % {"table": match_title(str(first.get("table", "")))}


def undo_offer(row: Tournament) -> dict[str, Any] | None:
    """The console's undo: the last action and its button, or why it cannot be undone (None: no
    action of the kinds an undo takes back)."""
    found = service.last_action(row.stream_id)
    if found is None or found.refusal == undo.NOT_UNDOABLE:
        return None
    return {
        "seq": found.seq,
        "what": undo_text(row, found),
        "refused": _(service.UNDO_REFUSALS[found.refusal]) if found.refusal else "",
    }


def warning_text(warning: round_warnings.PairingWarning, names: dict[int, str]) -> str:
    who = " · ".join(names.get(e, str(e)) for e in warning.entrants)
    table = match_title(warning.table)
    if warning.code == "repeat":
        return _("%(table)s: %(names)s have met before.") % {"table": table, "names": who}
    return _("%(table)s: %(names)s do not share a score.") % {"table": table, "names": who}


def console_warnings(row: Tournament, entries: dict[int, Entry]) -> list[str]:
    """What the organiser should check in the round paired and not started (kept on the console
    until it starts, not only after the change that brought it)."""
    t = projection.load(row.stream_id)
    names = {n: e.shown_name for n, e in entries.items()}
    return [warning_text(w, names) for w in round_warnings.pairing_warnings(t)]


def _typed_places(typed: dict[str, Any] | None, matches: list[Match]) -> None:
    """The places typed in a correction that was refused, to fill its form in again."""
    if not typed or typed.get("action") != "override":
        return
    data = typed["data"]
    for match in matches:
        if match.key == data.get("match"):
            for side in match.sides:  # type: ignore[attr-defined]
                side["typed_place"] = data.get(f"place-{side['number']}", "")
