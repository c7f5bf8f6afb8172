"""The lesson pages: the index, a game's lesson, the lesson table and its progress, in every language."""

from __future__ import annotations

import json
import re

import pytest

from games import lessons
from games.commands import moves
from games.commands.create import SeatSpec, create_game
from games.eventlog import tables
from games.lessons import LEARNER
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def _lesson_config(html: str) -> dict:
    found = re.search(r'<script id="lesson-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, "no lesson on this page"
    return json.loads(found.group(1))


def test_the_index_lists_a_lesson_for_each_game(client):
    html = client.get("/learn/").content.decode()
    for slug in ("kazino", "skyjo", "dominoes", "pitch"):
        assert f'href="/learn/{slug}/"' in html


def test_the_home_page_and_the_rules_pages_link_the_lessons(client):
    assert 'href="/learn/"' in client.get("/").content.decode()
    for slug in ("kazino", "skyjo", "dominoes", "pitch"):
        assert f'href="/learn/{slug}/"' in client.get(f"/rules/{slug}/").content.decode()


def test_an_unknown_lesson_is_not_found(client):
    assert client.get("/learn/chess/").status_code == 404
    assert client.post("/learn/chess/").status_code == 404


def test_starting_a_lesson_deals_it_on_a_lesson_table_that_this_browser_plays(client):
    page = client.get("/learn/kazino/")
    assert page.status_code == 200 and "Tripe" in page.content.decode()
    answer = client.post("/learn/kazino/")
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{game.pk}/"
    assert game.kind == Game.Kind.LESSON and game.engine == "kazino"
    assert game.config["deck"] == lessons.get("kazino").config["deck"]
    seats = list(game.seats.order_by("number"))
    assert seats[1].bot_level == "greedy" and not seats[0].bot_level
    html = client.get(answer["Location"]).content.decode()
    lesson = _lesson_config(html)
    assert [s["title"] for s in lesson["steps"]][:3] == ["The deal", "Card values", "Capturing"]
    assert lesson["steps"][2]["move"] == 0 and lesson["steps"][0]["move"] is None
    assert '"seats": [0]' in html  # the learner's seat, held by this session
    # Nothing hidden on the page: the stacked deck stays on the server.
    assert set(lesson) == {"slug", "steps", "shown", "progress", "computer", "friends"}
    # The jack of spades (the learner's deal 2) as a card code, not as two letters of a random token.
    for seat in seats:
        html = html.replace(seat.token, "")
    assert not re.search(r"(?<![A-Za-z0-9])JS(?![A-Za-z0-9])", re.sub(r"<script[^>]*src=[^>]*>", "", html))


def test_the_progress_counts_the_learner_s_moves(client):
    client.post("/learn/kazino/")
    game = Game.objects.get()
    url = f"/learn/tables/{game.pk}/progress"
    assert client.get(url).json()["made"] == 0
    table = tables.load_table(game.pk)
    action = lessons.get("kazino").moves(LEARNER)[0]
    moves.submit(game.pk, LEARNER, action, "m-1", table.seq)
    assert client.get(url).json()["made"] == 1


def test_progress_is_only_for_lesson_tables(client):
    game = create_game("kazino", {"players": 2}, [SeatSpec("A"), SeatSpec("B")])
    assert client.get(f"/learn/tables/{game.pk}/progress").status_code == 404


@pytest.mark.parametrize("language", ["ht", "tl"])
def test_the_lesson_pages_speak_the_reader_s_language(client, language):
    client.cookies["django_language"] = language
    html = client.get("/learn/kazino/").content.decode()
    assert "The deal" not in html and "Start the lesson" not in html
    client.post("/learn/kazino/")
    game = Game.objects.get()
    lesson = _lesson_config(client.get(f"/tables/{game.pk}/").content.decode())
    for step in lesson["steps"]:
        assert step["title"] not in ("The deal", "Builds", "Scoring"), step
    texts = client.get(f"/learn/tables/{game.pk}/progress").json()["texts"]
    assert len(texts) == 3 and not any("Ace" in text or "Play your" in text for text in texts)


def test_kazino_with_friends_starts_on_one_game_a_match_of_its_own(client):
    client.post("/learn/kazino/")
    game = Game.objects.get()
    lesson = _lesson_config(client.get(f"/tables/{game.pk}/").content.decode())
    url = lesson["friends"]["url"]
    assert url == "/new/kazino/?with=friend&match=single"
    html = client.get(url).content.decode()
    assert re.search(r'<option value="single"[^>]*selected', html), "the form starts on one game"
    assert not re.search(r'<option value="target"[^>]*selected', html)
    assert re.search(r'<option value="target"[^>]*selected', client.get("/new/kazino/").content.decode())


def test_the_new_table_form_can_open_with_a_friend_s_seat(client):
    html = client.get("/new/kazino/?with=friend").content.decode()
    assert re.search(r'<option value="friend" selected>', html)
    html = client.get("/new/kazino/").content.decode()
    assert re.search(r'<option value="bot:greedy" selected>', html)


def test_a_step_is_told_only_once_the_moves_before_it_are_on_the_table(client):
    # "Builds" speaks of the 8 the computer lays down: not a word of it before the computer has.
    client.post("/learn/kazino/")
    game = Game.objects.get()
    lesson = _lesson_config(client.get(f"/tables/{game.pk}/").content.decode())
    texts = [s["text"] for s in lesson["steps"]]
    assert lesson["shown"] == 3 and texts[2] and texts[3] is None and "8" not in json.dumps(texts)
    url = f"/learn/tables/{game.pk}/progress"
    table = tables.load_table(game.pk)
    moves.submit(game.pk, LEARNER, lessons.get("kazino").moves(LEARNER)[0], "m-1", table.seq)
    assert client.get(url).json()["shown"] == 3  # the computer has not played yet
    table = tables.load_table(game.pk)
    reply = lessons.get("kazino").moves(1)[0]
    moves.play_turn(game.pk, 1, f"bot-{table.seq}-1", table.seq, lambda t: reply, actor="bot:1")
    answer = client.get(url).json()
    assert answer["shown"] == 4 and "5 on the 8" in answer["texts"][3]
