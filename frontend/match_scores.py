"""A knockout match's score in games ("2–1" in a best of 3), counted from the games whose result is
public: the online games' places (``MatchGame.places``, null while a duplicate round withholds
them) or the results recorded over the board (#30 defect 10)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.models import Match

DASH = "–"  # an en dash between the two counts, as a printed score is written


@dataclass
class Score:
    """Games won by each side of a two-player match, in the match's order, and each game's winner
    (None: a drawn game) in playing order."""

    wins: list[int]
    games: list[int | None]

    def text(self, first: int | None = None) -> str:
        """ "2–1", the winner's count first when ``first`` is the winner's index (else a's first)."""
        a, b = self.wins
        return f"{b}{DASH}{a}" if first == 1 else f"{a}{DASH}{b}"


def _played(match: Match) -> list[dict[str, Any]]:
    """The places of each game of ``match`` with a public result, in playing order."""
    board = [g["places"] for g in (match.board or []) if g.get("places")]
    if board:
        return board
    return [g.places for g in match.games.all() if g.finished and g.places]


def score(match: Match, best_of: int) -> Score | None:
    """The score of a two-player match of more than one game, or None: a single game (its result says
    it all), a table of more, a forfeit (no games decided it), or a corrected result (the organiser's
    places stand, whatever the games said)."""
    if best_of <= 1 or len(match.entrants) != 2 or match.forfeit:
        return None
    if match.result is not None and match.computed is not None and match.result != match.computed:
        return None
    a, b = (str(e) for e in match.entrants)
    wins = [0, 0]
    games: list[int | None] = []
    for places in _played(match):
        if a not in places or b not in places:
            continue
        winner = 0 if places[a] < places[b] else 1 if places[b] < places[a] else None
        if winner is not None:
            wins[winner] += 1
        games.append(winner)
    if not games:
        return None
    return Score(wins, games)
