"""The organiser's round grid for real-card rounds (#30): every table in one form, checked by the same
rules as one table's entry, errors at their table with what was typed kept, nothing stored if any
table is refused; blank tables skipped; bounded rows; organiser only."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.eventlog import streams
from tests.tournaments.test_over_the_board import setup
from tournaments import projection

pytestmark = pytest.mark.django_db(transaction=True)


def as_user(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def grid_data(t, cards):  # type: ignore[no-untyped-def]
    """The grid's post: ``cards[i]`` = (first's, second's) cards at table i+1, or None (left blank)."""
    data = {}
    for i, (table, typed) in enumerate(zip(t.current.tables, cards, strict=True), start=1):
        data[f"t{i}-game"] = "1"
        data[f"t{i}-count"] = "1"
        if typed is not None:
            a, b = table.entrants
            data[f"t{i}-h0-cards-{a}"], data[f"t{i}-h0-cards-{b}"] = typed
    return data


def test_the_grid_records_every_table_at_once_or_nothing():
    row, people = setup(players=6, rounds=2)
    organiser = people[0]
    client = as_user(organiser)
    url = f"/tournaments/{row.pk}/board/round/"
    page = client.get(url)
    assert page.status_code == 200 and page.content.decode().count('class="grid-table') == 3
    t = projection.load(row.stream_id)
    stored = len(streams.read(row.stream_id))
    # Table 2 adds up to 50 cards: refused with the rules' sentence, at that table; nothing stored.
    bad = client.post(url, grid_data(t, [(30, 22), (30, 20), (26, 26)]))
    text = html.unescape(bad.content.decode())
    assert bad.status_code == 400
    key = t.current.tables[1].key
    assert f'id="grid-{key}-error"' in text and "add up to 50, not 52" in text
    assert "Nothing was stored" in text
    assert 'value="30"' in text and 'value="20"' in text, "what was typed is kept"
    assert len(streams.read(row.stream_id)) == stored
    # Junk counts are refused before any work.
    for junk in ("31", "-1", "x"):
        data = grid_data(t, [(30, 22), None, None]) | {"t1-count": junk}
        assert client.post(url, data).status_code == 400, junk
    assert len(streams.read(row.stream_id)) == stored
    # A blank table is skipped; the others are recorded in one command.
    done = client.post(url, grid_data(t, [(30, 22), None, (26, 26)]), follow=True)
    assert "2 tables recorded." in html.unescape(done.content.decode())
    after = projection.load(row.stream_id)
    first, _second, third = after.current.tables if after.current.number == 1 else after.rounds[0].tables
    assert first.result is not None and third.result is not None
    assert after.rounds[0].tables[1].result is None
    a, b = first.entrants
    assert first.result.places == {a: 1, b: 2}


def test_only_the_organiser_sees_the_grid():
    row, people = setup(players=4, rounds=2)
    assert as_user(people[1]).get(f"/tournaments/{row.pk}/board/round/").status_code == 404
    assert Client().get(f"/tournaments/{row.pk}/board/round/").status_code == 404
    assert (
        as_user(get_user_model().objects.create_user("x"))
        .post(f"/tournaments/{row.pk}/board/round/", {})
        .status_code
        == 404
    )
