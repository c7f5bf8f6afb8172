"""Tournament pages: organising, the public page, exports, leaderboards and a player's history."""

from __future__ import annotations

import csv
import io
import json
import re
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
from django.contrib.auth import get_user_model

from frontend.bracket_svg import NAME_ROOM, Fitted, bracket_svg, fit, text_width
from frontend.tournament_exports import spreadsheet_text
from games.models import Game
from tournaments import service as tournaments
from tournaments import simulate
from tournaments.models import Entry, Match, MatchGame, Tournament
from tournaments.pairing.bracket import Bracket

pytestmark = pytest.mark.django_db(transaction=True)


def act(client, row, action, **data):
    """A console button: the action's own form, posted to its own address (frontend/console.py)."""
    return client.post(f"/tournaments/{row.pk}/do/{action}", data, follow=True)


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
    # A number that is none is refused by the form (#32), said by its label, the page kept as typed.
    response = client.post(
        "/tournaments/new/", {"name": "X", "game": "kazino", "format": "swiss", "table_size": "four"}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Players at a table must be a whole number from 2 to 8." in page
    assert 'value="X"' in page and 'name="table_size" type="number" min="2" max="8" value="four"' in page
    response = client.post(
        "/tournaments/new/", {"name": "Y", "game": "skyjo", "format": "round_robin", "table_size": "4"}
    )
    assert b'class="error"' in response.content
    assert Tournament.objects.count() == 0


def test_only_the_organiser_sees_and_uses_the_controls(client, organiser):
    row = simulate.setup("kazino", "swiss", 2, {"game_config": {"match": "single"}}, "random")
    client.logout()
    other = get_user_model().objects.create_user("someone", password="pw-someone-1")
    client.force_login(other)
    page = client.get(f"/tournaments/{row.pk}/")
    assert b'value="start"' not in page.content and b'value="register"' in page.content
    response = act(client, row, action="start")
    assert response.status_code == 403 and b"Only the organiser can do this." in response.content
    row.refresh_from_db()
    assert row.status == "registration"
    act(client, row, action="register")
    assert Entry.objects.filter(tournament=row, user=other).exists()
    response = act(client, row, action="teleport")
    assert response.status_code == 404


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


FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-3+4", "@SUM(A1:A9)"]


def test_the_standings_export_keeps_names_from_running_as_spreadsheet_formulas(client):
    row = tournaments.create("Formula Cup", "kazino", "swiss", {})
    for name in [*FORMULAS, "Ann", "Ann = Bob"]:
        tournaments.register(row, name)
    lines = list(csv.reader(io.StringIO(client.get(f"/tournaments/{row.pk}/standings.csv").content.decode())))
    names = [line[1] for line in lines[1:]]
    assert sorted(names) == sorted([*[f"'{f}" for f in FORMULAS], "Ann", "Ann = Bob"])
    assert lines[0][:2] == ["Rank", "Entrant"]


def test_every_formula_sign_is_neutralised_and_nothing_else():
    for sign in ("=", "+", "-", "@", "\t", "\r"):
        assert spreadsheet_text(f"{sign}cmd") == f"'{sign}cmd"
    for harmless in ("Ann", "", "'quoted", " =1", "A=1", "1-2"):
        assert spreadsheet_text(harmless) == harmless


def test_the_bracket_cuts_long_names_before_escaping_them():
    """A name cut after escaping could end inside an entity ("&am"): broken SVG on the page. A name is
    fitted to its box (squeezed a little, or cut with "…"); the whole name stays in the row's title."""
    names = {1: "&" * 40, 2: "<b>" * 20, 3: 'Ann "the Ace" O\'Neil & co., a long name', 4: "Bo"}
    entries = {number: SimpleNamespace(shown_name=name) for number, name in names.items()}
    svg = str(bracket_svg(Bracket([1, 2, 3, 4]), entries))
    root = ElementTree.fromstring(svg)  # well-formed XML, or this raises
    ns = "{http://www.w3.org/2000/svg}"
    slots = [g for g in root.iter(f"{ns}g") if (g.get("class") or "").split() in (["slot"], ["slot", "won"])]
    slots += [g for g in root.iter(f"{ns}g") if (g.get("class") or "").split() == ["slot", "lost"]]
    assert sorted(g.find(f"{ns}title").text for g in slots) == sorted(names.values())
    shown = {}
    for slot in slots:
        full = slot.find(f"{ns}title").text
        (text,) = [t for t in slot.iter(f"{ns}text") if t.get("class") not in ("seed", "tick")]
        shown[full] = text.text
        cut = text.text.endswith("…") and full.startswith(text.text[:-1].rstrip())
        assert text.text == full or cut, (full, text.text)
        assert text_width(text.text) <= NAME_ROOM or text.get("textLength"), "the name fits its box"
    assert shown["Bo"] == "Bo"
    assert shown["&" * 40].startswith("&&&&") and shown["&" * 40].endswith("…")
    assert shown["<b>" * 20].startswith("<b><b>") and shown["<b>" * 20].endswith("…")
    assert shown[names[3]].startswith("Ann") and shown[names[3]].endswith("…")


def test_a_name_a_little_too_long_is_squeezed_and_a_much_longer_one_cut():
    assert fit("Bo") == Fitted("Bo", None)
    room = text_width("Computer 3 (magaling)") * 0.95
    assert fit("Computer 3 (magaling)", room).squeeze == room  # squeezed, whole
    longer = fit("Computer 3 (magaling) and a much longer tail", room)
    assert longer.squeeze is None and longer.text.endswith("…")
    assert text_width(longer.text) <= room


def test_the_bracket_marks_winners_and_frames_the_live_match():
    entries = {n: SimpleNamespace(shown_name=f"Player {n}", seed=n) for n in (1, 2, 3, 4)}
    bracket = Bracket([1, 2, 3, 4])
    first, second = (m.id for m in bracket.matches if m.round == 1)
    bracket.record(first, 1)
    svg = str(bracket_svg(bracket, entries, live={second}))
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    boxes = {g.get("data-match"): g for g in root.iter(f"{ns}g") if g.get("data-match")}
    assert "live" in boxes[second].get("class") and boxes[second].find(f"{ns}circle") is not None
    assert "decided" in boxes[first].get("class")
    won = [g for g in boxes[first].iter(f"{ns}g") if "won" in (g.get("class") or "")]
    assert [g.find(f"{ns}title").text for g in won] == ["Player 1"]
    assert "Player 1 (seed 1) beat Player 4 (seed 4)" in boxes[first].get("aria-label")
    assert "playing now" in boxes[second].get("aria-label")
    final = next(m.id for m in bracket.matches if m.round == 2)
    assert boxes[final].get("tabindex") == "0"  # a tap or the keyboard reads a match out in full
    # No box is drawn black: every box has its fill and frame, every name its colour.
    assert all(r.get("fill") not in (None, "#000", "black") for r in root.iter(f"{ns}rect"))
    assert all(t.get("fill") for t in root.iter(f"{ns}text"))


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
    board = client.get("/ratings/?computers=1").content.decode()  # people only by default
    assert "Computer 1 (Easy)" in board
    player = client.get("/players/bot:greedy:1/")
    assert player.status_code == 200 and b"<polyline" in player.content
    assert client.get("/players/user:999/").status_code == 404
    assert client.get("/clubs/nowhere/").status_code == 404


def test_points_are_written_as_players_write_them():
    from django.utils import translation

    from frontend.templatetags.points import points

    # One way everywhere (#30 defect 8): "6.75" and "4½" side by side no more.
    assert [points(v) for v in ("11/2", "5", "-1/2", "0", "7/3", "1250", 6.75, "3.25", 2 / 3, "13/6")] == [
        "5½",
        "5",
        "−½",
        "0",
        "2⅓",
        "1,250",
        "6¾",
        "3¼",
        "⅔",
        "2.17",
    ]
    with translation.override("ht"):
        assert points("2501/2") == "1\xa0250½" and points("13/6") == "2,17"


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


def test_the_director_controls_work_from_the_page(client, organiser):
    from tournaments import projection, service

    row = service.create(
        "Club Swiss",
        "kazino",
        "swiss",
        {"game_config": {"match": "single"}, "auto_start": False, "half_point_byes": 1},
        by=organiser,
    )
    for _n in range(4):
        act(client, row, action="add_bot", level="random")
    html = act(client, row, action="start").content.decode()
    row.refresh_from_db()
    assert row.planned_rounds == 2 and "Round 1 of 2" in html
    # The page says how the tournament works: the pairing, the rounds, the byes, each tie-break.
    assert "How this tournament works" in html and "This tournament has 2 rounds" in html
    assert "up to 1 rounds" not in html and "sit out 1 round for half a point" in html
    assert "Buchholz without the weakest opponent (a round you chose not to play goes first)." in html
    assert "Tie-breaks follow FIDE" in html and "regulations of 2023 (C.07, article 16)" in html
    assert "Change the pairings before the round starts" in html
    t = projection.load(row.stream_id)
    (a, b), (c, d) = (tb.entrants for tb in t.rounds[0].tables)
    page = act(client, row, action="edit_pairing", edit="swap", a=b, b=c, reason="asked to")
    assert [tb.entrants for tb in projection.load(row.stream_id).rounds[0].tables] == [[a, c], [b, d]]
    assert page.status_code == 200
    assert "and" in page.content.decode() and "swapped places" in page.content.decode()
    page = act(client, row, action="edit_pairing", edit="swap", a=b, b=c, reason="  ")
    html = page.content.decode()
    assert page.status_code == 400 and "A reason is needed" in html
    # What was typed is kept: the same two players are chosen again.
    assert f'<option value="{b}" selected>' in html and f'<option value="{c}" selected>' in html
    act(client, row, action="set_rounds", rounds="3", reason="more time")
    row.refresh_from_db()
    assert row.planned_rounds == 3


def test_a_player_asks_for_a_half_point_bye_on_the_page(client):
    from tournaments import service

    player = get_user_model().objects.create_user("pat")
    client.force_login(player)
    row = service.create(
        "Club Swiss",
        "kazino",
        "swiss",
        {"game_config": {"match": "single"}, "half_point_byes": 1, "rounds": 3},
    )
    act(client, row, action="register")
    for n in range(3):
        service.register(row, f"Bot {n}", bot_level="random")
    service.start(row)
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert "Ask for a half-point bye" in html
    mine = Entry.objects.get(tournament=row, user=player)
    act(client, row, action="request_bye", entrant=mine.number, round=2)
    mine = Entry.objects.get(tournament=row, user=player)  # the projection rewrites its rows
    assert mine.bye_requests == [2]
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert "Half-point bye in round 2" in html and "Ask for a half-point bye" not in html


def test_a_seated_player_cannot_pause_a_tournament_table_but_the_organiser_can(client, organiser):
    from games.eventlog import queries, store
    from games.eventlog.tables import load_table
    from tournaments import service

    player = get_user_model().objects.create_user("player")
    row = service.create("Held Cup", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    service.register(row, "player", user=player)
    service.register(row, "Computer", bot_level="greedy", by=organiser)
    service.seed(row, "random", by=organiser)
    service.start(row, by=organiser)
    game_id = MatchGame.objects.get(match__tournament=row).game_id
    button = f'data-table-pause="{game_id}"'

    client.force_login(player)
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert button not in page, "only the organiser sees the table's pause button"
    before = store.head(game_id)
    response = act(client, row, action="pause_table", game=game_id)
    assert b"Only the organiser can do this." in response.content
    assert store.head(game_id) == before and queries.paused([game_id]) == set()

    client.force_login(organiser)
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert button in page and 'value="pause_table"' in page
    page = act(client, row, action="pause_table", game=game_id).content.decode()
    assert load_table(game_id).timeline.paused
    assert 'value="resume_table"' in page and 'value="pause_table"' not in page
    act(client, row, action="resume_table", game=game_id)
    assert not load_table(game_id).timeline.paused
    held = [e.data["by"] for e in store.load(game_id) if e.type in ("table.pause", "table.resume")]
    assert held == [f"user:{organiser.pk}"] * 2

    for junk in ("", "x", "-1", "²", str(10**30)):
        response = act(client, row, action="pause_table", game=junk)
        assert response.status_code == 400, "a table that is not a number is refused by the form"
        assert b"Table" in response.content and b'class="error"' in response.content
    response = act(client, row, action="pause_table", game=str(game_id + 1000))
    assert response.status_code == 400
    assert b"This tournament has no such game being played." in response.content
    assert not load_table(game_id).timeline.paused


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
    assert "Pwen plas : plas p sou yon tab n jwè" in client.get(f"/tournaments/{fours.pk}/").content.decode()


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_entrant_and_level_names_match_on_every_page(client, organiser, language):
    """Each entrant has one name on every page of its tournament, in the reader's language: the page
    (console, bracket, standings, rounds), every sheet and the export; a computer's level is the same word
    in its name as in the organiser's picker."""
    from django.utils import translation
    from django.utils.html import escape

    from games.words import computers
    from tournaments import service

    client.cookies["django_language"] = language
    row = service.create(
        "Names Cup", "kazino", "single_elimination", {"game_config": {"match": "single"}}, by=organiser
    )
    typed = 'Anne-Marie «Ti Zouzou» O\'Neil & "Pierre-Louis"'
    service.register(row, typed)
    for level in ("random", "greedy", "strong"):
        act(client, row, action="add_bot", level=level)
    with translation.override(language):
        levels = {
            level: str(computers.LEVEL_NAMES[level]) for level in ("random", "greedy", "strong", "expert")
        }
        names = {e.number: str(e.shown_name) for e in Entry.objects.filter(tournament=row)}
        english = {}
    with translation.override("en"):
        english = {e.number: str(e.shown_name) for e in Entry.objects.filter(tournament=row) if e.bot_level}
    assert names[1] == typed
    for e in Entry.objects.filter(tournament=row, bot_level__gt=""):
        assert f"({levels[e.bot_level]})" in names[e.number], "a computer's name carries its level's word"

    def shows_every_name(path: str, where: str) -> str:
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        for number, name in names.items():
            assert escape(name) in body or name in body, f"{name!r} missing from {where} ({language})"
            if language != "en" and number in english:
                assert english[number] not in body, f"{english[number]!r} left in English on {where}"
        return body

    page = shows_every_name(f"/tournaments/{row.pk}/", "the page")
    picker = re.search(r'<select name="level">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r"<option[^>]*>([^<]*)<", picker) == [
        escape(w[:1].upper() + w[1:]) for w in levels.values()
    ]
    service.seed(row, "manual", [1, 2, 3, 4], by=organiser)
    service.start(row, by=organiser)
    page = shows_every_name(f"/tournaments/{row.pk}/", "the page")
    svg = page[page.index("<svg") : page.index("</svg>") + 6]
    titles = {t for t in re.findall(r"<title>([^<]*)</title>", svg)}
    assert {escape(n) for n in names.values()} <= titles, "the bracket's full names are the standings' names"
    for sheet in ("pairings", "tables", "standings", "bracket"):
        shows_every_name(f"/tournaments/{row.pk}/print/{sheet}/", f"the {sheet} sheet")
    exported = csv.reader(io.StringIO(client.get(f"/tournaments/{row.pk}/standings.csv").content.decode()))
    assert sorted(line[1] for line in list(exported)[1:]) == sorted(names.values())


def test_the_standings_export_writes_points_as_the_pages_do(client):
    """#30 defect 8: one way of writing points on the page, the printed standings and the CSV."""
    row = tournaments.create("Quarter Cup", "skyjo", "swiss", {"table_size": 4})
    for name in ("Ana", "Bo"):
        tournaments.register(row, name)
    Entry.objects.filter(tournament=row, name="Ana").update(values={"match_points": 6.75}, rank=1)
    Entry.objects.filter(tournament=row, name="Bo").update(values={"match_points": 3.25}, rank=2)
    lines = list(csv.reader(io.StringIO(client.get(f"/tournaments/{row.pk}/standings.csv").content.decode())))
    assert [line[:3] for line in lines[1:]] == [["1", "Ana", "6¾"], ["2", "Bo", "3¼"]]
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert ">6¾</td>" in page and ">3¼</td>" in page and "6.75" not in page
    sheet = client.get(f"/tournaments/{row.pk}/print/standings/").content.decode()
    assert ">6¾</td>" in sheet and "6.75" not in sheet
