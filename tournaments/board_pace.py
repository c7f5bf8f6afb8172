"""How long a round played with real cards takes (#30 defect 11): measured from the tournament's own
finished real-card rounds, else a first guess per game. Pure: the stored events come with their times.

The online estimate (``tournaments/estimate.py``) counts moves at a screen's pace; at a table with
real cards the time goes to shuffling, dealing, counting and writing the scores down, which no online
game measures ("10 minutes" for Pitch to 11 misled the room). So a real-card round is measured where
it is played: **from its ``round.started`` to the first entry of the last game of its slowest table**
(``result.entered``, or the organiser's ``result.resolved``/``result.recorded`` when no player entered
it; a later correction is not the game's end). The estimate is the median of the finished real-card
rounds of this tournament; before any, ``GAME_MINUTES`` a game times the most games a match may need.
Rounded up to five minutes, as online. docs/tournaments.md "The round estimate with real cards".
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tournaments import log, undo

if TYPE_CHECKING:
    from games.eventlog.streams import StreamEvent  # the rows ``games.eventlog.streams.read`` gives

#: Minutes one game takes with real cards at the game's usual target, until this tournament has
#: finished a real-card round (why each: docs/tournaments.md "The round estimate with real cards").
GAME_MINUTES = {
    # Skyjo to 100: four to six deals of shuffling 150 cards, dealing 12 each, turning and counting
    # columns; the box says 30 minutes and club tables of 4 take about that.
    "skyjo": 30,
    # Pitch to 11: seven to ten hands of dealing 6 cards, a bidding round and six tricks, about three
    # minutes each with the tally written down.
    "pitch": 25,
    # Kazino: one deal of the 52 cards, four hands of four, captures and builds counted at the end.
    "kazino": 15,
    # Dominoes to 100 (or a block game): several hands of washing, drawing seven tiles and counting pips.
    "dominoes": 20,
}
#: For a game not above.
OTHER_MINUTES = 20
MEASURED, DEFAULT = "board-measured", "board-default"
_ENTRIES = ("result.entered", "result.resolved", "result.recorded")


@dataclass(frozen=True)
class BoardRound:
    minutes: int  # rounded up to five
    best_of: int
    source: str  # MEASURED or DEFAULT
    rounds: int  # the finished real-card rounds it comes from (DEFAULT: 0)
    game_minutes: int  # DEFAULT: the first guess of a game; MEASURED: the median round, unrounded


def round_minutes(stored: Sequence[StreamEvent]) -> list[float]:
    """Minutes each finished real-card round took, in round order (revoked events left out)."""
    events = [{"type": e.type, **e.data} for e in stored]
    gone = undo.revoked(events)
    stored = [e for e in stored if e.seq not in gone]
    t = log.fold(events)
    finished = {r.number for r in t.rounds if r.over_the_board and r.complete()}
    tables = {tb.key: r.number for r in t.rounds for tb in r.tables if r.number in finished}
    started: dict[int, datetime] = {}
    first_entry: dict[tuple[str, int], datetime] = {}
    for e in stored:
        if e.type == "round.started" and e.data.get("round") in finished:
            started[int(e.data["round"])] = e.created_at
        elif e.type in _ENTRIES and e.data.get("table") in tables:
            first_entry.setdefault((str(e.data["table"]), int(e.data.get("game", 1))), e.created_at)
    ends: dict[int, datetime] = {}
    for (key, _game), at in first_entry.items():
        number = tables[key]
        ends[number] = max(ends.get(number, at), at)
    return [
        max((ends[n] - started[n]).total_seconds(), 0) / 60
        for n in sorted(finished)
        if n in started and n in ends
    ]


def board_round(game: str, options: dict[str, Any], stored: Sequence[StreamEvent]) -> BoardRound:
    """The estimate of this tournament's next real-card round."""
    best_of = int(options.get("best_of") or 1)
    measured = round_minutes(stored)
    if measured:
        middle = statistics.median(measured)
        return BoardRound(_five(middle), best_of, MEASURED, len(measured), round(middle))
    per_game = GAME_MINUTES.get(game, OTHER_MINUTES)
    return BoardRound(_five(per_game * best_of), best_of, DEFAULT, 0, per_game)


def _five(minutes: float) -> int:
    return max(5, 5 * math.ceil(minutes / 5))
