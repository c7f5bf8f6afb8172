"""The tournament form's seating choices (issue #31): by standings, wider tables or a schedule fixed in
advance; short tables smaller or larger, shown for the players expected; the warning that a Swiss will
repeat meetings, with the offer of a fixed schedule; each refused with a clear error where it does not
apply."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.errors import ServiceError
from tournaments import service
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def estimate(client, language="en", **fields):
    query = {"game": "dominoes", "format": "swiss", "table_size": "4", **fields}
    return client.get("/tournaments/estimate", query, HTTP_ACCEPT_LANGUAGE=language)


def test_the_form_shows_the_short_tables_and_warns_when_a_swiss_would_repeat_meetings(client):
    # 18 players at tables of 4 over 5 rounds: 5 × 3 = 15 ≥ 0.6 × 17.
    body = estimate(client, expected="18", rounds="5").json()
    assert body["seating"].startswith("18 players: 3 tables of 4 and 2 tables of 3 each round.")
    assert (
        "a schedule fixed in advance" in body["seating"]
        and "(the fewest repeat meetings possible: 0)" in body["seating"]
    )
    larger = estimate(client, game="skyjo", expected="18", rounds="5", short_tables="larger").json()
    assert larger["seating"].startswith("18 players: 2 tables of 5 and 2 tables of 4 each round.")
    # Chosen already, or too few rounds to repeat: only the tables.
    fixed = estimate(client, expected="18", rounds="5", seating="fixed").json()
    assert fixed["seating"] == "18 players: 3 tables of 4 and 2 tables of 3 each round."
    short = estimate(client, expected="40", rounds="3").json()
    assert short["seating"] == "40 players: 10 tables of 4 each round."
    assert estimate(client, expected="18", table_size="2").json()["seating"] == ""
    ht = estimate(client, expected="16", rounds="5", language="ht").json()
    assert ht["seating"].startswith("16 jwè : 4 tab 4 jwè chak wonn.")


def test_the_seating_choices_are_kept_and_refused_where_they_do_not_apply(client):
    assert estimate(client, seating="nowhere").json()["error"]["code"] == "bad_options"
    assert estimate(client, short_tables="silent").json()["error"]["code"] == "bad_options"
    # Dominoes seats four at most: no tables of five.
    refused = estimate(client, short_tables="larger").json()["error"]
    assert refused["message"] == "This game cannot seat 5 players at a table."
    with pytest.raises(ServiceError):
        service.validate_options("dominoes", "swiss", {"table_size": 2, "seating": "wider"})
    with pytest.raises(ServiceError):
        service.validate_options("dominoes", "round_robin", {"table_size": 2, "seating": "fixed"})
    with pytest.raises(ServiceError):
        service.validate_options(
            "dominoes", "swiss", {"table_size": 4, "seating": "fixed", "late_entry": True}
        )
    assert service.validate_options(
        "skyjo", "swiss", {"table_size": 4, "seating": "fixed", "short_tables": "larger"}
    )


def test_an_organiser_creates_a_fixed_schedule_and_cannot_change_its_rounds(client, django_user_model):
    organiser = django_user_model.objects.create_user("td", password="pw")
    client.force_login(organiser)
    made = client.post(
        "/tournaments/new/",
        {
            "name": "Meet everyone",
            "game": "dominoes",
            "format": "swiss",
            "table_size": "4",
            "rounds": "5",
            "seating": "fixed",
            "best_of": "1",
            "no_show_minutes": "0",
        },
    )
    assert made.status_code == 302
    row = Tournament.objects.get()
    assert row.options["seating"] == "fixed" and "short_tables" not in row.options
    for n in range(1, 17):
        service.register(row, f"Bot {n}", bot_level="random", by=organiser)
    service.start(row, by=organiser)
    with pytest.raises(ServiceError) as refused:
        service.set_rounds(row, 6, "longer evening", by=organiser)
    assert refused.value.code == "fixed_schedule"


def test_the_players_expected_are_read_within_bounds(client):
    # Not digits, too many digits, past the most a schedule is worked out for: no advice, no error.
    for expected in ("x", "²", "9" * 5000, "100000", "-5"):
        response = estimate(client, expected=expected, rounds="5")
        assert response.status_code == 200 and response.json()["seating"] == ""


# The page's sentences as the template marks them for translation (help.html).
SEATING_SENTENCES = {
    "standings": "Each round cuts the standings into tables of %(size)s; a table takes players from at most "
    "two neighbouring tables of the standings, as few as possible who met before, then the scores as close "
    "as they can be. In the last round the leaders play together. The first seat goes round: nobody acts "
    "first more than the rounds allow, unless keeping to that would seat together players who met before.",
    "wider": "Each round cuts the standings into tables of %(size)s; a table takes players from at most three "
    "neighbouring tables of the standings (wider tables), so that fewer players meet again; then the scores "
    "as close as they can be. The first seat goes round.",
    "fixed": "Every round's tables of %(size)s were fixed before the first, so that each player meets as many "
    "others as possible and as few pairs as possible meet twice, whatever the scores. The first seat goes "
    "round.",
}
TIE_BREAK_RULE = (
    "Tie-breaks follow FIDE's regulations of 2023 (C.07, article 16): a round a player did not play (a bye, "
    "a forfeit won or lost, a round missed) counts in Buchholz and Sonneborn-Berger as a game against an "
    "opponent with the player's own score; an opponent who withdrew counts its later rounds as draws; "
    "Buchholz cut 1 first drops a round the player chose not to play."
)
BYE_RULE = (
    "With an odd number of players, one player sits out the round for a full point (the bye): the "
    "lowest-placed who has not had one, unless choosing another keeps more players within their score "
    "group; nobody gets it twice."
)


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_the_page_explains_the_seating_mode_the_bye_and_the_tie_breaks_in_the_readers_language(
    client, django_user_model, language
):
    organiser = django_user_model.objects.create_user("td", password="pw")
    pages = {}
    for seating in SEATING_SENTENCES:
        row = service.create(
            seating, "dominoes", "swiss", {"table_size": 4, "seating": seating}, by=organiser
        )
        pages[seating] = client.get(f"/tournaments/{row.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = service.create("boards", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    boards = client.get(f"/tournaments/{row.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    def said(msgid: str, html: str) -> bool:
        with translation.override(language):
            text = translation.gettext(msgid)
        assert language == "en" or text != msgid, f"not translated: {msgid[:40]}"
        # {% translate %} writes the catalogue's text as it is (not escaped).
        return (text % {"size": 4} if "%(size)s" in text else text) in html

    for seating, sentence in SEATING_SENTENCES.items():
        assert said(sentence, pages[seating])
        assert not any(said(other, pages[seating]) for o, other in SEATING_SENTENCES.items() if o != seating)
        assert said(TIE_BREAK_RULE, pages[seating])
    assert said(TIE_BREAK_RULE, boards) and said(BYE_RULE, boards)


def test_the_page_shows_each_rounds_tables_for_the_entrants_it_has(client, django_user_model):
    organiser = django_user_model.objects.create_user("td", password="pw")
    row = service.create("Fours", "dominoes", "swiss", {"table_size": 4}, by=organiser)
    for n in range(1, 19):
        service.register(row, f"Bot {n}", bot_level="random", by=organiser)
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert '<p id="seating-tables">18 players: 3 tables of 4 and 2 tables of 3 each round.</p>' in html
    ht = client.get(f"/tournaments/{row.pk}/", HTTP_ACCEPT_LANGUAGE="ht").content.decode()
    assert "18 jwè : 3 tab 4 jwè ak 2 tab 3 jwè chak wonn." in ht
    boards = service.create("Boards", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    assert 'id="seating-tables"' not in client.get(f"/tournaments/{boards.pk}/").content.decode()


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_the_form_tells_the_organiser_the_tie_break_rule_for_a_swiss(client, django_user_model, language):
    client.force_login(django_user_model.objects.create_user("td", password="pw"))
    html = client.get("/tournaments/new/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        rule = translation.gettext(TIE_BREAK_RULE)
    assert f'<p class="meta" data-formats="swiss">{rule}</p>' in html
