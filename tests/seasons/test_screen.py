"""The room screen and the round clock: the clock's fold against a computation written here, its
actions as events of the tournament's log (the organiser's only, bounded), and the screen showing the
pairings by name alphabetically, the tables, the standings and the clock — never a hidden card."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from games import engines
from games.eventlog import streams
from games.eventlog.tables import load_table
from tournaments import clock, simulate
from tournaments import service as tournaments
from tournaments.models import Club, Entry, MatchGame

T0 = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def _at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()


def test_the_clock_fold_counts_running_time_only():
    events = [
        {"type": "round.started", "round": 1},
        {"type": clock.SET, "round": 1, "seconds": 1800, "at": _at(0)},
        {"type": clock.STARTED, "round": 1, "at": _at(1)},
        {"type": clock.PAUSED, "round": 1, "at": _at(11)},  # ran 10 minutes
        {"type": clock.EXTENDED, "round": 1, "seconds": 300, "at": _at(12)},
        {"type": clock.STARTED, "round": 1, "at": _at(20)},
        {"type": clock.LAST_HAND, "round": 1, "at": _at(40)},
    ]
    c = clock.fold(events)[1]
    assert c.seconds == 2100 and c.running and c.last_hand
    now = T0 + timedelta(minutes=30)  # 10 + 10 minutes run
    assert c.remaining(now) == 2100 - 20 * 60
    assert clock.check({1: c}, clock.STARTED, 1, None) == "clock_running"
    assert clock.check({1: c}, clock.LAST_HAND, 1, None) == "last_hand_called"
    assert clock.check({}, clock.STARTED, 2, None) == "clock_not_set"
    assert clock.check({}, clock.SET, 2, 59) == "bad_seconds"
    assert clock.check({}, clock.SET, 2, 6 * 3600 + 1) == "bad_seconds"


@pytest.fixture()
def running(db):
    club = Club.objects.create(name="Friday club", slug="friday")
    user = get_user_model().objects.create_user("director", is_staff=True)
    row = simulate.setup(
        "kazino", "swiss", 5, {"game_config": {"match": "single"}, "rounds": 2}, "greedy", club=club, seed=5
    )
    tournaments.start(row)
    row.refresh_from_db()
    return row, user


@pytest.mark.django_db(transaction=True)
def test_the_clock_is_the_organiser_s_events_in_the_tournament_s_log(client, running):
    row, user = running
    url = f"/tournaments/{row.pk}/clock/"
    assert client.get(url).status_code == 403
    client.force_login(user)
    assert client.post(url, {"clock": "start"}).status_code == 400  # not set yet
    for bad in (
        {"clock": "set", "minutes": "0"},
        {"clock": "set", "minutes": "361"},
        {"clock": "set", "minutes": "²"},
        {"clock": "explode"},
    ):
        assert client.post(url, bad).status_code == 400
    before = [e.type for e in streams.read(row.stream_id)]
    assert not any(t.startswith("clock.") for t in before)
    for data in (
        {"clock": "set", "minutes": "20"},
        {"clock": "start"},
        {"clock": "extend", "minutes": "5"},
        {"clock": "last_hand"},
    ):
        assert client.post(url, data).status_code == 302, data
    assert client.post(url, {"clock": "start"}).status_code == 400  # running already
    types = [e.type for e in streams.read(row.stream_id)][len(before) :]
    assert types == [clock.SET, clock.STARTED, clock.EXTENDED, clock.LAST_HAND]
    page = client.get(url).content.decode()
    assert 'id="still-playing"' in page  # the round's tables are still being played

    screen = client.get(f"/tournaments/{row.pk}/screen/?lang=ht,tl").content.decode()
    assert 'id="clock"' in screen and 'id="last-hand"' in screen and "<svg" in screen
    c = re.search(r'data-remaining="([0-9.]+)"', screen)
    assert c is not None and 24 * 60 < float(c.group(1)) <= 25 * 60
    # the pairings by name, alphabetically, each with a table
    names = re.findall(r'<li><span class="name">([^<]+)</span> <span class="where">', screen)
    entrants = {e.shown_name for e in Entry.objects.filter(tournament=row)}
    assert sorted(names, key=str.casefold) == names and set(names) <= entrants and len(names) == 5
    # no card of any live hand or of the stock on the screen, in any panel
    text = re.sub(r"<svg.*?</svg>", "", screen, flags=re.S)
    for mg in MatchGame.objects.filter(match__tournament=row):
        table = load_table(mg.game_id)
        for card in engines.get("kazino").hidden_from(table.state, None):
            assert not re.search(rf"(?<![\w#-]){re.escape(card)}(?![\w-])", text), card
    # other people may look, but not act
    other = get_user_model().objects.create_user("player")
    client.force_login(other)
    assert client.post(url, {"clock": "pause"}).status_code == 403
    assert client.get(f"/tournaments/{row.pk}/screen/?part=panels").status_code == 200
    assert client.get(f"/tournaments/{row.pk}/screen/?lang=" + "x" * 5000).status_code == 200
    club = client.get("/clubs/friday/screen/").content.decode()
    assert row.name in club and 'id="clock"' in club
    assert client.get("/clubs/nowhere/screen/").status_code == 404
    assert client.get("/tournaments/99999999999999999999/screen/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_clock_page_and_the_console_read_one_form_and_the_screen_one_clock(client, running, monkeypatch):
    """One form for the clock's buttons (the clock page's and the console's): "extend" needs its
    minutes on both. The screen reads its tournament's clock from the row it loaded, and draws its QR
    code only for the whole page, never for the refresh of its panels on each nudge."""
    from frontend import screen as room_screen

    row, user = running
    client.force_login(user)
    for url, field in (
        (f"/tournaments/{row.pk}/clock/", "clock"),
        (f"/tournaments/{row.pk}/do/clock", "clock"),
    ):
        client.post(url, {field: "set", "minutes": "20"})
        refused = client.post(url, {field: "extend"})
        assert refused.status_code == 400 and "Say by how many minutes." in refused.content.decode()
    assert not any(e.type == clock.EXTENDED for e in streams.read(row.stream_id))
    drawn: list[str] = []
    real = room_screen.qr_svg
    monkeypatch.setattr(room_screen, "qr_svg", lambda url, *a, **k: drawn.append(url) or real(url, *a, **k))
    panels = client.get(f"/tournaments/{row.pk}/screen/?part=panels").content.decode()
    assert 'id="clock"' in panels and drawn == []
    page = client.get(f"/tournaments/{row.pk}/screen/").content.decode()
    assert drawn == [f"http://testserver/tournaments/{row.pk}/"] and '<svg role="img"' in page
