"""A table or a knockout match as the room calls it ("Table 3", "Quarter-final 2", "Final"), never
by the key the log files it under ("R2-T3", "W1-2", "3P"): #30 defect 10."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from django.utils.translation import gettext as _

from tournaments.models import Entry, Tournament
from tournaments.pairing.elimination import bracket_size


def winners_rounds(fmt: str, seeded: int) -> int:
    """How many rounds a knockout's winners bracket has (0 for any other format): its last is the
    final of a single elimination, which lets the rounds before it be called semi- and quarter-finals.
    Every round of the bracket has a match played (the byes all fall in round 1), so it is log2 of
    the bracket's size."""
    if fmt not in ("single_elimination", "double_elimination") or seeded < 2:
        return 0
    return int(math.log2(bracket_size(seeded)))


def match_title(key: str, rounds: int = 0, double: bool = False) -> str:
    """ "Table 3"; in a knockout "Round 1, match 2", "Quarter-final 2", "Semi-final 1", "Final",
    "Third-place match", "Losers' round 2, match 1", "Grand final". ``rounds``: the winners
    bracket's (``winners_rounds``), when known; ``double``: a double elimination (its winners
    bracket's last match is not the final)."""
    found = re.fullmatch(r"R\d+-T(\d+)", key)
    if found:
        return _("Table %(n)s") % {"n": found.group(1)}
    found = re.fullmatch(r"([WL])(\d+)-(\d+)", key)
    if found:
        side, rnd, number = found.groups()
        words = {"round": int(rnd), "match": int(number)}
        if side == "L":
            return _("Losers' round %(round)s, match %(match)s") % words
        before_last = rounds - int(rnd) if rounds else -1
        if double and before_last == 0:
            return _("Winners' final")
        if not double and before_last == 0:
            return _("Final")
        if not double and before_last == 1:
            return _("Semi-final %(match)s") % words
        if not double and before_last == 2:
            return _("Quarter-final %(match)s") % words
        return _("Round %(round)s, match %(match)s") % words
    if key == "3P":
        return _("Third-place match")
    if key == "GF1":
        return _("Grand final")
    if key == "GF2":
        return _("Grand final, deciding match")
    return key


def table_label(key: str) -> str:
    """A table as players call it: "R2-T3" is table 3 (of round 2); a bracket match keeps its key
    (the pages show ``match_title`` for it)."""
    found = re.fullmatch(r"R\d+-T(\d+)", key)
    return found.group(1) if found else key


def namer(row: Tournament) -> Callable[[str], str]:
    """``match_title`` for the tables of ``row``: its knockout's final, semi- and quarter-finals named
    (one query for the bracket's size)."""
    rounds = winners_rounds(row.format, Entry.objects.filter(tournament=row, seed__isnull=False).count())
    double = row.format == "double_elimination"
    return lambda key: match_title(key, rounds, double)
