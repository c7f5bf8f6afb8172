"""The demo club's tournament (``repeat``): it starts again when it ends, but only after a pause.

Started again at once, the demo's Swiss of computer players finished twenty times in 35 minutes and
its games buried everything a new player came to see (#33, "the demo drowns a new player"). Now the
end of a repeating tournament only schedules the next one ``DEMO_PAUSE_MINUTES`` later (a job: Celery
keeps it across a restart; in-process it is lost with the process, and ``manage.py demo``, run at
every start by ``bin/run``, starts the series again at once); while the server runs the series so plays
at most 60 / pause + 1 tournaments an hour. The
lists show only the newest of a series (``frontend.tournament_new._older_repeats``) and the lobby none
of its games (``frontend.lobby``), so the older ones stay in the logs and out of sight.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.background import jobs
from tournaments import projection
from tournaments.commands.registration import create, register, seed
from tournaments.commands.running import start
from tournaments.log import FINISHED
from tournaments.models import Tournament

AGAIN_TASK = "tournaments.tasks.start_demo_again"


def pause_seconds() -> float:
    return float(settings.DEMO_PAUSE_MINUTES) * 60


def series(row: Tournament) -> Any:
    """Every tournament of ``row``'s series: the repeating ones of the same club, game and name."""
    return Tournament.objects.filter(options__repeat=True, club=row.club, game=row.game, name=row.name)


def on_finished(tournament_id: int) -> None:
    """``signals.tournament_finished``: a repeating tournament's next one, after the pause."""
    row = Tournament.objects.filter(pk=tournament_id).first()
    if row is None or not row.is_demo:
        return
    jobs.enqueue(AGAIN_TASK, tournament_id, delay=pause_seconds())


def start_again(tournament_id: int) -> int | None:
    """The job: the next tournament of the series, with the same computer players; nothing when the
    series has one playing or newer than this one already (``manage.py demo`` started it, or the
    job ran twice). The new tournament's id, or None."""
    row = Tournament.objects.get(pk=tournament_id)
    others = series(row)
    if others.exclude(status=FINISHED).exists() or others.filter(pk__gt=row.pk).exists():
        return None
    t = projection.load(row.stream_id)
    again = create(t.name, t.game, t.format, t.options, club=row.club)
    for e in t.entrants.values():
        if e.bot_level and not e.withdrawn:
            register(
                again,
                "",
                bot_level=e.bot_level,
                bot_number=e.bot_number,
                rating=e.rating,
                command_id=f"register-{e.id}",
            )
    seed(again, "random")
    start(again)
    return again.pk
