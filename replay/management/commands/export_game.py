"""export_game ID|--all [--out DIR] [--perspective all|public|SEAT]: hand histories as JSON files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.eventlog import queries
from replay.export import Refused, export_game, parse_perspective


class Command(BaseCommand):
    help = (
        "Write a game's hand history (docs/hand-history.md) for one audience: all (every stored event, "
        "for arbiters and import_game; finished games only), public, or a seat number."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", nargs="?", type=int, help="the game to export")
        parser.add_argument("--all", action="store_true", help="every finished game, one file each")
        parser.add_argument("--out", help="the directory to write to (the file goes to stdout without it)")
        parser.add_argument("--perspective", default="all", help="all (default), public, or a seat number")

    def handle(self, *args: Any, **options: Any) -> None:
        if (options["game"] is None) == (not options["all"]):
            raise CommandError("name one game, or --all")
        try:
            perspective = parse_perspective(options["perspective"])
        except Refused as exc:
            raise CommandError(str(exc)) from None
        out = Path(options["out"]) if options["out"] else None
        if options["all"]:
            if out is None:
                raise CommandError("--all writes one file per game: give --out DIR")
            self._export_all(perspective, out)
            return
        try:
            doc = export_game(options["game"], perspective)
        except Refused as exc:
            raise CommandError(str(exc)) from None
        if out is None:
            self.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1))
        else:
            path = _write(out, doc)
            self.stdout.write(f"wrote {path}")

    def _export_all(self, perspective: str | int, out: Path) -> None:
        ids = queries.finished_games()
        written = skipped = 0
        for number, game_id in enumerate(ids, start=1):
            try:
                _write(out, export_game(game_id, perspective))
                written += 1
            except Refused as exc:
                skipped += 1
                self.stdout.write(f"skipped game {game_id}: {exc}")
            if number % 50 == 0:
                self.stdout.write(f"{number}/{len(ids)} games")
        self.stdout.write(f"wrote {written} files to {out}, skipped {skipped} games")


def file_name(doc: dict[str, Any]) -> str:
    seen = doc["perspective"]
    audience = seen if isinstance(seen, str) else f"seat{seen}"
    return f"game-{doc['game']['id']}-{audience}.json"


def _write(out: Path, doc: dict[str, Any]) -> Path:
    """Write through a temporary file, so a file under its final name is always whole."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        path = out / file_name(doc)
        partial = path.with_suffix(".json.part")
        partial.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(partial, path)
    except OSError as exc:
        raise CommandError(f"cannot write to {out}: {exc}") from None
    return path
