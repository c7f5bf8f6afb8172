"""simulate_tournament --game GAME --format FORMAT --entrants N: a whole tournament of bots, for real."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.engines import names
from games.errors import ServiceError
from games.management.commands.botmatch import parse_options
from tournaments import simulate
from tournaments.log import FORMATS


def points(value: str) -> str:
    """11/2 as 5½; other fractions to two places (the standings keep exact fractions as text)."""
    number = Fraction(value)
    whole, part = divmod(abs(number), 1)
    sign = "-" if number < 0 else ""
    if part == 0:
        return f"{sign}{whole}"
    if part == Fraction(1, 2):
        return f"{sign}{whole or ''}½"
    return f"{float(number):.2f}"


class Command(BaseCommand):
    help = "Run a whole tournament of computer players through the service, the store and the AI worker."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", required=True, choices=names())
        parser.add_argument("--format", required=True, choices=FORMATS)
        parser.add_argument("--entrants", type=int, required=True)
        parser.add_argument("--table-size", type=int, default=2)
        parser.add_argument(
            "--duplicate", action="store_true", help="every table of a round plays the same deal"
        )
        parser.add_argument(
            "--partnerships", action="store_true", help="entrants are pairs (dominoes, Pitch)"
        )
        parser.add_argument("--bots", default="greedy", choices=["random", "greedy", "strong", "expert"])
        parser.add_argument("--best-of", type=int, default=1)
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument(
            "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
        )
        parser.add_argument("--timeout", type=float, default=3600.0, help="seconds before giving up")
        parser.add_argument(
            "--seed",
            type=int,
            default=None,
            help="the tournament's secret: the same seed gives the same entrants, pairings and deals "
            "(and, with random or greedy computer players, the same games)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["entrants"] < 2:
            raise CommandError("--entrants must be at least 2")
        settings.BOT_DELAY = 0  # no pause between computer moves: nobody is watching
        tournament_options: dict[str, Any] = {
            "table_size": options["table_size"],
            "best_of": options["best_of"],
            "duplicate": options["duplicate"],
            "partnerships": options["partnerships"],
            "game_config": parse_options(options["option"]),
        }
        if options["rounds"]:
            tournament_options["rounds"] = options["rounds"]
        started = time.monotonic()
        try:
            row = simulate.setup(
                options["game"],
                options["format"],
                options["entrants"],
                tournament_options,
                options["bots"],
                seed=options["seed"],
            )
            self.stdout.write(f"tournament {row.pk}: {row.name}, {options['entrants']} entrants")
            row = simulate.drive(row, timeout=options["timeout"], progress=self.stdout.write)
        except ServiceError as exc:
            raise CommandError(exc.text) from None
        except TimeoutError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"finished in {time.monotonic() - started:.1f} s after {row.round} rounds")
        for match in row.matches.order_by("round", "key"):
            names = {e.number: e.name for e in row.entries.all()}
            places = (match.result or {}).get("places", {})
            line = " - ".join(f"{names[e]} ({places.get(str(e), '?')})" for e in match.entrants)
            self.stdout.write(f"  round {match.round} {match.key}: {line}")
        for entry in row.entries.order_by("rank", "number"):
            values = "  ".join(f"{k}={points(v)}" for k, v in entry.values.items())
            self.stdout.write(f"{entry.rank or '-':>4}  {entry.name:<24} {values}")
