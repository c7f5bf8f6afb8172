"""demo: make sure a few tables and a club tournament of computer players are running, so the site has something to watch."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import engines
from games.commands.create import SeatSpec, create_game
from games.models import Game
from tournaments import service as tournaments
from tournaments import simulate
from tournaments.models import Club, Tournament

# (game, players, options): one live table of each game, computer players only.
DEMO_TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("skyjo", 4, {}),
    ("dominoes", 4, {"variant": "all_fives", "partnerships": True}),
    ("kazino", 2, {"match": "single"}),
    ("pitch", 4, {}),
]
LEVELS = ["greedy", "strong", "greedy", "strong"]
#: The demo club's tournament: a Swiss of computer players that starts again DEMO_PAUSE_MINUTES after
#: it ends (tournaments/commands/demo_series.py); a server started again starts it at once if none plays.
DEMO_TOURNAMENT = ("kazino", "swiss", 8, {"rounds": 3, "game_config": {"match": "single"}, "repeat": True})


class Command(BaseCommand):
    help = "Create the demo tables (computer players only) unless they are already playing."

    def handle(self, *args: Any, **options: Any) -> None:
        for name, players, options_ in DEMO_TABLES:
            if Game.objects.filter(engine=name, is_demo=True).exists():
                self.stdout.write(f"{name}: a demo table is already playing")
                continue
            config = engines.compose(name, options_, players)
            seats = [SeatSpec.computer(n + 1, LEVELS[n]) for n in range(players)]
            game = create_game(name, config, seats, is_demo=True)
            self.stdout.write(f"{name}: demo table {game.pk} created")
        # A game that ended while the server was down never sent its signal: catch up first.
        for running in Tournament.objects.filter(status="running"):
            tournaments.reconcile(running.stream_id)
        club, _ = Club.objects.get_or_create(slug="demo", defaults={"name": "Demo club"})
        if Tournament.objects.filter(club=club).exclude(status="finished").exists():
            self.stdout.write("the demo club's tournament is already playing")
            return
        kind, fmt, entrants, settings_ = DEMO_TOURNAMENT
        row = simulate.setup(kind, fmt, entrants, settings_, "greedy", name="Demo club Swiss", club=club)
        tournaments.start(row)
        self.stdout.write(f"demo club tournament {row.pk} started")
