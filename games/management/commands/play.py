"""play GAME --seats strong,greedy,… [--seed S] [--option k=v]: one bot game through the real service and store."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import bots
from games.commands.create import SeatSpec, create_game
from games.computers import autoplay
from games.engines import names
from games.errors import ServiceError
from games.eventlog.tables import load_table
from games.management.commands.botmatch import parse_options


class Command(BaseCommand):
    help = "Play one game between bots through the service and the event store; print the outcome."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", choices=names())
        parser.add_argument("--seats", required=True, help="one bot level per seat, comma-separated")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")

    def handle(self, *args: Any, **options: Any) -> None:
        levels = [level.strip() for level in options["seats"].split(",")]
        if any(level not in bots.LEVELS for level in levels):
            raise CommandError(f"each seat is one of {', '.join(bots.LEVELS)}")
        from games import engines
        from games.engines.base import IllegalAction

        try:
            config = engines.compose(options["game"], parse_options(options["option"]), len(levels))
        except IllegalAction as exc:
            raise CommandError(exc.text) from None
        seats = [SeatSpec.computer(n + 1, level) for n, level in enumerate(levels)]
        try:
            game = create_game(options["game"], config, seats, seed=options["seed"])
        except ServiceError as exc:
            raise CommandError(exc.text) from None
        moves = 0
        while True:  # play the computer turns here, one at a time, through the same path a worker uses
            table = load_table(game.pk)
            if table.outcome() is not None:
                break
            for seat in table.to_act():
                autoplay.play_bot_turn(game.pk, table.seq, seat)
                moves += 1
                break
            if moves % 50 == 0:
                self.stdout.write(f"{moves} moves")
        self.stdout.write(f"game {game.pk}: {moves} moves, outcome {table.outcome()}")
