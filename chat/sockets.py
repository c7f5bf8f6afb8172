"""The chat's messages on the table's socket (docs/live-tables.md "Chat"), registered into
games.live.consumers.SEAT_MESSAGES when the app is ready.

client → server: ``{"type": "chat", "phrase": KEY}`` or ``{"type": "chat", "text": "…"}``;
``{"type": "chat_history"}``; ``{"type": "chat_report", "id": N}``. Each may carry a ``command_id``,
given back with an ``error``.

server → client: ``{"type": "chat", "history": bool, "messages": [{id, seat, phrase | text, at}]}`` —
``history`` true is the table's last messages (the answer to ``chat_history``), false a message just
said, sent to every seat of the table (the speaker's own page included); ``{"type": "chat_reported",
"id": N}`` to the reader who reported it.
"""

from __future__ import annotations

from typing import Any

from chat import service
from games.live import consumers
from games.live.consumers import Speaker


def _say(speaker: Speaker, content: dict[str, Any]) -> dict[str, Any] | None:
    service.say(speaker, content)
    return None  # the page hears its own message with the others (one order for everyone)


def _history(speaker: Speaker, content: dict[str, Any]) -> dict[str, Any]:
    return service.frame(service.history(speaker), history=True)


def _report(speaker: Speaker, content: dict[str, Any]) -> dict[str, Any]:
    return {"type": "chat_reported", "id": service.report(speaker, content)}


def register() -> None:
    consumers.SEAT_MESSAGES.update({"chat": _say, "chat_history": _history, "chat_report": _report})
