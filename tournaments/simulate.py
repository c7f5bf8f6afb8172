"""A whole tournament of computer players through the real pipeline (simulate_tournament, tests, demo)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from games.computers import autoplay
from games.errors import ServiceError
from games.eventlog.tables import load_table
from tournaments.commands import registration, results, running
from tournaments.log import FINISHED
from tournaments.models import MatchGame, Tournament


def setup(
    game: str,
    fmt: str,
    entrants: int,
    options: dict[str, Any],
    bots: str = "greedy",
    name: str | None = None,
    club: Any = None,
    seed: int | None = None,
) -> Tournament:
    """A tournament of ``entrants`` computer players, registered and seeded, not yet started.
    ``seed``: the tournament's secret (the same seed, the same entrants, pairings and deals)."""
    row = registration.create(
        name or f"{game} {fmt} ({entrants})", game, fmt, options, club=club, secret=seed
    )
    for n in range(1, entrants + 1):
        # "Computer n (Easy)" on every page (games/words/computers.py); a pair plays both its seats.
        registration.register(row, "", bot_level=bots, command_id=f"register-{n}")
    registration.seed(row, "random")
    return row


def drive(
    row: Tournament, *, timeout: float = 3600, progress: Callable[[str], None] | None = None
) -> Tournament:
    """Start the tournament and play it to the end: by hand here when no worker plays the bots."""
    row.refresh_from_db()
    if row.status == "registration":
        running.start(row)
    deadline = time.monotonic() + timeout
    last = ""
    while True:
        row.refresh_from_db()
        if row.status == FINISHED:
            return row
        if time.monotonic() > deadline:
            raise TimeoutError(f"tournament {row.pk} did not finish within {timeout:.0f} s")
        if settings.JOBS == "off":
            if not _play_one_round_of_moves(row):
                results.reconcile(row.stream_id)
        else:
            time.sleep(0.5)
        note = f"round {row.round}: {row.matches.filter(round=row.round, result__isnull=False).count()}/{row.matches.filter(round=row.round).count()} matches done"
        if progress and note != last:
            progress(note)
            last = note


def _play_one_round_of_moves(row: Tournament) -> bool:
    """One move at every running game of the tournament whose turn is a computer's."""
    moved = False
    for game_id in MatchGame.objects.filter(match__tournament=row, finished=False).values_list(
        "game_id", flat=True
    ):
        try:
            table = load_table(game_id)
        except ServiceError:
            continue
        if table.outcome() is not None:
            continue
        for seat in table.to_act():
            if autoplay.play_bot_turn(game_id, table.seq, seat) == "played":
                moved = True
                break
    return moved
