"""A table as the spectator edge holds it: its sockets, its last updates and the spectators' picture,
kept up to date by the browser client's rule; and the read side's picture of it (``read_state``)."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any

from websockets.asyncio.server import ServerConnection

KEEP = 64  # updates kept per table for ``?since``
STATE_TTL = 10.0  # seconds a table's picture is served from memory before it is read again


class Table:
    """One table's subscription, its sockets, its last updates and its picture."""

    def __init__(self, game_id: int, subscribed: asyncio.Future[None] | None = None) -> None:
        self.game_id = game_id
        self.live: set[ServerConnection] = set()
        self.held: dict[ServerConnection, list[tuple[int, str]]] = {}
        self.recent: deque[tuple[int, int, str]] = deque(maxlen=KEEP)  # (seq, since, text)
        self.state: dict[str, Any] | None = None
        self.read_at = 0.0
        self.reading: asyncio.Future[dict[str, Any]] | None = None
        # Done when Redis confirms the table's subscription (infra/edge/subscriptions.py).
        self.subscribed = subscribed if subscribed is not None else asyncio.get_running_loop().create_future()

    def heard(self, seq: int, since: int, text: str, fields: dict[str, Any]) -> None:
        self.recent.append((seq, since, text))
        self.state = applied(self.state, seq, since, fields)

    def resumed(self, since: int) -> list[str] | None:
        """The kept updates after ``since``, when they reach back to it and up to the picture."""
        if self.state is None:
            return None
        texts, at = [], since
        for seq, before, text in self.recent:
            if seq <= at:
                continue
            if before != at:
                return None
            texts.append(text)
            at = seq
        return texts if at == self.state["seq"] else None


def applied(
    state: dict[str, Any] | None, seq: int, since: int, fields: str | dict[str, Any]
) -> dict[str, Any] | None:
    """The picture after an update, by the browser client's rule (connection.js): old news changes
    nothing, a gap loses the picture (it is read again), else the update's fields replace the state's."""
    if state is None or seq <= state["seq"]:
        return state
    if since != state["seq"]:
        return None
    return {**state, **(json.loads(fields) if isinstance(fields, str) else fields), "type": "state"}


def read_state(game_id: int) -> dict[str, Any]:
    """The spectators' state of a table, from the read side (in a worker thread)."""
    from django.db import close_old_connections

    from games import publish, service
    from games.errors import database_guard

    close_old_connections()
    with database_guard():
        service.get_game(game_id)
        return publish.snapshot(service.load_table(game_id), None)
