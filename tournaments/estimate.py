"""How long a tournament round takes, so that an organiser can fit an evening.

A round's tables play at the same time, so a round lasts about as long as one table's match: the
most games a match may need (``best_of``; a knockout still level plays on, which is not counted)
times the length of one game of the tournament's config (``options.game_config``: the game's
options at a table of the tournament's size). A game's length, best evidence first:

1. **measured**: at least ``ENOUGH`` finished games of that config played by people only (their
   minutes, first to last event): the median of their minutes;
2. **moves**: at least ``ENOUGH`` finished games of that config, computers at the table or not:
   the median of their moves, at the pace below;
3. **simulated**: the median of games between computer players (games/data/game_lengths.json,
   ``manage.py estimate_game_lengths``), scaled to another target or hand limit, at the pace below.

The pace of a move is ``PACE_SECONDS`` (an assumption: a person looks, thinks and taps in about six
seconds) until ``ENOUGH`` games of that game were played by people only: then their median seconds
per move. A round is rounded up to five minutes. Pure arithmetic apart from reading the figures.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

from games.eventlog import lengths
from games.eventlog.lengths import Played
from tournaments.options import game_config

#: Finished games of a config needed before they replace the simulations.
ENOUGH = 20
#: Seconds a person takes for a move, until measured.
PACE_SECONDS = 6.0
MEASURED, MOVES, SIMULATED = "measured", "moves", "simulated"


@dataclass(frozen=True)
class GameLength:
    moves: float
    minutes: float
    source: str  # MEASURED, MOVES or SIMULATED
    games: int  # the games it comes from (simulated: the real games of that config so far)
    pace: float  # seconds a move


@dataclass(frozen=True)
class RoundLength:
    minutes: int
    best_of: int
    game: GameLength


def pace(played: list[Played]) -> float:
    """Seconds a move: measured from games played by people only, once there are enough of them."""
    people = [p.seconds / p.moves for p in played if p.people_only and p.moves]
    return statistics.median(people) if len(people) >= ENOUGH else PACE_SECONDS


def game_length(
    engine: str,
    config: dict[str, Any],
    *,
    played: list[Played] | None = None,
    table: dict[str, Any] | None = None,
) -> GameLength | None:
    """The length of one game of ``config`` (``played``: the engine's finished games, read from the
    store when not given; ``table``: the simulated lengths, the stored table when not given)."""
    played = lengths.measured(engine) if played is None else played
    key = lengths.length_key(config)
    mine = [p for p in played if p.key == key]
    people = [p for p in mine if p.people_only]
    if len(people) >= ENOUGH:
        return GameLength(
            statistics.median(p.moves for p in people),
            statistics.median(p.seconds for p in people) / 60,
            MEASURED,
            len(people),
            pace(played),
        )
    seconds = pace(played)
    if len(mine) >= ENOUGH:
        moves = float(statistics.median(p.moves for p in mine))
        return GameLength(moves, moves * seconds / 60, MOVES, len(mine), seconds)
    simulated = lengths.simulated_moves(engine, config, table)
    if simulated is None:
        return None
    return GameLength(simulated, simulated * seconds / 60, SIMULATED, len(mine), seconds)


def round_length(
    engine: str,
    config: dict[str, Any],
    best_of: int,
    *,
    played: list[Played] | None = None,
    table: dict[str, Any] | None = None,
) -> RoundLength | None:
    """A round of matches of up to ``best_of`` games of ``config``, in minutes rounded up to five."""
    game = game_length(engine, config, played=played, table=table)
    if game is None:
        return None
    minutes = max(5, 5 * math.ceil(game.minutes * best_of / 5))
    return RoundLength(minutes, best_of, game)


def for_tournament(game: str, options: dict[str, Any]) -> RoundLength | None:
    """The round length of a tournament with these (validated) options; None without figures."""
    return round_length(game, game_config(game, options), int(options.get("best_of") or 1))
