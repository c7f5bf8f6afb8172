"""What each audience is sent: its view computed once per change, then fanned out by group.

Spectators of a table with a spectator delay see the table as it was that many moves ago.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.groups import public_group, seat_group
from games.timeline import FAIR_PREFIX, TABLE_EVENTS

if TYPE_CHECKING:
    from games.models import Event
    from games.service import Table

log = logging.getLogger(__name__)


def table_message(table: Table, seat: int | None, since: int) -> dict[str, Any]:
    """One audience's picture of the table. ``since``: the seq this message follows (gap detection)."""
    return {
        "game": table.game.pk,
        "seq": table.seq,
        "since": since,
        "seat": seat,
        "view": table.engine.view(table.state, seat),
        "to_act": table.to_act(),
        "legal_actions": (
            table.engine.legal_actions(table.state, seat)
            if seat is not None and not table.timeline.abandoned
            else []
        ),
        "can_undo": table.timeline.can_undo and table.game.allows_undo,
        "can_redo": table.timeline.can_redo and table.game.allows_undo,
        "paused": table.timeline.paused,
        "game_number": table.timeline.game_number,
        "finished": table.outcome() is not None,
        # Why the game was stopped before its end ("forfeit", "no-show"…); None while it goes on.
        "stopped": (table.timeline.abandon_reason or "stopped") if table.timeline.abandoned else None,
        "last_move": last_move(table),
    }


def last_move(table: Table) -> dict[str, Any] | None:
    """Who made the last move and what happened, for the move log: event types always, event data
    only for the types the engine lists in ``PUBLIC_EVENTS`` (everything in them is public)."""
    if not table.events:
        return None
    last = table.events[-1]
    public: frozenset[str] = getattr(table.engine, "PUBLIC_EVENTS", frozenset())
    events = []
    for e in reversed(table.events):  # a command's events are contiguous and end the log
        if e.command_id != last.command_id:
            break
        if e.type.startswith(FAIR_PREFIX):
            continue  # the fair-deal proof is no move (and its commitment holds a secret)
        shown = e.type in public or e.type in TABLE_EVENTS
        events.append({"type": e.type, **(e.data if shown else {})})
    events.reverse()
    return {"actor": last.actor, "seq": last.seq, "events": events}


def _command_ends(events: list[Event]) -> list[int]:
    """The seq that ends each command, in order."""
    ends: list[int] = []
    for index, event in enumerate(events):
        if index + 1 == len(events) or events[index + 1].command_id != event.command_id:
            ends.append(event.seq)
    return ends


def _moves_back(events: list[Event], delay: int) -> int:
    """The seq spectators may see: the end of the last command at least ``delay`` moves old."""
    if delay <= 0 or not events:
        return events[-1].seq if events else 0
    ends = _command_ends(events)
    return ends[-1 - delay] if len(ends) > delay else ends[0]


def spectator_cut(table: Table) -> int:
    """The seq spectators may see of this table now.

    A table whose cards other tables are still playing (a duplicate round) shows spectators only
    its opening: what they saw played here would tell them the hands over there.
    """
    if table.game.deal_is_secret():
        ends = _command_ends(table.events)
        return ends[0] if ends else 0
    return _moves_back(table.events, table.game.spectator_delay)


def spectator_table(table: Table) -> Table:
    cut = spectator_cut(table)
    if cut == table.seq:
        return table
    from games.service import load_table

    return load_table(table.game, upto=cut)


def snapshot(table: Table, seat: int | None) -> dict[str, Any]:
    """The full picture for a (re)connecting client, with the seats around the table."""
    shown = table if seat is not None else spectator_table(table)
    seats = [
        {
            "number": s.number,
            "name": s.display_name,
            "bot": s.bot_level or None,
            "computer": s.bot_number if s.bot_level else None,
            "team": s.team,
        }
        for s in table.game.seats.all()
    ]
    return {**table_message(shown, seat, shown.seq), "seats": seats, "engine": table.game.engine}


def table_changed(table: Table) -> None:
    """Send every audience its new picture: each seat's view, and the spectators' (maybe delayed)."""
    layer = get_channel_layer()
    if layer is None:
        return
    ends = _command_ends(table.events)
    since = ends[-2] if len(ends) > 1 else 0
    messages = [
        (seat_group(table.game.pk, n), table_message(table, n, since))
        for n in range(table.game.config["players"])
    ]
    if not table.game.deal_is_secret():  # else spectators keep the opening (spectator_cut)
        public = spectator_table(table)
        delay = table.game.spectator_delay
        public_since = _moves_back(table.events[:since], delay) if since else 0
        messages.append((public_group(table.game.pk), table_message(public, None, public_since)))
    # Encoded once here, not once per socket: consumers forward the text as it is.
    texts = [
        (group, json.dumps({"type": "update", **message}, separators=(",", ":")))
        for group, message in messages
    ]

    async def send_all() -> None:
        # One trip into the event loop for every audience: each async_to_sync call costs a thread hop.
        for group, text in texts:
            try:
                await layer.group_send(group, {"type": "table.update", "text": text})
            except Exception:  # a full or unreachable layer must not undo a committed move
                log.exception("could not publish game %s seq %s to %s", table.game.pk, table.seq, group)

    try:
        async_to_sync(send_all)()
    except Exception:  # e.g. called from a thread that runs an event loop: the move stands regardless
        log.exception("could not publish game %s seq %s", table.game.pk, table.seq)
