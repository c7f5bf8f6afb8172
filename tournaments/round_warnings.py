"""What a director would want to know about a paired round before starting it (#30 defect 7): pairs
that met before, tables whose scores are too far apart."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments import formats
from tournaments.log import Tournament


@dataclass(frozen=True)
class PairingWarning:
    """Something about a paired round a director would want to know before starting it."""

    code: str  # "repeat": these entrants met before; "score_group": their scores differ
    table: str
    entrants: tuple[int, ...]


def pairing_warnings(t: Tournament) -> list[PairingWarning]:
    """For the current round if it has not started: pairs that met in an earlier round, and tables
    whose players' scores are further apart than such a table allows (``_SCORE_SPREAD``; Swiss
    only: in other formats the schedule decides)."""
    rnd = t.current
    if rnd is None or rnd.started:
        return []
    met = formats._met(t, before=rnd.number)
    score = formats._primary(t) if t.format == "swiss" else {}
    out: list[PairingWarning] = []
    for table in rnd.tables:
        for i, a in enumerate(table.entrants):
            for b in table.entrants[i + 1 :]:
                if met.get(a, {}).get(b):
                    out.append(PairingWarning("repeat", table.key, (a, b)))
        scores = [score.get(e, 0.0) for e in table.entrants]
        if scores and max(scores) - min(scores) > _SCORE_SPREAD.get(len(table.entrants), 1.0):
            out.append(PairingWarning("score_group", table.key, tuple(table.entrants)))
    return out


# How far apart the scores at a table may be before a director is told (#30 defect 7). Two players
# with different scores are a float, which Swiss pairing avoids. At a larger table, places give
# fractions of a point and a table of 4 drawn from the standings nearly always mixes them: only
# players more than a whole round's win apart are worth a warning.
_SCORE_SPREAD = {2: 0.0}
