"""Tournament pages: organising, the public page, exports, leaderboards and a player's history."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from tournaments import simulate
from tournaments.models import Entry, Match, MatchGame, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def organiser(client):
    user = get_user_model().objects.create_user("org", password="pw-tournament-1")
    client.force_login(user)
    return user


def act(client, row, **data):
    return client.post(f"/tournaments/{row.pk}/act", data, follow=True)


def test_an_organiser_sets_up_and_starts_a_tournament_from_the_pages(client, organiser):
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Friday Kazino",
            "game": "kazino",
            "format": "swiss",
            "table_size": "2",
            "best_of": "1",
            "rounds": "2",
        },
    )
    row = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{row.pk}/"
    for _n in range(4):
        act(client, row, action="add_bot", level="random")
    page = act(client, row, action="start")
    assert page.status_code == 200
    row.refresh_from_db()
    assert row.status == "running" and row.round == 1
    html = page.content.decode()
    games = MatchGame.objects.filter(match__tournament=row)
    assert games.count() == 2
    for mg in games:
        assert f'href="/tables/{mg.game_id}/"' in html, "every live table has a link to watch it"
    assert Game.objects.get(pk=games[0].game_id).kind == "tournament"


def test_bad_form_input_says_why_and_creates_nothing(client, organiser):
    response = client.post("/tournaments/new/", {"name": "", "game": "kazino", "format": "swiss"})
    assert response.status_code == 200 and b'class="error"' in response.content
    response = client.post(
        "/tournaments/new/", {"name": "X", "game": "kazino", "format": "swiss", "table_size": "four"}
    )
    assert response.status_code == 302  # a number that is not one falls back to the default table size
    response = client.post(
        "/tournaments/new/", {"name": "Y", "game": "skyjo", "format": "round_robin", "table_size": "4"}
    )
    assert b'class="error"' in response.content
    assert Tournament.objects.count() == 1


def test_only_the_organiser_sees_and_uses_the_controls(client, organiser):
    row = simulate.setup("kazino", "swiss", 2, {"game_config": {"match": "single"}}, "random")
    client.logout()
    other = get_user_model().objects.create_user("someone", password="pw-someone-1")
    client.force_login(other)
    page = client.get(f"/tournaments/{row.pk}/")
    assert b'value="start"' not in page.content and b'value="register"' in page.content
    response = act(client, row, action="start")
    assert b"Only the organiser can do this." in response.content
    row.refresh_from_db()
    assert row.status == "registration"
    act(client, row, action="register")
    assert Entry.objects.filter(tournament=row, user=other).exists()
    response = act(client, row, action="teleport")
    assert b"Unknown action." in response.content


def test_exports_hold_the_standings_and_the_log_without_secrets(client):
    row = simulate.setup("kazino", "round_robin", 3, {"game_config": {"match": "single"}}, "greedy")
    row = simulate.drive(row, timeout=300)
    standings = client.get(f"/tournaments/{row.pk}/standings.csv")
    lines = list(csv.reader(io.StringIO(standings.content.decode())))
    assert lines[0][:2] == ["Rank", "Entrant"] and len(lines) == 4
    assert sorted(int(line[0]) for line in lines[1:])[0] == 1
    body = json.loads(client.get(f"/tournaments/{row.pk}/log.json").content)
    types = [e["type"] for e in body["events"]]
    assert types[0] == "tournament.created" and types[-1] == "tournament.finished"
    assert "secret_seed" not in json.dumps(body)
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert 'id="standings"' in page and "Sonneborn-Berger" in page


def test_an_elimination_page_draws_its_bracket(client):
    row = simulate.setup("kazino", "single_elimination", 5, {"game_config": {"match": "single"}}, "greedy")
    row = simulate.drive(row, timeout=300)
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert '<svg class="bracket"' in page
    finals = Match.objects.filter(tournament=row).order_by("-round").first()
    assert f'data-match="{finals.key}"' in page


def test_leaderboards_and_player_pages_follow_the_rated_games(client):
    row = simulate.setup("kazino", "round_robin", 3, {"game_config": {"match": "single"}}, "greedy")
    simulate.drive(row, timeout=300)
    board = client.get("/ratings/").content.decode()
    assert "Bot 1 (greedy)" in board
    player = client.get("/players/bot:Bot 1 (greedy)/")
    assert player.status_code == 200 and b"<polyline" in player.content
    assert client.get("/players/user:999/").status_code == 404
    assert client.get("/clubs/nowhere/").status_code == 404


def test_points_are_written_as_players_write_them():
    from django.utils import translation

    from frontend.templatetags.points import points

    assert [points(v) for v in ("11/2", "5", "-1/2", "0", "7/3", "1250")] == [
        "5½",
        "5",
        "−½",
        "0",
        "2.33",
        "1,250",
    ]
    with translation.override("ht"):
        assert points("2501/2") == "1\xa0250½" and points("7/3") == "2,33"


def test_the_form_sets_tie_breaks_and_the_deadline_and_the_page_seeds_by_hand(client, organiser):
    client.post(
        "/tournaments/new/",
        {
            "name": "Ordered",
            "game": "kazino",
            "format": "round_robin",
            "tiebreak": ["wins", "buchholz", "", "wins"],
            "registration_closes": "2999-05-01T19:30",
        },
    )
    row = Tournament.objects.get()
    assert row.options["tiebreaks"] == ["wins", "buchholz"]
    assert row.options["registration_closes"].startswith("2999-05-01T19:30")
    for _n in range(3):
        act(client, row, action="add_bot", level="random")
    act(client, row, action="seed", method="manual", order="3, 1 2")
    from tournaments import projection

    assert projection.load(row.stream_id).seeding == [3, 1, 2]
    page = act(client, row, action="seed", method="manual", order="3 3 1")
    assert b"A manual seeding lists every entrant exactly once." in page.content


def test_a_multi_player_tournament_page_says_how_placement_points_are_scaled(client, organiser):
    client.post(
        "/tournaments/new/",
        {"name": "Skyjo 4s", "game": "skyjo", "format": "swiss", "table_size": "4", "rounds": "3"},
    )
    client.post(
        "/tournaments/new/",
        {"name": "Kazino 2s", "game": "kazino", "format": "swiss", "table_size": "2", "rounds": "2"},
    )
    fours, twos = Tournament.objects.get(name="Skyjo 4s"), Tournament.objects.get(name="Kazino 2s")
    html = client.get(f"/tournaments/{fours.pk}/").content.decode()
    assert 'id="placement-points"' in html
    assert "(n − p) × 3 ÷ (n − 1)" in html and "a table of 4" in html
    assert 'id="placement-points"' not in client.get(f"/tournaments/{twos.pk}/").content.decode()
    client.cookies["django_language"] = "ht"
    assert "Pwen plas: plas p sou yon tab n jwè" in client.get(f"/tournaments/{fours.pk}/").content.decode()
