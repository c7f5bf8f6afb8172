"""Telling the pages that a tournament changed: one small message to the tournament's group."""

from __future__ import annotations

import logging

from games.live import publish

log = logging.getLogger(__name__)


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(tournament_id: int, seq: int) -> None:
    try:
        publish.group_send(group(tournament_id), {"type": "tournament.changed", "seq": seq})
    except Exception:  # a page that misses a nudge reloads on its next one; the log is safe
        log.warning("could not tell the pages that tournament %s changed", tournament_id, exc_info=True)
