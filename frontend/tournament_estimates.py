"""How long a round takes, in the reader's words: the new-tournament form's figures and the
tournament page's (tournaments.estimate and tournaments.board_pace work them out).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import ServiceError
from tournaments import (
    board_pace,
    estimate,
    service,
)
from tournaments.models import Tournament


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


def board_estimate_text(found: board_pace.BoardRound) -> str:
    """A real-card round's estimate and where it comes from, in the reader's language."""
    if found.source == board_pace.MEASURED:
        return ngettext(
            "A round with real cards takes about %(minutes)s minutes (measured from %(count)s round played here).",
            "A round with real cards takes about %(minutes)s minutes (measured from %(count)s rounds played here).",
            found.rounds,
        ) % {"minutes": found.minutes, "count": found.rounds}
    return _(
        "A round with real cards takes about %(minutes)s minutes (a first guess of %(game)s minutes a game, "
        "until a round here is finished)."
    ) % {"minutes": found.minutes, "game": found.game_minutes}


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


def _round_length(row: Tournament) -> estimate.RoundLength | None:
    try:
        return estimate.for_tournament(row.game, row.options)
    except ServiceError:
        return None  # options an older version allowed: no estimate rather than an error page
