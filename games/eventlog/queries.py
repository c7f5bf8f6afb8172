"""The read side of games: what a table's log says, for the parts that list, rate or help (ARCHITECTURE.md
"One move"). Nothing here changes a game; the commands are in games.commands, which the readers need
not import. A table itself is loaded with games.eventlog.tables.load_table.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from games import bots
from games.engines.base import _
from games.errors import casual_only
from games.eventlog import store, timeline
from games.eventlog.tables import get_game, load_table
from games.models import Event, Game

# Table events that take a move back or play one again: never in a rated game's log.
TAKEBACKS = (timeline.UNDO, timeline.REDO, timeline.RESTART)


# --- Tables now -----------------------------------------------------------------------------------


def seats_that_moved(game_id: int) -> set[int]:
    """The seats that have made at least one move in a game (a no-show has made none)."""
    return {
        int(group.actor.split(":", 1)[1])
        for group in load_table(game_id).timeline.groups
        if group.actor.startswith("seat:")
    }


def paused(game_ids: Iterable[int]) -> set[int]:
    """Which of these tables have their computer players paused: the last pause or resume of each
    log says (nothing else changes it), read in one query, without folding any log."""
    last: dict[int, str] = {}
    for game_id, kind in (
        Event.objects.filter(game_id__in=list(game_ids), type__in=(timeline.PAUSE, timeline.RESUME))
        .order_by("game_id", "seq")
        .values_list("game_id", "type")
    ):
        last[game_id] = kind
    return {game_id for game_id, kind in last.items() if kind == timeline.PAUSE}


# --- Hints -----------------------------------------------------------------------------------------


def check_hints(game: Game) -> None:
    """Hints are the strong computer player's help: casual tables only."""
    casual_only(
        game,
        tournament=("no_hint", _("There are no hints in tournament games.")),
        lesson=("no_hint", _("A lesson has no hints: each step says what to play.")),
        rated=("no_hint", _("There are no hints in rated games.")),
    )


def hint(game: Game, seat: int) -> tuple[dict[str, Any] | None, int]:
    """The strong computer player's choice for ``seat`` from that seat's view only (None when the
    seat has nothing to play), and the seq it was chosen at. Whose seat it is, the caller checks."""
    check_hints(game)
    table = load_table(game)
    legal = table.engine.legal_actions(table.state, seat)
    if not legal:
        return None, table.seq
    view = table.engine.view(table.state, seat)
    return bots.get(game.engine, "strong").choose(view, legal, random.Random()), table.seq


# --- What a game was -------------------------------------------------------------------------------


def result(game_id: int) -> dict[str, Any] | None:
    """A game's outcome (final places and scores), or None while it is being played."""
    return load_table(game_id).outcome()


def partial_result(game_id: int) -> dict[str, Any] | None:
    """A game's score as it stands now, for a game whose rules allow one (the engine's
    ``PARTIAL_SCORE``, games/engines/CONTRACT.md); None for the others. Its outcome once over."""
    table = load_table(game_id)
    done = table.outcome()
    if done is not None:
        return done
    if not getattr(table.engine, "PARTIAL_SCORE", False):
        return None
    partial: dict[str, Any] = table.engine.partial_outcome(table.state)  # type: ignore[attr-defined]
    return partial


def seating(game_id: int) -> dict[str, Any]:
    """Who sat where at a game, for the parts that rate or list players."""
    game = get_game(game_id)
    return {
        "engine": game.engine,
        "kind": game.kind,
        "finished_at": game.finished_at,
        "seats": [
            {
                "number": s.number,
                "user_id": s.user_id,
                "bot_level": s.bot_level,
                "bot_number": s.bot_number,
                "display_name": s.display_name,
                "team": s.team,
            }
            for s in game.seats.order_by("number")
        ],
    }


def was_taken_back(game_id: int) -> bool:
    """Whether a move of this table was ever taken back or replayed (an undo, redo or restart in its
    log): such a game is not rated, whatever its kind says (tournaments.ratings)."""
    return Event.objects.filter(game_id=game_id, type__in=TAKEBACKS).exists()


@dataclass(frozen=True)
class Played:
    """One finished game at a table. A table plays several when its players start a new one."""

    game_id: int
    number: int  # the game's number at its table: 1, then one more per new game
    outcome: dict[str, Any]
    finished_at: datetime


def played_games(kinds: Iterable[str], engine: str | None = None) -> list[Played]:
    """Every finished game at the tables of these kinds (of one game, if named), in the order they
    ended: a table's last game if it is over, and every earlier one that ended before a new game was
    started."""
    tables = Game.objects.tables().filter(kind__in=list(kinds))
    if engine is not None:
        tables = tables.filter(engine=engine)
    later = Event.objects.filter(type=timeline.NEW_GAME).values("game_id")
    found: list[Played] = []
    for game in tables.filter(Q(status=Game.Status.FINISHED) | Q(pk__in=later)).order_by("pk"):
        starts = [e.seq for e in store.load(game.pk) if e.type == timeline.NEW_GAME]
        for number, seq in enumerate(starts, start=1):
            before = load_table(game, upto=seq - 1)
            if (outcome := before.outcome()) is not None:
                found.append(Played(game.pk, number, outcome, before.events[-1].created_at))
        if game.status == Game.Status.FINISHED and (outcome := result(game.pk)) is not None:
            found.append(Played(game.pk, len(starts) + 1, outcome, game.finished_at or game.updated_at))
    return sorted(found, key=lambda p: (p.finished_at, p.game_id, p.number))


def finished_games() -> list[int]:
    """Every finished table game, in the order it finished (lessons are not games that count)."""
    return list(
        Game.objects.listed()
        .filter(status=Game.Status.FINISHED)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )


def deal_still_secret(game_id: int) -> bool:
    """Whether this game's deal is still to be played, or being played, at another table (a
    duplicate round). Until it is released, the game's hands stay as secret as a live game's."""
    return get_game(game_id).deal_is_secret()
