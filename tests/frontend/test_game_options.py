"""A game's options in the new-table form and the tournament form: the rules' defaults follow the
options chosen (#23), and the tournament form offers each game's own options with an estimate of a
round's length (#20)."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command

from games.models import Game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def new_table(client, game, players, **options):
    seats = {f"seat{n}": "me" if n == 0 else "bot:greedy" for n in range(players)}
    response = client.post(f"/new/{game}/", {"players": str(players), **seats, **options})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.order_by("-pk").first()


# --- The new-table form (#23 defect 1 and 2) --------------------------------------------------------


@pytest.mark.parametrize(("players", "target"), [(2, 250), (3, 200), (4, 200)])
def test_an_all_fives_table_plays_to_the_rules_target_for_its_players(client, players, target):
    game = new_table(client, "dominoes", players, variant="all_fives")
    assert game.config["variant"] == "all_fives" and game.config["target"] == target


def test_all_fives_partnerships_play_to_200_and_block_to_100(client):
    assert new_table(client, "dominoes", 4, variant="all_fives", partnerships="on").config["target"] == 200
    assert new_table(client, "dominoes", 2, variant="block").config["target"] == 100
    assert new_table(client, "dominoes", 2, variant="all_fives", target="60").config["target"] == 60


def test_a_pitch_table_has_no_hand_limit_unless_asked(client):
    assert new_table(client, "pitch", 4).config["max_hands"] is None
    assert new_table(client, "pitch", 3, max_hands="").config["max_hands"] is None
    assert new_table(client, "pitch", 3, max_hands="30").config["max_hands"] == 30


def test_a_bad_option_is_refused_with_the_engines_sentence_and_the_choices_kept(client):
    response = client.post(
        "/new/dominoes/",
        {"players": "3", "variant": "all_fives", "target": "0", "seat0": "me", "seat1": "bot:greedy"},
    )
    page = response.content.decode()
    assert response.status_code == 200 and "The target must be a whole number of points" in page
    assert not Game.objects.exists()
    assert re.search(r'<option value="all_fives" selected>', page)
    assert re.search(r'<option value="3" selected>', page)


def test_the_form_sends_no_default_and_shows_the_rules_default_for_the_options_chosen(client):
    page = client.get("/new/dominoes/").content.decode()
    target = re.search(r'<input type="number" name="target"[^>]*>', page).group(0)
    assert 'value=""' in target and 'placeholder="100"' in target  # Block, two players
    table = json.loads(re.search(r'id="option-defaults"[^>]*>(.*?)</script>', page, re.S).group(1))
    rows = {
        (r["when"]["players"], r["when"]["variant"], r["when"]["partnerships"]): r for r in table["dominoes"]
    }
    assert rows[(2, "all_fives", False)]["defaults"] == {"target": 250}
    assert rows[(3, "all_fives", False)]["defaults"] == {"target": 200}
    assert rows[(4, "all_fives", True)]["defaults"] == {"target": 200}
    assert rows[(3, "draw", False)]["defaults"] == {"target": 100}
    assert (3, "block", True) not in rows  # partnerships are for four


def test_each_forms_options_come_from_one_list():
    from frontend.options import GAME_OPTIONS, TABLES, TOURNAMENTS, defaults_table, fields, parse_options

    assert {o.key for o in GAME_OPTIONS["dominoes"].offered(TOURNAMENTS)} == {"variant", "target"}
    assert {o.key for o in GAME_OPTIONS["dominoes"].offered(TABLES)} == {"variant", "partnerships", "target"}
    assert parse_options(
        "pitch", {"pitch-target": "11", "pitch-max_hands": ""}, prefix="pitch-", where=TOURNAMENTS
    ) == {"target": 11}
    kazino = {f["key"]: f for f in fields("kazino", TOURNAMENTS, 2, prefix="kazino-")}
    assert [value for value, _text, selected in kazino["match"]["choices"] if selected] == ["target"]
    assert kazino["match"]["name"] == "kazino-match" and kazino["kings_aces_bonus"]["checked"] is False
    skyjo = {f["key"]: f for f in fields("skyjo", TOURNAMENTS, 5)}
    assert skyjo["target"]["placeholder"] == "100" and skyjo["target"]["value"] == ""
    assert defaults_table("kazino", [2]) == []  # no number to follow


def test_the_demo_all_fives_table_plays_to_200():
    call_command("demo", stdout=io.StringIO())
    demo = Game.objects.get(engine="dominoes", is_demo=True)
    assert demo.config["variant"] == "all_fives" and demo.config["partnerships"] is True
    assert demo.config["target"] == 200
    assert Game.objects.get(engine="pitch", is_demo=True).config["max_hands"] is None


# --- The tournament form (#20 deliverable 3) ------------------------------------------------------


def create(client, **data):
    base = {"name": "Friday", "format": "swiss", "table_size": "2", "best_of": "1", "no_show_minutes": "0"}
    return client.post("/tournaments/new/", {**base, **data})


def test_the_tournament_form_shows_each_games_own_options_with_the_rules_defaults(client, organiser):
    page = client.get("/tournaments/new/").content.decode()
    for game in ("skyjo", "dominoes", "kazino", "pitch"):
        assert f'<fieldset class="game-options" data-game="{game}">' in page
    assert 'name="dominoes-variant"' in page and 'name="dominoes-partnerships"' not in page
    assert re.search(
        r'name="kazino-match"[^>]*>\s*<option value="target" selected>A match: first to 160<', page
    )
    assert re.search(r'name="pitch-target"[^>]*>\s*<option value="7" selected>', page)
    assert re.search(r'name="skyjo-target"[^>]*placeholder="100"', page)
    assert re.search(r'name="pitch-max_hands"[^>]*placeholder=""', page)
    assert 'id="estimate"' in page and "A round takes about" in page


def test_a_tournament_keeps_the_options_chosen_and_only_the_chosen_games(client, organiser):
    response = create(
        client,
        game="dominoes",
        **{
            "dominoes-variant": "all_fives",
            "dominoes-target": "",
            "pitch-target": "21",
            "skyjo-target": "50",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    row = Tournament.objects.get()
    assert row.options["game_config"] == {"variant": "all_fives"}


def test_the_engine_refuses_a_bad_game_option_in_the_tournament_form(client, organiser):
    response = create(client, game="dominoes", **{"dominoes-target": "0"})
    assert response.status_code == 200 and not Tournament.objects.exists()
    page = response.content.decode()
    assert "The target must be a whole number of points" in page
    assert 'name="dominoes-target"' in page and 'value="0"' in page  # what was typed stays


def test_a_pitch_tournament_can_set_a_hand_limit(client, organiser):
    assert create(client, game="pitch", table_size="4", **{"pitch-max_hands": "40"}).status_code == 302
    assert Tournament.objects.get().options["game_config"] == {"max_hands": 40}


# --- The estimate endpoint --------------------------------------------------------------------------


def test_the_estimate_follows_the_options(client):
    one = client.get("/tournaments/estimate", {"game": "kazino", "format": "swiss", "kazino-match": "single"})
    three = client.get(
        "/tournaments/estimate",
        {"game": "kazino", "format": "swiss", "kazino-match": "single", "best_of": "3"},
    )
    match = client.get(
        "/tournaments/estimate", {"game": "kazino", "format": "swiss", "kazino-match": "target"}
    )
    a, b, c = one.json(), three.json(), match.json()
    assert a["source"] == "simulated" and a["best_of"] == 1 and b["best_of"] == 3
    assert a["minutes"] < b["minutes"] < c["minutes"] * 3
    assert a["text"] == f"A round takes about {a['minutes']} minutes (one game)."
    assert b["text"] == f"A round takes about {b['minutes']} minutes (best of 3)."
    assert "6 seconds a move" in a["basis"]
    ht = client.get(
        "/tournaments/estimate",
        {"game": "kazino", "format": "swiss", "kazino-match": "single", "best_of": "3"},
        HTTP_ACCEPT_LANGUAGE="ht",
    ).json()
    assert ht["text"] == f"Yon wonn pran anviwon {b['minutes']} minit (pi bon nan 3 pati)."


def test_the_estimate_of_all_fives_is_that_of_its_own_target(client):
    def minutes(size: str, variant: str) -> int:
        query = {"game": "dominoes", "format": "swiss", "table_size": size, "dominoes-variant": variant}
        return client.get("/tournaments/estimate", query).json()["minutes"]

    assert minutes("2", "all_fives") < minutes("2", "block")  # 250 points of fives go fast


def test_the_estimate_says_why_it_cannot_be_made(client):
    refused = client.get(
        "/tournaments/estimate", {"game": "dominoes", "format": "swiss", "dominoes-target": "0"}
    )
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_target"
    wrong = client.get("/tournaments/estimate", {"game": "chess", "format": "swiss"})
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "unknown_game"
    assert client.post("/tournaments/estimate", {"game": "kazino"}).status_code == 405


def test_the_tournament_page_says_how_long_a_round_takes(client):
    from tournaments import service

    row = service.create("Estimated", "pitch", "swiss", {"best_of": 2, "table_size": 4})
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert re.search(r'id="round-estimate">A round takes about \d+ minutes \(best of 2\)\.<', page)


@pytest.mark.parametrize("players", [str(10**6), "-3", "²", "٣", "1" * 5000, "2.0", ""])
def test_a_hostile_player_count_is_refused_before_any_work(client, players):
    """#37: ``players=10**12`` once built a list with an entry per player before checking it (one
    request exhausted the server). The count is refused first: the request stays small in memory."""
    import tracemalloc

    client.post("/new/kazino/", {"players": "9", "seat0": "me"})  # templates and catalogues loaded once
    tracemalloc.start()
    try:
        response = client.post("/new/kazino/", {"players": players, "seat0": "me"})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert response.status_code == 200
    assert "Choose how many players sit at the table." in response.content.decode()
    assert peak < 4_000_000, peak
    assert not Game.objects.exists()
