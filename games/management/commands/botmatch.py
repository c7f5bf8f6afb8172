"""botmatch GAME --a LEVEL --b LEVEL --games N [--seed S] [--option k=v]: bot strength, two players."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import bots
from games.computers.matchplay import botmatch
from games.engines import IllegalAction, names


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise CommandError(f"--option takes key=value, not {pair!r}")
        try:
            options[key] = json.loads(raw)
        except ValueError:
            options[key] = raw
    return options


class Command(BaseCommand):
    help = (
        "Strength benchmark: seats swapped every other game; win rate of A with a 95% interval, move times."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", choices=names())
        parser.add_argument("--a", required=True, choices=bots.LEVELS)
        parser.add_argument("--b", required=True, choices=bots.LEVELS)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
        parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        try:
            stats = botmatch(
                options["game"],
                options["a"],
                options["b"],
                options["games"],
                options["seed"],
                parse_options(options["option"]),
                progress=self.stdout.write,
                jobs=options["jobs"],
            )
        except IllegalAction as exc:
            raise CommandError(exc.text) from None
        self.stdout.write(stats.summary())
