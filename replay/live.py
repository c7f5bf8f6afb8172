"""A game in progress moves on under its replay: every replay socket of the game is told with the
table's own updates (``games.live.publish.follow``), and each one works out what its own viewer may now
see (``consumers.ReplayConsumer.replay_moved``)."""

from __future__ import annotations

from typing import Any

from games.eventlog.tables import Table
from replay.groups import game_group


def moved(table: Table) -> list[tuple[str, dict[str, Any]]]:
    """A follower of the table's updates (registered in replay/apps.py)."""
    return [(game_group(table.game.pk), {"type": "replay.moved", "seq": table.seq})]
