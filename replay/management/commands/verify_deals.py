"""verify_deals ID | --file FILE: check that a game's deals were fixed before they were dealt."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import engines
from games.engines.base import IllegalAction
from games.errors import NotFound
from replay import fair
from replay.history import BadFile, check_chain, parse_all


class Command(BaseCommand):
    help = (
        "Check a game's fair-deal proof (docs/fair-deals.md): every deal played must be the one committed "
        'to before it was dealt. A stored game by id, or an "all" hand-history file.'
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", nargs="?", type=int)
        parser.add_argument("--file", help='an "all" export (export_game ID --perspective all)')

    def handle(self, *args: Any, **options: Any) -> None:
        if (options["game"] is None) == (options["file"] is None):
            raise CommandError("name one game, or --file FILE")
        verdict = self._from_file(options["file"]) if options["file"] else self._stored(options["game"])
        line = f"{verdict.status}: {verdict.message}"
        if verdict.roots:
            line += f" (commitment {', '.join(verdict.roots)})"
        if not verdict.ok:
            raise CommandError(line)
        self.stdout.write(self.style.SUCCESS(line))

    def _stored(self, game_id: int) -> fair.Verdict:
        try:
            return fair.verify(game_id)
        except NotFound:
            raise CommandError(f"there is no game {game_id}") from None

    def _from_file(self, name: str) -> fair.Verdict:
        try:
            with open(name, encoding="utf-8") as f:
                found = parse_all(json.load(f))
            check_chain(found.events)  # the proof is only as good as the log it is read from
            engine = engines.get(found.engine)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise CommandError(f"{name}: not a readable JSON file ({exc})") from None
        except BadFile as exc:
            raise CommandError(f"{name}: {exc}") from None
        except IllegalAction:
            raise CommandError(f"{name}: this server has no engine called {found.engine!r}") from None
        return fair.verify_log(engine, found.rows())
