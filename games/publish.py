"""After a commit: one message per audience (each seat, the spectators), views computed once each."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.groups import public_group, seat_group

if TYPE_CHECKING:
    from games.service import Table

log = logging.getLogger(__name__)


def table_message(table: Table, seat: int | None) -> dict[str, Any]:
    """What one audience is sent: its view of the table and the table's public facts."""
    return {
        "game": table.game.pk,
        "seq": table.seq,
        "seat": seat,
        "view": table.engine.view(table.state, seat),
        "to_act": table.to_act(),
        "legal_actions": table.engine.legal_actions(table.state, seat) if seat is not None else [],
        "can_undo": table.timeline.can_undo and table.game.allows_undo,
        "can_redo": table.timeline.can_redo and table.game.allows_undo,
        "paused": table.timeline.paused,
        "status": table.game.status,
    }


def table_changed(table: Table) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    send = async_to_sync(layer.group_send)
    audiences: list[tuple[str, int | None]] = [(public_group(table.game.pk), None)]
    audiences += [(seat_group(table.game.pk, n), n) for n in range(table.game.config["players"])]
    for group, seat in audiences:
        try:
            send(group, {"type": "table.update", "message": table_message(table, seat)})
        except Exception:  # a full or unreachable layer must not undo a committed move
            log.exception("could not publish game %s seq %s to %s", table.game.pk, table.seq, group)
