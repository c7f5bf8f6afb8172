"""estimate_game_lengths [--games N] [--out FILE] [--only GAME]: how many moves games take, by simulation.

Plays ``--games`` games between computer players ("Easy", the greedy level) for every config the
forms offer (games.eventlog.lengths.simulated_configs) with the engines and bots alone, and writes the
median number of moves (and hands) per config to games/data/game_lengths.json, which is committed.
tournaments.estimate turns them into minutes until enough real games have been played.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.eventlog import lengths


class Command(BaseCommand):
    help = "Simulate games between computer players and store how many moves each config takes."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--games", type=int, default=20, help="games per config")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--out", default=str(lengths.DATA))
        parser.add_argument("--only", default=None, help="one game only (the others are kept from the file)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        out = Path(options["out"])
        kept: list[dict[str, Any]] = []
        if options["only"] and out.exists():
            kept = [r for r in json.loads(out.read_text())["rows"] if r["engine"] != options["only"]]
        rows = list(kept)
        for config in lengths.simulated_configs():
            engine = config.pop("game")
            if options["only"] and engine != options["only"]:
                continue
            started = time.monotonic()
            row = lengths.simulate(engine, config, options["games"], options["seed"])
            rows.append(row)
            self.stdout.write(
                f"{engine} {json.dumps(row['key'], sort_keys=True)}: {row['moves']} moves "
                f"(p90 {row['moves_p90']}), {row['hands']} hands, {time.monotonic() - started:.1f} s"
            )
        rows.sort(key=lambda r: (r["engine"], json.dumps(r["key"], sort_keys=True)))
        body = {
            "about": "Moves per game between computer players (greedy, 'Easy'), median of "
            f"{options['games']} games per config; written by manage.py estimate_game_lengths.",
            "level": lengths.SIMULATION_LEVEL,
            "games_per_config": options["games"],
            "generated": datetime.now(UTC).date().isoformat(),
            "rows": rows,
        }
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(_dump(body), encoding="utf-8")
        self.stdout.write(f"wrote {len(rows)} configs to {out}")


def _dump(body: dict[str, Any]) -> str:
    """JSON with one config a line, so that a new run reads as a short diff."""
    head = {k: v for k, v in body.items() if k != "rows"}
    lines = [json.dumps(row, sort_keys=True, ensure_ascii=False) for row in body["rows"]]
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    return text + ',\n "rows": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"
