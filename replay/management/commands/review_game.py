"""review_game ID [--queue] [--force] [--samples N …]: review a finished game, print the summary."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.errors import ServiceError
from replay import review
from replay.models import Review

SETTINGS = ("samples", "measure", "batches", "inaccuracy", "mistake", "win", "exact")


class Command(BaseCommand):
    help = (
        "Review a finished game with the strong bot (each decision from its seat's view) and print "
        "each player's summary; --queue hands it to the workers instead."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", type=int)
        parser.add_argument("--queue", action="store_true", help="request it from the workers and return")
        parser.add_argument("--force", action="store_true", help="review again even if a review is done")
        parser.add_argument("--all", action="store_true", help="list every decision, not only the flagged")
        for name in SETTINGS:
            parser.add_argument(f"--{name}", type=float, help=f"override the engine's default {name}")

    def handle(self, *args: Any, **options: Any) -> None:
        game_id: int = options["game"]
        overrides = {name: options[name] for name in SETTINGS if options[name] is not None}
        try:
            current = review.request(
                game_id, force=options["force"] or bool(overrides), queue=options["queue"]
            )
        except ServiceError as exc:
            raise CommandError(f"game {game_id}: {exc.text}") from None
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if options["queue"]:
            self.stdout.write(f"review of game {game_id}: {current.status}")
            return
        if current.status != Review.Status.DONE:
            status = review.run(game_id, overrides, self._progress)
            if status != Review.Status.DONE:
                current.refresh_from_db()
                raise CommandError(f"review of game {game_id} {status}: {current.error}")
        self._print(game_id, options["all"])

    def _progress(self, done: int, total: int) -> None:
        if done and done % 50 == 0:
            self.stdout.write(f"reviewed {done}/{total} moves")

    def _print(self, game_id: int, everything: bool) -> None:
        summary = review.summary(game_id)
        assert summary is not None
        settings = summary["settings"]
        self.stdout.write(
            f"game {game_id}: losses in points; inaccuracy from {settings['inaccuracy']}, "
            f"mistake from {settings['mistake']}"
        )
        for row in review.timeline(game_id, flagged_only=not everything):
            self.stdout.write(
                f"  #{row['seq']} seat {row['seat']} {row['label'] or '-'} {row['loss']}: "
                f"played {_action(row['played'])}, best {_action(row['best'])}"
            )
        for seat in summary["seats"]:
            self.stdout.write(
                self.style.SUCCESS(
                    f"seat {seat['seat']} {seat['name']}: decisions {seat['decisions']}, "
                    f"inaccuracies {seat['inaccuracies']}, mistakes {seat['mistakes']}, "
                    f"mean loss {seat['mean_loss']}, total {seat['total_loss']}"
                )
            )


def _action(action: dict[str, Any]) -> str:
    """``play end=center tile=5-5``: the keys sorted (a JSON column keeps no order)."""
    rest = " ".join(f"{key}={action[key]}" for key in sorted(action) if key != "type")
    return f"{action['type']} {rest}".strip()
