"""The room screen and the round clock: the clock's fold against a computation written here, its
actions as events of the tournament's log (the organiser's only, bounded), and the screen showing the
pairings by name alphabetically, the tables, the standings and the clock — never a hidden card."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from games import engines, streams
from games.tables import load_table
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
    assert client.post(url, {"action": "start"}).status_code == 400  # not set yet
    for bad in (
        {"action": "set", "minutes": "0"},
        {"action": "set", "minutes": "361"},
        {"action": "set", "minutes": "²"},
        {"action": "explode"},
    ):
        assert client.post(url, bad).status_code == 400
    before = [e.type for e in streams.read(row.stream_id)]
    assert not any(t.startswith("clock.") for t in before)
    for data in (
        {"action": "set", "minutes": "20"},
        {"action": "start"},
        {"action": "extend", "minutes": "5"},
        {"action": "last_hand"},
    ):
        assert client.post(url, data).status_code == 302, data
    assert client.post(url, {"action": "start"}).status_code == 400  # running already
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
    assert client.post(url, {"action": "pause"}).status_code == 403
    assert client.get(f"/tournaments/{row.pk}/screen/?part=panels").status_code == 200
    assert client.get(f"/tournaments/{row.pk}/screen/?lang=" + "x" * 5000).status_code == 200
    club = client.get("/clubs/friday/screen/").content.decode()
    assert row.name in club and 'id="clock"' in club
    assert client.get("/clubs/nowhere/screen/").status_code == 404
    assert client.get("/tournaments/99999999999999999999/screen/").status_code == 404
