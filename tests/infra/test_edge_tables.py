"""The spectator edge's picture of a table (infra/edge/tables.py), kept by the browser client's rule."""

from __future__ import annotations

import asyncio
import json

from infra.edge.tables import KEEP, Table, applied


def update(seq: int, since: int, **fields: object) -> str:
    return json.dumps({"type": "update", "seq": seq, "since": since, **fields})


def table_with_state(seq: int) -> Table:
    async def make() -> Table:
        return Table(7)

    table = asyncio.run(make())
    table.keep(
        "en", {"type": "state", "seq": seq, "since": seq, "seats": ["A", "B"], "view": {"total": 0}}, 0.0
    )
    return table


def hear(table: Table, text: str) -> None:
    fields = json.loads(text)
    table.heard(fields["seq"], fields["since"], text, fields)


def test_an_update_that_follows_replaces_the_fields_and_keeps_the_seats():
    state = {"type": "state", "seq": 4, "since": 4, "seats": ["A"], "view": {"total": 1}}
    after = applied(state, 5, 4, update(5, 4, view={"total": 2}))
    assert after == {"type": "state", "seq": 5, "since": 5, "seats": ["A"], "view": {"total": 2}}
    assert applied(state, 4, 4, update(4, 4)) is state  # old news (a delayed table that did not move)
    assert applied(state, 7, 6, update(7, 6)) is None  # a gap: the picture is read again


def test_resuming_from_a_seq_sends_the_kept_updates_after_it_or_nothing_usable():
    table = table_with_state(10)
    for seq in range(11, 15):
        hear(table, update(seq, seq - 1))
    assert table.seq == 14 and table.states["en"]["view"] == {"total": 0}
    assert [json.loads(t)["seq"] for t in table.resumed(11) or []] == [12, 13, 14]
    assert table.resumed(14) == []  # up to date: nothing to send, no state either
    assert table.resumed(9) is None  # older than what is kept: the state instead
    assert table.resumed(99) is None


def test_only_the_last_updates_are_kept_and_a_gap_loses_the_picture():
    table = table_with_state(0)
    for seq in range(1, KEEP + 11):
        hear(table, update(seq, seq - 1))
    assert len(table.recent) == KEEP and table.resumed(5) is None
    hear(table, update(KEEP + 12, KEEP + 11))  # one missed
    assert table.states == {} and table.resumed(KEEP + 10) is None


def test_each_language_keeps_its_seats_and_every_update_reaches_them_all():
    table = table_with_state(3)
    table.keep(
        "ht", {"type": "state", "seq": 3, "since": 3, "seats": ["Envite 1"], "view": {"total": 0}}, 0.0
    )
    before = table.text("ht")
    hear(table, update(4, 3, view={"total": 1}))
    assert table.seq == 4
    assert table.states["en"]["seats"] == ["A", "B"] and table.states["ht"]["seats"] == ["Envite 1"]
    assert all(state["view"] == {"total": 1} for state in table.states.values())
    assert table.text("ht") != before and json.loads(table.text("ht")) == table.states["ht"]
    assert table.text("ht") is table.text("ht")  # encoded once while it is kept
    table.keep("tl", {"type": "state", "seq": 5, "since": 5, "seats": ["Bisita 1"], "view": {}}, 0.0)
    assert table.seq is None and table.resumed(3) is None  # read past the updates heard: the state then


def test_seats_changed_reaches_the_edges_sockets_and_its_pictures_are_read_again():
    """A seat taken (games.live.publish.seats_changed): the edge forwards the frame, whose pages ask for the
    table again, and forgets its pictures, which name the seats as they were."""
    from infra.edge.server import Edge

    table = table_with_state(10)
    edge = Edge("redis://unused", "/ws/watch/")
    edge.tables[7] = table
    sent: list[str] = []
    edge.send_all = lambda _table, text: sent.append(text)  # type: ignore[method-assign]
    frame = json.dumps({"type": "seats_changed"})
    edge._message(b"tablehall:spectators:7", frame.encode())
    assert sent == [frame]
    assert not table.states and table.seq is None, "the next state is read with the new names"
    edge.pool.shutdown()
