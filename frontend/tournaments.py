"""Tournament pages, what they share: the tournament by its id, who organises it, the names of formats
and tie-breaks, places in words.

The pages themselves: the list and the new-tournament form (``tournament_new``), the tournament's
page with the organiser's console (``tournament_page``, actions in ``console``), round estimates
(``tournament_estimates``), exports (``tournament_exports``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournaments import formats
from tournaments.models import Tournament
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
        "The sum of the opponents' points: the stronger your opponents, the higher. A round not played counts as a game against an opponent with your own score."
    ),
    "buchholz_cut1": gettext_lazy(
        "Buchholz without the weakest opponent (a round you chose not to play goes first)."
    ),
    "buchholz_median": gettext_lazy(
        "Buchholz without the weakest and the strongest opponent (a round you chose not to play goes first, as the weakest)."
    ),
    "sonneborn_berger": gettext_lazy(
        "The points of the opponents you beat, and half of those you drew with; a round not played counts as against an opponent with your own score."
    ),
    "head_to_head": gettext_lazy("The results between the players still tied."),
    "wins": gettext_lazy("Matches won outright (a forfeit is not a win)."),
    "matchpoints": gettext_lazy(
        "Duplicate: 2 for each table where the same seat, with the same cards, did worse, 1 for each where it did as well."
    ),
}
assert set(CRITERION_NAMES) == set(CRITERION_HELP)


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _organiser(request: HttpRequest, row: Tournament) -> bool:
    user: Any = request.user
    return bool(user.is_authenticated and (user.is_staff or row.created_by_id == user.pk))


def _criteria(row: Tournament) -> list[str]:
    return formats.criteria_for(row.format, row.options) + (
        ["matchpoints"] if row.options.get("duplicate") else []
    )


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


def _get(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("There is no such tournament.")) from None
