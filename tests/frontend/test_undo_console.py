"""The console's undo (#30): a button naming the last action, a confirmation, then the undo; a page
out of date or a refused undo changes nothing."""

from __future__ import annotations

import html as html_lib

import pytest

from games.eventlog import streams
from tests.frontend.test_console_forms import do, status_line
from tournaments import projection, service

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_undo_button_names_the_action_asks_then_undoes(client, organiser):
    row = service.create(
        "Undo Cup", "kazino", "swiss", {"game_config": {"match": "single"}, "auto_start": False}, by=organiser
    )
    names = ["Ana", "Ben", "Cy", "Dee"]
    do(client, row, "paste_names", names="\n".join(names))
    do(client, row, "start")
    t = projection.load(row.stream_id)
    (a, b), (c, _d) = (tb.entrants for tb in t.rounds[0].tables)
    do(client, row, "edit_pairing", edit="swap", a=str(a), b=str(c), reason="mistake", confirmed="1")
    page = html_lib.unescape(client.get(f"/tournaments/{row.pk}/").content.decode())
    who = {n + 1: name for n, name in enumerate(names)}
    assert f"Undo: {who[a]} and {who[c]} swapped places." in page
    seq = service.last_action(row.stream_id).seq
    stored = len(streams.read(row.stream_id))
    asked = html_lib.unescape(do(client, row, "undo", seq=str(seq)).content.decode())
    assert f"Undo this action? {who[a]} and {who[c]} swapped places." in asked and "Keep it as it is" in asked
    assert len(streams.read(row.stream_id)) == stored, "the first press only asks"
    for junk in ("", "-1", "x", "9" * 30):
        assert do(client, row, "undo", seq=junk, confirmed="1").status_code == 400
    assert do(client, row, "undo", seq=str(seq - 1), confirmed="1").status_code == 409
    assert len(streams.read(row.stream_id)) == stored
    done = html_lib.unescape(do(client, row, "undo", seq=str(seq), confirmed="1").content.decode())
    assert status_line(done) == f"Undone: {who[a]} and {who[c]} swapped places."
    assert [tb.entrants for tb in projection.load(row.stream_id).rounds[0].tables] == [[a, b], [c, _d]]
