"""A table as the spectator edge holds it: its sockets, its last updates and the spectators' pictures,
kept up to date by the browser client's rule; and the read side's picture of it (``read_state``).

A picture is kept per language in use at the table: the state names seats without a name of their own
("Guest 2", "Computer 3 (Strong)", "Open seat") in the reader's language, as Daphne's table socket does
(games/live/consumers.py). Updates name nobody, so one frame of each serves every language."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any

from websockets.asyncio.server import ServerConnection

KEEP = 64  # updates kept per table for ``?since``
STATE_TTL = 10.0  # seconds a table's picture is served from memory before it is read again


class Table:
    """One table's subscription, its sockets, its last updates and its pictures (one per language)."""

    def __init__(self, game_id: int, subscribed: asyncio.Future[None] | None = None) -> None:
        self.game_id = game_id
        self.live: set[ServerConnection] = set()
        self.held: dict[ServerConnection, list[tuple[int, str]]] = {}
        self.recent: deque[tuple[int, int, str]] = deque(maxlen=KEEP)  # (seq, since, text)
        self.states: dict[str, dict[str, Any]] = {}  # language: the spectators' picture
        self.texts: dict[str, str] = {}  # language: the picture as sent, encoded once
        self.read_at: dict[str, float] = {}
        self.reading: dict[str, asyncio.Future[dict[str, Any]]] = {}
        # Done when Redis confirms the table's subscription (games/live/pubsub.py).
        self.subscribed = subscribed if subscribed is not None else asyncio.get_running_loop().create_future()

    def heard(self, seq: int, since: int, text: str, fields: dict[str, Any]) -> None:
        self.recent.append((seq, since, text))
        for language, state in list(self.states.items()):
            after = applied(state, seq, since, fields)
            if after is state:
                continue
            self.texts.pop(language, None)
            if after is None:
                del self.states[language]
            else:
                self.states[language] = after

    def forget_pictures(self) -> None:
        """The seats changed (a seat taken): every kept picture names them as they were. The next
        ``state`` (a socket's connect or ``resync``) is read again."""
        self.states.clear()
        self.texts.clear()
        self.read_at.clear()

    def keep(self, language: str, state: dict[str, Any], read_at: float) -> None:
        self.states[language], self.read_at[language] = state, read_at
        self.texts.pop(language, None)

    def text(self, language: str) -> str:
        """The kept picture in ``language`` as the ``state`` frame's text."""
        if language not in self.texts:
            self.texts[language] = encode(self.states[language])
        return self.texts[language]

    @property
    def seq(self) -> int | None:
        """The seq every kept picture has reached, None when there is none (or they differ a moment)."""
        seqs = {int(state["seq"]) for state in self.states.values()}
        return seqs.pop() if len(seqs) == 1 else None

    def resumed(self, since: int) -> list[str] | None:
        """The kept updates after ``since``, when they reach back to it and up to the pictures."""
        head = self.seq
        if head is None:
            return None
        texts, at = [], since
        for seq, before, text in self.recent:
            if seq <= at:
                continue
            if before != at:
                return None
            texts.append(text)
            at = seq
        return texts if at == head else None


def encode(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"))


def applied(
    state: dict[str, Any] | None, seq: int, since: int, fields: str | dict[str, Any]
) -> dict[str, Any] | None:
    """The picture after an update, by the browser client's rule (connection.js): old news changes
    nothing, a gap loses the picture (it is read again), else the update's fields replace the state's."""
    if state is None or seq <= state["seq"]:
        return state
    if since != state["seq"]:
        return None
    # A state's ``since`` is its own seq, as the read side's (games.live.publish.snapshot).
    return {
        **state,
        **(json.loads(fields) if isinstance(fields, str) else fields),
        "type": "state",
        "since": seq,
    }


def read_state(game_id: int, language: str) -> dict[str, Any]:
    """The spectators' state of a table in ``language``, from the read side (in a worker thread), as
    Daphne's table socket reads it for a socket in that language."""
    from django.db import close_old_connections
    from django.utils import translation

    from games.access.seats import Requester
    from games.errors import database_guard
    from games.eventlog.tables import get_seen_game, load_table
    from games.live import publish

    close_old_connections()
    with database_guard(), translation.override(language):
        # The edge knows nobody: a table whose deal is secret is no table here (games.access.seats.may_see).
        # Nothing of it is kept before this passes, and a release only ever opens a table.
        get_seen_game(game_id, Requester())
        return publish.snapshot(load_table(game_id), None)
