"""The points ranking where players see it: the leaderboard, the player's page and the API
(``GET /api/v1/rankings/kazino``), with every query parameter checked before any work."""

from __future__ import annotations

import pytest

from games.commands.create import SeatSpec, create_game
from games.computers.autoplay import play_bot_turn
from games.eventlog import queries
from games.eventlog.tables import load_table
from games.models import Game
from seasons import counted

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture()
def played():
    counted.forget()
    seats = [SeatSpec("", bot_level="greedy", bot_number=n) for n in (1, 2)]
    game = create_game("kazino", {"players": 2, "match": "single"}, seats, seed=18, kind=Game.Kind.RATED)
    while (outcome := queries.result(game.pk)) is None:
        table = load_table(game.pk)
        play_bot_turn(game.pk, table.seq, table.to_act()[0])
    yield outcome["games"][0]["points"]
    counted.forget()


def test_the_api_ranks_the_game_s_points(client, played):
    answer = client.get("/api/v1/rankings/kazino")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["total"] == 2 and body["period"] == "all"
    assert sorted(line["points"] for line in body["lines"]) == sorted(played)
    assert [line["place"] for line in body["lines"]] == [1, 2]
    assert all(line["games"] == 1 for line in body["lines"])
    assert sum(line["wins"] + line["draws"] for line in body["lines"]) in (1, 2)
    week = client.get("/api/v1/rankings/kazino?period=week&limit=1&page=2").json()
    assert week["total"] == 2 and [line["place"] for line in week["lines"]] == [2]


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("?period=year", 400),
        ("?limit=0", 400),
        ("?limit=101", 400),
        ("?page=99999999999", 400),
        ("?season=abc", 400),
        ("?club=" + "x" * 51, 400),
        ("?club=nowhere", 404),
        ("?period=season", 404),
        ("?season=123456", 404),
    ],
)
def test_bad_queries_are_refused_clearly(client, query, status):
    answer = client.get("/api/v1/rankings/kazino" + query)
    assert answer.status_code == status, answer.content
    assert "error" in answer.json()


def test_games_without_a_points_ranking_say_so(client):
    for game in ("skyjo", "chess", "x" * 200):
        answer = client.get(f"/api/v1/rankings/{game}")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_points_ranking"


def test_the_schema_describes_the_ranking(client):
    schema = client.get("/api/v1/schema").json()
    assert "/api/v1/rankings/{game}" in schema["paths"]
    names = {p["name"] for p in schema["paths"]["/api/v1/rankings/{game}"]["get"]["parameters"]}
    assert {"period", "club", "season", "page", "limit"} <= names


def test_the_leaderboard_and_the_player_page_show_the_points(client, played):
    page = client.get("/ratings/?game=kazino&computers=1").content.decode()
    assert 'id="points-table"' in page and "Points ranking" in page
    for value in played:
        assert f'<td class="num">{value}</td>' in page
    assert 'period=week&amp;computers=1#points"' in page
    # People only unless asked, as the ratings (#33: the demo's computers filled Kazino's points).
    people = client.get("/ratings/?game=kazino").content.decode()
    assert "Points ranking" in people and 'id="points-table"' not in people
    assert client.get("/ratings/?game=kazino&period=forever").status_code == 404
    assert client.get("/ratings/?game=kazino&period=season").status_code == 404  # no club, no season
    skyjo = client.get("/ratings/?game=skyjo").content.decode()
    assert 'id="points-table"' not in skyjo
    player = client.get("/players/bot:greedy:1/?game=kazino").content.decode()
    assert 'id="points-table"' in player and "All time" in player
