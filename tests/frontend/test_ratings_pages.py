"""Leaderboards and player pages (issue #23 item 10): the game in the address is the one shown (``?game=
skyjo`` showed Kazino), a tab per game, rated games of every game between signed-in players counted,
a player's chart with axes and dates, their games with opponents and results, computers named in the
reader's words."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from games.models import Game
from games.words import computers
from tests.replay.play import new_game, play
from tournaments.models import Rating, RatingHistory

pytestmark = pytest.mark.django_db(transaction=True)


def _rate(player: str, name: str, game: str, values: list[float]) -> Rating:
    row = Rating.objects.create(
        player=player, name=name, game=game, mu=values[-1], sigma=1.0, games=len(values)
    )
    start = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)
    for n, mu in enumerate(values):
        RatingHistory.objects.create(
            rating=row, game_id=1000 + n, mu=mu, sigma=1.0, at=start + timedelta(days=n), place=1, sides=2
        )
    return row


def _board(html: str) -> str:
    found = re.search(
        r'<table class="leaderboard" id="leaderboard" data-game="(\w+)">(.*?)</table>', html, re.S
    )
    assert found, "no board on the page"
    return found.group(1) + found.group(2)


def test_the_game_in_the_address_is_the_board_shown(client):
    _rate("user:1", "kazino-player", "kazino", [30.0])
    _rate("user:2", "skyjo-player", "skyjo", [28.0])
    board = _board(client.get("/ratings/?game=skyjo").content.decode())
    assert board.startswith("skyjo") and "skyjo-player" in board and "kazino-player" not in board
    board = _board(client.get("/ratings/?game=kazino").content.decode())
    assert board.startswith("kazino") and "kazino-player" in board and "skyjo-player" not in board
    page = client.get("/ratings/").content.decode()  # the first game (in the games' order) with ratings
    assert "skyjo-player" in _board(page) and "kazino-player" not in page
    for game in ("skyjo", "dominoes", "kazino", "pitch"):  # a tab per game
        assert f'href="?game={game}" data-game="{game}"' in page
    empty = client.get("/ratings/?game=pitch").content.decode()
    assert "No rated game of Pitch yet." in empty
    refused = client.get("/ratings/?game=<b>chess")
    assert refused.status_code == 404 and b"<b>chess" not in refused.content


def test_a_rated_game_of_any_game_between_signed_in_players_feeds_the_ratings(client):
    model = get_user_model()
    ana, ben = model.objects.create_user("ana"), model.objects.create_user("ben")
    for engine, options in (("skyjo", {"target": 30}), ("dominoes", {"variant": "draw", "target": 20})):
        game = new_game(engine, 2, options=options, humans={0: ana, 1: ben}, seed=4, kind=Game.Kind.RATED)
        table = play(game)
        places = table.outcome()["places"]
        assert set(RatingHistory.objects.filter(game_id=game.pk).values_list("rating__game", flat=True)) == {
            engine
        }
        mine = RatingHistory.objects.get(game_id=game.pk, rating__player=f"user:{ana.pk}")
        assert (mine.place, mine.sides) == (places[0], 2)
        casual = new_game(engine, 2, options=options, humans={0: ana, 1: ben}, seed=5)
        play(casual)
        assert not RatingHistory.objects.filter(game_id=casual.pk).exists()  # casual tables never count
    page = client.get(f"/players/user:{ana.pk}/?game=dominoes").content.decode()
    assert '<section class="rating-card" id="rating" data-game="dominoes"' in page
    played = re.search(r'<table class="played" id="played">(.*?)</table>', page, re.S).group(1)
    assert f'href="/players/user:{ben.pk}/?game=dominoes">Human 1</a>' in played  # the name at the table
    assert re.search(r'<td class="result">(Won|Lost|Draw)</td>', played)
    assert 'href="?game=skyjo"' in page and 'href="?game=kazino"' not in page  # tabs: their games only
    assert client.get(f"/players/user:{ana.pk}/?game=kazino").status_code == 404


def test_the_chart_has_axes_dates_and_a_text_alternative(client):
    _rate("user:7", "cleo", "pitch", [10.0, 12.5, 11.0, 15.0])
    page = client.get("/players/user:7/").content.decode()
    svg = re.search(r'<svg class="rating-chart".*?</svg>', page, re.S).group(0)
    assert 'role="img"' in svg and 'aria-labelledby="chart-title"' in svg
    title = re.search(r'<title id="chart-title">(.*?)</title>', svg).group(1)
    assert "4 rated games" in title and "best 12.0" in title  # 15 − 3 × 1
    assert "11/01/2026" in svg and "11/04/2026" in svg  # the first and last games' dates on the axis
    assert svg.count("<line") >= 4  # the axes and the rating grid
    assert re.findall(r'<text[^>]*text-anchor="end"[^>]*>(-?[\d.]+)</text>', svg)  # the rating scale
    played = re.search(r'<table class="played" id="played">(.*?)</table>', page, re.S).group(1)
    assert played.count("<tr>") == 1 + 4 and "12.0" in played  # every value is in the table too (and a head)


def test_computers_are_named_in_the_readers_words_never_by_internal_level(client):
    _rate(computers.rating_key("greedy", 2), "Computer 2 (Easy)", "kazino", [5.0, 6.0])
    _rate("bot:Bot 6 (greedy)", "Bot 6 (greedy)", "kazino", [4.0])  # a row kept from before numbering
    for language in ("en", "ht", "tl"):
        with translation.override(language):
            easy2, easy6 = computers.name(2, "greedy"), computers.name(6, "greedy")
        board = client.get(
            "/ratings/?game=kazino&computers=1", HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        assert easy2 in board and easy6 in board
        page = client.get("/players/bot:Bot 6 (greedy)/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f"<h1>{easy6}</h1>" in page
        for html in (board, page):
            text = re.sub(r"<[^>]+>", " ", re.search(r"<main>(.*)</main>", html, re.S).group(1))
            assert "greedy" not in text.lower()


def test_a_clubs_board_follows_the_game_in_the_address_and_a_player_page_links_the_club(client):
    from tournaments.models import Club

    club = Club.objects.create(name="Jacmel club", slug="jacmel")
    _rate("user:3", "dora", "skyjo", [20.0])
    Rating.objects.create(player="user:3", name="dora", game="skyjo", club=club, mu=21.0, sigma=1.0, games=1)
    Rating.objects.create(player="user:4", name="emil", game="kazino", club=club, mu=22.0, sigma=1.0, games=1)
    board = _board(client.get("/clubs/jacmel/?game=skyjo").content.decode())
    assert board.startswith("skyjo") and "dora" in board and "emil" not in board
    assert "emil" in _board(client.get("/clubs/jacmel/?game=kazino").content.decode())
    page = client.get("/players/user:3/").content.decode()
    assert 'href="/clubs/jacmel/?game=skyjo">Jacmel club</a>' in page


def test_the_board_lists_people_and_the_computers_only_on_request(client):
    """#33: the demo's eight computers made the whole leaderboard; a rating came with no scale."""
    _rate("user:1", "ana", "kazino", [12.0])
    _rate(computers.rating_key("strong", 1), "Computer 1 (Strong)", "kazino", [30.0])
    people = client.get("/ratings/?game=kazino").content.decode()
    assert "ana" in _board(people) and "Computer 1" not in _board(people)
    assert 'href="?game=kazino&amp;computers=1"' in people
    assert "Every player starts at a rating of 0" in people
    everyone = _board(client.get("/ratings/?game=kazino&computers=1").content.decode())
    assert everyone.index("Computer 1") < everyone.index("ana")


def test_the_board_opens_on_a_game_people_are_rated_in_not_one_only_computers_play():
    """#33: the demo's Swiss rates computers at Kazino; a board of people opens where people are rated."""
    from django.test import Client

    _rate(computers.rating_key("greedy", 1), "Computer 1 (Easy)", "skyjo", [20.2])
    _rate("user:1", "ana", "pitch", [3.0])
    assert 'data-game="pitch"' in Client().get("/ratings/").content.decode()
    assert 'data-game="skyjo"' in Client().get("/ratings/?computers=1").content.decode()


SCALE = {
    "en": "Every player starts at a rating of 0",
    "ht": "Chak jwè kòmanse ak yon nòt 0",
    "tl": "Nagsisimula ang bawat manlalaro sa rating na 0",
}


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_every_rating_shown_says_its_scale_in_the_readers_language(client, language):
    """#33: a rating such as "20,2" came with no hint of its scale."""
    ana = get_user_model().objects.create_user("ana", password="pw-scale-1")
    _rate(f"user:{ana.pk}", "ana", "kazino", [10.0, 12.0])
    client.force_login(ana)
    pages = {
        "leaderboard": "/ratings/?game=kazino",
        "player page": f"/players/user:{ana.pk}/?game=kazino",
        "profile": "/accounts/profile/",
    }
    for where, url in pages.items():
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        legend = re.search(r'<p class="meta rating-scale" id="rating-scale">(.*?)</p>', html, re.S)
        assert legend and SCALE[language] in legend.group(1) and "OpenSkill" in legend.group(1), where
        if language != "en":
            assert SCALE["en"] not in html, where
    board = client.get(pages["leaderboard"], HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(
        rf'<th scope="col" class="num" title="{SCALE[language]}[^"]*" aria-describedby="rating-scale">', board
    )
