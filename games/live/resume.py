"""What a socket missed: the updates after a seq, exactly as one audience was sent them live
(games.live.publish), for a client that dropped and comes back with ``{"type": "resume", "since": SEQ}``.

Live, each command sends each audience one update: the table after that command (for spectators,
after the last command they may see, the spectator delay and a duplicate deal's secrecy respected),
``since`` the previous one. So the updates after ``since`` are the tables at the command ends after it,
up to what the audience may see now; across a new game at the same table too (the log goes on). When
``since`` is further back than ``MAX_UPDATES`` commands, not a command's end, or ahead of the table,
the answer is None: send the whole state instead.
"""

from __future__ import annotations

from games.eventlog.tables import Table, command_ends, folded_upto, refolded, spectator_cut
from games.live.publish import encode_update, table_message

MAX_UPDATES = 200


def updates_after(table: Table, seat: int | None, since: int) -> list[str] | None:
    """The encoded ``update`` messages after ``since`` for ``seat`` (None: the spectators), oldest
    first; None when a fresh state must be sent instead."""
    upto = table.seq if seat is not None else spectator_cut(table)
    if since > upto:
        return None  # ahead of what this audience may see: a client's mistake, or another table's seq
    ends = command_ends(table.events)
    if since != 0 and since not in ends:
        return None
    missed = [end for end in ends if since < end <= upto]
    if len(missed) > MAX_UPDATES:
        return None
    if not missed:
        return []
    messages: list[str] = []
    shown = folded_upto(table, since)
    previous = since
    for end in missed:
        new = [e for e in table.events if previous < e.seq <= end]
        shown = refolded(shown, new)
        messages.append(encode_update(table_message(shown, seat, previous)))
        previous = end
    return messages
