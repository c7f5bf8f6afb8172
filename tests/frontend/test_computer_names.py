"""One vocabulary for computer players (#20 deliverable 2): a tournament's entrant "Computer 3
(Strong)" is "Computer 3 (Strong)" on the tournament page, at each of its tables, in its replays, on
the leaderboard and its player page, in English, Kreyòl and Tagalog; the level names are the
glossary's (Beginner, Easy, Strong) everywhere, and no internal name shows."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from games.commands.create import SeatSpec, create_game
from games.eventlog.tables import load_table
from games.live import publish
from games.models import Game, Seat
from games.words.names import seat_name
from tournaments import log, service, simulate
from tournaments.models import Entry, MatchGame, Rating

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "ht", "tl")
INTERNAL = re.compile(r"\b(?:greedy|Greedy|Intermediate|Bot \d)")
LEVELS = {
    "en": ["Beginner", "Easy", "Strong", "Expert"],
    "ht": ["Debitan", "Fasil", "Fò", "Ekspè"],
    "tl": ["Baguhan", "Madali", "Magaling", "Eksperto"],
}
# The glossary's names (docs/glossary.md, "Computer players").
NAMES = {"en": "Computer %s (%s)", "ht": "Òdinatè %s (%s)", "tl": "Kompyuter %s (%s)"}


def named(language: str, number: int, level: str) -> str:
    word = LEVELS[language][("random", "greedy", "strong", "expert").index(level)]
    return NAMES[language] % (number, word if language == "en" else word.lower())


def as_the_table_names_it(language: str, seat: dict) -> str:
    """What table.js writes for a seat of the socket's snapshot, from the JavaScript catalogue."""
    js = (
        gettext.translation("djangojs", ROOT / "locale", [language])
        if language != "en"
        else gettext.NullTranslations()
    )
    level = {"random": "Beginner", "greedy": "Easy", "strong": "Strong", "expert": "Expert"}[seat["bot"]]
    number = seat["computer"] if seat["computer"] is not None else seat["number"] + 1
    return js.gettext("Computer %(n)s (%(level)s)") % {"n": number, "level": js.gettext(level)}


def test_a_computer_entrant_has_one_name_on_every_page_in_every_language(client):
    organiser = get_user_model().objects.create_user("organiser", password="pw-names-1")
    client.force_login(organiser)
    row = service.create(
        "Names Cup", "kazino", "round_robin", {"game_config": {"match": "single"}}, by=organiser
    )
    for level in ("random", "greedy", "strong"):  # added from the page by an organiser reading Kreyòl
        client.post(f"/tournaments/{row.pk}/do/add_bot", {"level": level}, HTTP_ACCEPT_LANGUAGE="ht")
    picker = client.get(f"/tournaments/{row.pk}/", HTTP_ACCEPT_LANGUAGE="tl").content.decode()
    levels = re.search(r'<select name="level">(.*?)</select>', picker, re.S).group(1)
    assert re.findall(r"<option[^>]*>([^<]*)<", levels) == LEVELS["tl"]
    row = simulate.drive(row, timeout=300)
    assert row.status == "finished"
    entries = {e.bot_level: e for e in Entry.objects.filter(tournament=row)}
    assert {level: e.bot_number for level, e in entries.items()} == {"random": 1, "greedy": 2, "strong": 3}
    games_of = [mg for mg in MatchGame.objects.filter(match__tournament=row) if 3 in mg.seats]
    # Its seat is not its number: the old names followed the seat ("Computer 1 (Strong)").
    assert any(mg.seats.index(3) + 1 != 3 for mg in games_of)
    for language in LANGUAGES:
        strong = named(language, 3, "strong")
        everyone = [named(language, n, level) for n, level in ((1, "random"), (2, "greedy"), (3, "strong"))]
        page = client.get(f"/tournaments/{row.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert all(name in page for name in everyone), (language, everyone)
        for mg in games_of:
            seat = Seat.objects.get(game_id=mg.game_id, number=mg.seats.index(3))
            with translation.override(language):
                assert seat_name(seat) == strong  # the lobby and every server page
            snapshot = publish.snapshot(load_table(mg.game_id), None)
            shown = next(s for s in snapshot["seats"] if s["number"] == seat.number)
            assert as_the_table_names_it(language, shown) == strong  # the table's own script
            replay = client.get(
                f"/games/{mg.game_id}/replay/", HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
            config = json.loads(re.search(r'id="replay-config"[^>]*>(.*?)</script>', replay, re.S).group(1))
            assert config["seats"][seat.number]["name"] == strong
        board = client.get("/ratings/?computers=1", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert all(name in board for name in everyone)
        player = client.get("/players/bot:strong:3/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f"<h1>{strong}</h1>" in player
        for text in (page, board, player):
            main = re.search(r"<main>(.*)</main>", text, re.S).group(1)
            assert not INTERNAL.search(re.sub(r"<[^>]+>", " ", main)), language
    assert Rating.objects.filter(player="bot:strong:3", club__isnull=True).exists()


def test_the_levels_have_the_same_names_in_the_new_table_form(client):
    from games.words import computers

    for language, words in LEVELS.items():
        page = client.get("/new/kazino/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        with translation.override(language):
            names = [str(computers.LEVEL_NAMES[level]) for level in computers.LEVELS]
        assert [n.capitalize() for n in names] == words
        for name in names:
            assert re.search(rf"<option value=\"bot:\w+\"[^>]*>[^<]*\({re.escape(name)}\)<", page), (
                language,
                name,
            )


def test_a_computer_keeps_its_number_at_a_table_it_joins_in_another_seat():
    seats = [SeatSpec("Ann"), SeatSpec.computer(7, "strong")]
    game = create_game("kazino", {"players": 2}, seats)
    seat = Seat.objects.get(game=game, number=1)
    assert (seat.bot_number, seat.display_name) == (7, "Computer 7 (Strong)")
    assert (
        named("ht", 7, "strong") == "Òdinatè 7 (fò)" and named("tl", 7, "strong") == "Kompyuter 7 (magaling)"
    )
    plain = create_game("kazino", {"players": 2}, [SeatSpec("Ann"), SeatSpec("x", bot_level="random")])
    assert Seat.objects.get(game=plain, number=1).bot_number == 2  # a table's computer: its seat's number


def test_names_stored_before_computers_were_numbered_are_read_back():
    from games.words import computers

    for old, number, level in (
        ("Computer 3 (Strong)", 3, "strong"),
        ("Òdinatè 2 (fasil)", 2, "greedy"),
        ("Computer 4 (baguhan)", 4, "random"),
        ("Bot 6 (greedy)", 6, "greedy"),
        ("Greedy 1", 1, "greedy"),
        ("strong 0", 0, "strong"),
    ):
        assert (computers.legacy_number(old), computers.legacy_level(old)) == (number, level), old
    assert computers.legacy_number("HAL 9000") is None and computers.legacy_number("Ann") is None
    # A tournament log written before: the entrant's number is its computer number.
    t = log.fold(
        [
            {"type": "tournament.created", "name": "Old", "game": "kazino", "format": "swiss", "options": {},
             "club_id": None, "by": None, "secret_seed": 1},
            {"type": "entrant.registered", "entrant": 1, "name": "Ann"},
            {"type": "entrant.registered", "entrant": 2, "name": "Òdinatè 2 (fò)", "bot_level": "strong"},
        ]
    )  # fmt: skip
    assert (t.entrants[1].bot_number, t.entrants[2].bot_number) == (None, 2)
    assert computers.from_rating_key("bot:strong:2") == ("strong", 2)
    assert computers.from_rating_key("bot:Computer 2 (Strong)") is None
    assert Game.objects.count() == 0
