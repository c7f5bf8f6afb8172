"""Telling the pages that a tournament changed: one small message to the tournament's group."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(tournament_id: int, seq: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group(tournament_id), {"type": "tournament.changed", "seq": seq})
    except Exception:  # a page that misses a nudge reloads on its next one; the log is safe
        log.warning("could not tell the pages that tournament %s changed", tournament_id, exc_info=True)
