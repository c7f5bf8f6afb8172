"""The lobby (issue #23 item 8): tables nobody has moved at for a while leave "Live tables" for the
recent list; one game at a time; the reader's turn, open seats, demo tables, player and spectator
counts marked; the table page tells a spectator they are watching."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from frontend import lobby
from games.commands.create import SeatSpec, create_game
from games.computers.autoplay import play_bot_turn
from games.eventlog.tables import load_table
from games.live import audience
from tests.replay.play import new_game

pytestmark = pytest.mark.django_db


def _section(html: str, ident: str) -> str:
    found = re.search(rf'<ul class="table-rows" id="{ident}">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


def _row(html: str, pk: int) -> str:
    found = re.search(rf'<li class="table-row[^"]*"[^>]*data-table="{pk}">(.*?)</li>', html, re.S)
    assert found, f"table {pk} is not listed"
    return found.group(0)


@pytest.fixture
def clock(monkeypatch):
    """The lobby's clock, set by the test: ``clock.now`` (real time at first)."""

    class Clock:
        now = timezone.now()

    monkeypatch.setattr(lobby, "clock", lambda: Clock.now)
    return Clock


def test_a_table_nobody_moves_at_leaves_the_live_list_for_the_recent_one(client, clock, settings):
    game = new_game("kazino", 2, options={"match": "single"}, seed=3)
    html = client.get("/").content.decode()
    assert f'data-table="{game.pk}"' in _section(html, "live-tables")
    assert f'data-table="{game.pk}"' not in _section(html, "recent-tables")

    clock.now = timezone.now() + timedelta(minutes=11)  # ten minutes without a move
    html = client.get("/").content.decode()
    assert f'data-table="{game.pk}"' not in _section(html, "live-tables")
    row = _row(_section(html, "recent-tables"), game.pk)
    assert "No move lately" in row

    settings.LOBBY_IDLE_MINUTES = 30  # a setting: the same table is live again
    html = client.get("/").content.decode()
    assert f'data-table="{game.pk}"' in _section(html, "live-tables")


def test_the_lobby_shows_one_game_at_a_time(client, clock):
    skyjo = new_game("skyjo", 2, options={"target": 40}, seed=1)
    kazino = new_game("kazino", 2, options={"match": "single"}, seed=2)
    html = client.get("/?game=skyjo").content.decode()
    live = _section(html, "live-tables")
    assert f'data-table="{skyjo.pk}"' in live and f'data-table="{kazino.pk}"' not in live
    assert re.search(r'<a class="game-tab" href="\?game=skyjo" data-game="skyjo" aria-current="page">', html)
    both = _section(client.get("/").content.decode(), "live-tables")
    assert f'data-table="{skyjo.pk}"' in both and f'data-table="{kazino.pk}"' in both
    refused = client.get("/?game=<script>")
    assert refused.status_code == 404 and b"<script>" not in refused.content


def test_your_turn_open_seats_demo_tables_and_player_counts_are_marked(client, clock):
    ana = get_user_model().objects.create_user("ana", password="pw-lobby-1")
    client.force_login(ana)
    mine = create_game(
        "kazino",
        {"players": 2, "match": "single"},
        [SeatSpec.computer(1, "greedy"), SeatSpec("ana", user=ana)],
        seed=5,
    )
    assert load_table(mine.pk).to_act() == [1]  # ana's seat is to play
    waiting = create_game(
        "pitch",
        {"players": 3, "target": 7},
        [
            SeatSpec("ana", user=ana),
            SeatSpec("Open seat", awaiting_player=True),
            SeatSpec.computer(3, "strong"),
        ],
        seed=6,
    )
    demo = new_game("skyjo", 3, options={"target": 40}, seed=7, is_demo=True)
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    live = _section(html, "live-tables")
    assert live.index(f'data-table="{mine.pk}"') < live.index(
        f'data-table="{demo.pk}"'
    )  # waiting for ana: first
    row = _row(html, mine.pk)
    assert 'data-mark="turn"' in row and "Your turn" in row and "my-turn" in row
    assert 'data-players="2"' in row and "Computer 1 (Easy)" in row
    row = _row(html, waiting.pk)
    assert 'data-mark="open"' in row and "1 open seat" in row and 'data-players="3"' in row
    row = _row(html, demo.pk)
    assert 'data-mark="demo"' in row and 'data-mark="turn"' not in row and 'data-mark="seat"' not in row
    # Another browser holds none of these seats: no table is its turn.
    client.logout()
    html = client.get("/").content.decode()
    assert 'data-mark="turn"' not in html and 'data-mark="seat"' not in html


def test_spectator_counts_are_shown_when_known_and_never_guessed(client, clock, monkeypatch):
    game = new_game("kazino", 2, options={"match": "single"}, seed=8)
    monkeypatch.setattr(audience, "counts", lambda ids: {pk: 3 for pk in ids})
    row = _row(client.get("/").content.decode(), game.pk)
    assert 'data-watching="3"' in row and "3 watching" in row
    monkeypatch.setattr(audience, "counts", lambda ids: None)  # Redis could not be read
    row = _row(client.get("/").content.decode(), game.pk)
    assert "data-watching" not in row


def test_a_spectator_is_told_they_are_watching(client):
    game = new_game("kazino", 2, options={"match": "single"}, seed=9)
    page = client.get(f"/tables/{game.pk}/").content.decode()
    assert 'id="watching"' in page and "You are watching" in page
    ana = get_user_model().objects.create_user("ana", password="pw-lobby-2")
    seated = create_game(
        "kazino",
        {"players": 2, "match": "single"},
        [SeatSpec("ana", user=ana), SeatSpec.computer(2, "greedy")],
        seed=10,
    )
    client.force_login(ana)
    assert 'id="watching"' not in client.get(f"/tables/{seated.pk}/").content.decode()


def test_recent_tables_list_games_people_played_not_the_computers_own(client, clock):
    """#33: the demo club's Swiss filled "Recent tables" with computer-only games."""
    from tests.replay.play import play

    computers = new_game("kazino", 2, options={"match": "single"}, seed=4)
    play(computers)
    people = new_game("kazino", 2, options={"match": "single"}, humans={0: None}, seed=5)
    play(people)
    recent = _section(client.get("/").content.decode(), "recent-tables")
    assert f'data-table="{people.pk}"' in recent
    assert f'data-table="{computers.pk}"' not in recent


def test_an_open_seat_is_taken_from_the_lobby_once(client, clock):
    """#33, finding a game: a seat open to anyone signed in shows in the lobby with "Take the open
    seat"; the first to take it plays it, the next is told it is taken, and nobody signed out takes it."""
    from games.models import Game, Seat

    users = get_user_model().objects
    ana, ben, cy = (users.create_user(n, password="pw-open-1") for n in ("ana", "ben", "cy"))
    client.force_login(ana)
    made = client.post("/new/kazino/", {"players": "2", "seat0": "me", "seat1": "open", "match": "single"})
    assert made.status_code == 302
    game = Game.objects.get()
    client.force_login(ben)
    row = _row(_section(client.get("/").content.decode(), "live-tables"), game.pk)
    assert "Take the open seat" in row and f'action="/tables/{game.pk}/take/"' in row
    taken = client.post(f"/tables/{game.pk}/take/")
    assert taken.status_code == 302 and taken["Location"] == f"/tables/{game.pk}/"
    seat = Seat.objects.get(game=game, number=1)
    assert seat.user == ben and not seat.awaiting_player
    page = client.get(f"/tables/{game.pk}/")
    assert page.context["client"]["seats"] == [1]
    client.force_login(cy)
    late = client.post(f"/tables/{game.pk}/take/")
    assert late.status_code == 410 and Seat.objects.get(game=game, number=1).user == ben
    client.logout()
    anonymous = client.post(f"/tables/{game.pk}/take/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_demo_tables_come_after_the_tables_people_play_and_never_in_recent(client, clock):
    """#33: the demo's tables came first in "Live tables" (they move most) and stayed in "Recent"."""
    demo = new_game("skyjo", 3, options={"target": 40}, seed=11, is_demo=True)
    people = new_game("kazino", 2, options={"match": "single"}, humans={0: None}, seed=12)
    # The demo moves last: still after the people's table.
    table = load_table(demo.pk)
    assert play_bot_turn(demo.pk, table.seq, table.to_act()[0]) == "played"
    live = _section(client.get("/").content.decode(), "live-tables")
    assert live.index(f'data-table="{people.pk}"') < live.index(f'data-table="{demo.pk}"')
    clock.now = timezone.now() + timedelta(minutes=11)  # the server was down: nobody moved at either
    html = client.get("/").content.decode()
    assert f'data-table="{people.pk}"' in _section(html, "recent-tables")
    assert f'data-table="{demo.pk}"' not in html


def test_tables_with_a_seat_the_reader_may_take_come_first(client, clock):
    """#33, finding a game: a live table with an open seat is listed above the others (the reader's
    own open table is theirs, not one to take)."""
    from games.models import Game

    users = get_user_model().objects
    ana, ben = (users.create_user(n, password="pw-open-2") for n in ("ana", "ben"))
    client.force_login(ana)
    client.post("/new/kazino/", {"players": "2", "seat0": "me", "seat1": "open", "match": "single"})
    opened = Game.objects.get()
    # Tables made after it (latest move first would list them above it).
    for s in (21, 22):
        new_game("kazino", 2, options={"match": "single"}, humans={0: None}, seed=s)
    client.force_login(ben)
    live = _section(client.get("/").content.decode(), "live-tables")
    first = re.search(r'data-table="(\d+)"', live)
    assert first and int(first.group(1)) == opened.pk
    assert "Take the open seat" in _row(live, opened.pk)
    client.force_login(ana)  # the maker: their table, no seat to take there
    live = _section(client.get("/").content.decode(), "live-tables")
    assert "Take the open seat" not in _row(live, opened.pk)


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "2 players</span>: "), ("ht", "2 jwè</span> : "), ("tl", "2 manlalaro</span>: ")],
)
def test_a_rows_player_count_and_names_are_one_sentence_in_the_readers_language(client, language, expected):
    """The colon between the count and the names is the language's: Kreyòl writes a space before it
    (it was outside the translation, so "2 jwè: Ana" in Kreyòl). The names stay escaped."""
    game = create_game(
        "kazino",
        {"players": 2, "match": "single"},
        [SeatSpec("<b>Ana</b>", name_role=""), SeatSpec.computer(2, "expert")],
        seed=9,
    )
    client.cookies["django_language"] = language
    row = _row(client.get("/").content.decode(), game.pk)
    assert 'data-players="2"' in row
    assert expected in row, row
    assert "&lt;b&gt;Ana&lt;/b&gt; · " in row and "<b>Ana</b>" not in row
