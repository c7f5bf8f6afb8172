"""A game in progress moves on under its replay: every replay socket of the game is told after each
commit (``games.hooks``), and each one works out what its own viewer may now see (``consumers``)."""

from __future__ import annotations

from games import hooks, publish
from replay.groups import game_group


def _moved(change: hooks.Change) -> None:
    publish.group_send(game_group(change.table.game.pk), {"type": "replay.moved", "seq": change.table.seq})


hooks.register("replay", _moved, order=20)
