"""import_game FILE...: verify "all" hand histories and store each one that holds as a new game."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from replay.history import BadFile
from replay.importer import import_history


class Command(BaseCommand):
    help = (
        'Replay every event of each "all" hand-history file through its engine, recompute its hash chain '
        "and check its fair-deal proof; store it as a new game only if everything holds."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        refused = 0
        for name in options["files"]:
            try:
                with open(name, encoding="utf-8") as f:
                    doc = json.load(f)
                game = import_history(doc)
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                refused += 1
                self.stderr.write(f"{name}: refused: not a readable JSON file ({exc})")
            except BadFile as exc:
                refused += 1
                self.stderr.write(f"{name}: refused, nothing stored: {exc}")
            else:
                self.stdout.write(f"{name}: verified and stored as game {game.pk}")
        if refused:
            raise CommandError(f"{refused} of {len(options['files'])} files refused")
