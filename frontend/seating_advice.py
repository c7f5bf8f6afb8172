"""What the tournament form tells an organiser about a multi-player Swiss's seating (issue #31): the
short tables each round will have for the players expected, and, when the rounds are long enough that
a Swiss must seat players together again, the offer of a schedule fixed in advance."""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.pairing import schedule

#: A Swiss will repeat meetings once rounds × (size − 1) reaches this share of the other players.
REPEATS_LIKELY = 0.6
#: The most players the form works a schedule out for (the same bound as the tables' sizes).
MOST = 512


def tables_text(count: int, size: int, short: str) -> str:
    """ "18 players: 3 tables of 4 and 2 tables of 3 each round." """
    parts = [
        ngettext("%(count)s table of %(size)s", "%(count)s tables of %(size)s", many)
        % {"count": many, "size": n}
        for n, many in schedule.describe(count, size, short)
    ]
    joined = (
        parts[0]
        if len(parts) == 1
        else _("%(first)s and %(second)s") % {"first": parts[0], "second": parts[1]}
    )
    return _("%(players)s players: %(tables)s each round.") % {"players": count, "tables": joined}


def advice(fmt: str, options: dict[str, Any], expected: int) -> str:
    """The form's sentence for these options and the players expected ("" when there is nothing to say)."""
    size = int(options.get("table_size", 2))
    if fmt != "swiss" or size < 3 or not 2 <= expected <= MOST:
        return ""
    short = str(options.get("short_tables", "smaller"))
    try:
        out = [tables_text(expected, size, short)]
    except ValueError:
        return ""
    rounds = int(options.get("rounds") or max(1, math.ceil(math.log2(expected))))
    if options.get("seating", "standings") != "fixed" and rounds * (size - 1) >= REPEATS_LIKELY * (
        expected - 1
    ):
        least = schedule.least_repeats(expected, schedule.sizes(expected, size, short), rounds)
        out.append(
            ngettext(
                "With %(rounds)s round a Swiss will seat players together again. To meet as many others "
                "as possible, choose a schedule fixed in advance (the fewest repeat meetings possible: "
                "%(least)s).",
                "With %(rounds)s rounds a Swiss will seat players together again. To meet as many others "
                "as possible, choose a schedule fixed in advance (the fewest repeat meetings possible: "
                "%(least)s).",
                rounds,
            )
            % {"rounds": rounds, "least": least}
        )
    return " ".join(out)


def tables_now(fmt: str, options: dict[str, Any], count: int) -> str:
    """The tournament page's "18 players: 3 tables of 4 and 2 tables of 3 each round." for the entrants
    it has now (a multi-player Swiss only; "" otherwise), so the short tables are never a surprise."""
    size = int(options.get("table_size", 2))
    if fmt != "swiss" or size < 3 or not 2 <= count <= MOST:
        return ""
    try:
        return tables_text(count, size, str(options.get("short_tables", "smaller")))
    except ValueError:
        return ""
