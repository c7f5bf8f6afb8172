"""A table socket's client, as the page's (frontend/static/frontend/table/connection.js) keeps it.

``View`` holds the latest picture of the table by the rules of docs/live-tables.md: a ``state``
replaces it; an ``update`` whose ``since`` is the picture's seq is applied, one at or below it is old
news, one beyond it means an update was missed (ask for ``resync``); ``stale_seq`` also asks for one.
"""

from __future__ import annotations

import json
from typing import Any

# What a client shows, in both a state and an update (``since`` is only the link between updates).
SHOWN = (
    "game",
    "seq",
    "seat",
    "view",
    "to_act",
    "legal_actions",
    "can_undo",
    "can_redo",
    "paused",
    "game_number",
    "finished",
    "last_move",
)


class View:
    def __init__(self) -> None:
        self.snap: dict[str, Any] | None = None
        self.states = self.applied = self.old = self.gaps = 0

    @property
    def seq(self) -> int:
        return -1 if self.snap is None else int(self.snap["seq"])

    def receive(self, message: dict[str, Any]) -> bool:
        """Take one message; True when the client must ask for ``resync``."""
        kind = message.get("type")
        if kind == "state":
            self.snap = message
            self.states += 1
        elif kind == "update":
            if self.snap is None or message["seq"] <= self.snap["seq"]:
                self.old += 1
            elif message["since"] != self.snap["seq"]:
                self.gaps += 1
                return True
            else:
                self.snap = {**self.snap, **message, "type": "state"}
                self.applied += 1
        elif kind == "error":
            return message.get("code") == "stale_seq"
        return False

    def shown(self) -> dict[str, Any]:
        assert self.snap is not None, "no picture of the table"
        return {key: self.snap[key] for key in SHOWN}


def shown(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The server's picture for an audience (games.live.publish.snapshot), as a client would hold it."""
    return {key: value for key, value in json.loads(json.dumps(snapshot)).items() if key in SHOWN}
