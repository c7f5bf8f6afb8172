"""rebuild_tournaments: rewrite every tournament's rows (and the ratings) from the logs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments import projection, ratings


class Command(BaseCommand):
    help = "Rebuild the tournament projections from their event streams, and the ratings from the games."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-ratings", action="store_true", help="leave the ratings as they are")

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            count = projection.rebuild()
        self.stdout.write(f"rebuilt {count} tournaments from their logs")
        if not options["no_ratings"]:
            with transaction.atomic():
                rated = ratings.rebuild()
            self.stdout.write(f"rated {rated} games again")
