"""verify_events [--game ID]: replay every game through its engine and check every hash chain."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.eventlog import store
from games.eventlog.verify import verify_game
from games.models import Game


class Command(BaseCommand):
    help = "Replay every game (or one) through its engine and check each hash chain; non-zero exit on any mismatch."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", type=int, help="verify only this game")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if options["game"] is not None:
            games = games.filter(pk=options["game"])
            if not games.exists():
                raise CommandError(f"there is no game {options['game']}")
        total = games.count()
        checked = events = 0
        for game in games.iterator():
            log = store.load(game.pk)
            problem = verify_game(game, log)
            if problem is not None:
                raise CommandError(f"FAILED at {problem}")
            checked += 1
            events += len(log)
            if checked % 100 == 0:
                self.stdout.write(f"verified {checked}/{total} games")
        self.stdout.write(
            self.style.SUCCESS(f"OK: {checked} games, {events} events, every chain and replay holds")
        )
