"""The pages of tables played with real cards: the phones' score entry (signed in, or with the table's
code typed into a form and kept in the session), the organiser's page; and the tournament list's
filters."""

from __future__ import annotations

import dataclasses
import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from frontend.over_the_board import CODE_RATE
from frontend.score_sheet import parse_hands
from games.eventlog import streams
from tests.frontend.catalogues import english_on_page, english_only_phrases
from tournaments import board, projection, service
from tournaments.models import Club, Match, Tournament

pytestmark = pytest.mark.django_db

User = get_user_model()
NAMES = ["Anaïs", "Bong", "Carmel", "Dado"]


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def setup(game="kazino", players=4, accounts=True, organiser="org", **options):
    """A real-card night started (``organiser``: a new account's name, one per tournament)."""
    organiser = User.objects.create_user(organiser, password="pw-board-1")
    options.setdefault("game_config", {"match": "single"} if game == "kazino" else {})
    row = service.create("Real cards night", game, "swiss", options, by=organiser)
    people = [organiser]
    for n in range(players):
        user = User.objects.create_user(f"player{n + 1}", password="pw-board-1") if accounts else None
        service.register(row, NAMES[n], user=user, by=organiser)
        people.append(user)
    service.set_over_the_board(row, True, by=organiser)
    service.seed(row, "manual", list(range(1, players + 1)), by=organiser)
    service.start(row, by=organiser)
    row.refresh_from_db()
    return row, people


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def kazino_form(match: Match, a: int, b: int, game: int = 1) -> dict:
    first, second = match.entrants
    return {"action": "enter", "game": game, "count": 1, f"h0-cards-{first}": a, f"h0-cards-{second}": b}


@dataclasses.dataclass
class Entered:
    """A real-card Kazino night (``setup``) whose first table's first player entered game 1, 30 cards
    to 22: its row, people, that match and the table's score page."""

    row: Tournament
    people: list
    match: Match
    url: str

    @property
    def a(self) -> int:
        return self.match.entrants[0]

    @property
    def b(self) -> int:
        return self.match.entrants[1]

    def seen(self) -> int:
        """The entry's seq, as the page shows it to those asked to confirm it."""
        return Match.objects.get(tournament=self.row, key=self.match.key).board[0]["entered_seq"]

    def dispute(self, reason: str = "I had 27", by: Client | None = None):
        """The second player disputes the entry (``by``: its client, if the test holds one)."""
        form = {"action": "dispute", "game": 1, "seen": self.seen(), "reason": reason}
        return (by or as_user(self.people[self.b])).post(self.url, form)


def entered() -> Entered:
    row, people = setup()
    match = Match.objects.filter(tournament=row).first()
    found = Entered(row, people, match, f"/tournaments/{row.pk}/score/{match.key}/")
    as_user(people[found.a]).post(found.url, kazino_form(match, 30, 22))
    return found


def test_a_signed_in_player_goes_straight_to_their_table_and_enters_the_result():
    row, people = setup()
    match = Match.objects.filter(tournament=row).first()
    a, b = match.entrants
    phone = as_user(people[a])
    landing = phone.get(f"/tournaments/{row.pk}/score/")
    assert landing.status_code == 302 and landing["Location"] == f"/tournaments/{row.pk}/score/{match.key}/"
    page = phone.get(landing["Location"]).content.decode()
    assert 'inputmode="numeric"' in page and 'id="enter"' in page and NAMES[a - 1] in page
    answer = phone.post(landing["Location"], kazino_form(match, 30, 22), follow=True).content.decode()
    assert "The other players of the table confirm it" in answer and 'id="waiting"' in answer
    other = as_user(people[b]).get(landing["Location"]).content.decode()
    assert 'id="confirm"' in other and 'id="dispute"' in other
    assert f"Cards captured: {NAMES[a - 1]} 30 · {NAMES[b - 1]} 22" in other  # what the points come from
    seen = re.search(r'name="seen" value="(\d+)"', other).group(1)
    done = as_user(people[b]).post(
        landing["Location"], {"action": "confirm", "game": 1, "seen": seen}, follow=True
    )
    assert 'id="match-decided"' in done.content.decode()
    match = Match.objects.get(tournament=row, key=match.key)
    assert match.result["places"] == {str(a): 1, str(b): 2}


def test_the_table_code_is_typed_into_a_form_kept_in_the_session_and_never_in_an_address():
    row, people = setup(accounts=False)
    t = projection.load(row.stream_id)
    match = Match.objects.filter(tournament=row).first()
    code = board.code_of(t, match.key)
    phone = Client()
    assert (
        phone.get(f"/tournaments/{row.pk}/score/{match.key}/")["Location"] == f"/tournaments/{row.pk}/score/"
    )
    answer = phone.post(f"/tournaments/{row.pk}/score/", {"code": f"{code[:3].lower()} {code[3:]}"})
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{row.pk}/score/{match.key}/"
    assert code not in answer["Location"]
    who = phone.get(answer["Location"]).content.decode()
    assert "Who are you?" in who and code not in who
    phone.post(answer["Location"], {"action": "who", "entrant": match.entrants[1]})
    page = phone.get(answer["Location"]).content.decode()
    assert 'id="speaking-for"' in page and NAMES[match.entrants[1] - 1] in page
    phone.post(answer["Location"], kazino_form(match, 20, 32))
    event = streams.read(row.stream_id)[-1]
    assert event.type == "result.entered" and event.data["via"] == "code"
    assert event.data["entrant"] == match.entrants[1]


def test_a_wrong_code_is_refused_and_codes_cannot_be_guessed_quickly():
    row, _people = setup(accounts=False)
    phone = Client()
    answer = phone.post(f"/tournaments/{row.pk}/score/", {"code": "ZZZZZZ"}, follow=True)
    assert "That is not the code of a table of this round." in answer.content.decode()
    tries = int(CODE_RATE.split("/")[0])
    for _n in range(tries):
        answer = phone.post(f"/tournaments/{row.pk}/score/", {"code": "ZZZZZZ"}, follow=True)
    assert "Too many codes tried" in answer.content.decode()


def test_a_player_of_another_table_cannot_open_this_one():
    row, people = setup()
    first, second = Match.objects.filter(tournament=row)
    stranger = as_user(people[second.entrants[0]])
    answer = stranger.get(f"/tournaments/{row.pk}/score/{first.key}/")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{row.pk}/score/"
    refused = stranger.post(f"/tournaments/{row.pk}/score/{first.key}/", kazino_form(first, 30, 22))
    assert refused.status_code == 302
    assert Match.objects.get(tournament=row, key=first.key).board == []


def test_a_refused_entry_says_why_and_keeps_what_was_typed():
    row, people = setup()
    match = Match.objects.filter(tournament=row).first()
    phone = as_user(people[match.entrants[0]])
    page = phone.post(
        f"/tournaments/{row.pk}/score/{match.key}/", kazino_form(match, 30, 20)
    ).content.decode()
    assert "add up to 50, not 52" in page and 'value="30"' in page and 'value="20"' in page


def test_a_dispute_shows_on_the_organisers_page_and_the_organiser_decides():
    found = entered()
    row, people, match, url, a, b = found.row, found.people, found.match, found.url, found.a, found.b
    found.dispute()
    organiser = as_user(people[0])
    page = organiser.get(f"/tournaments/{row.pk}/board/").content.decode()
    assert f'data-table="{match.key}" data-state="disputed"' in page and "I had 27" in page
    assert board.code_of(projection.load(row.stream_id), match.key) in page
    page = organiser.get(url).content.decode()
    assert 'id="disputed"' in page and 'id="accept"' in page and 'id="record"' in page
    form = kazino_form(match, 25, 27) | {"action": "resolve", "reason": "recounted"}
    organiser.post(url, form)
    match = Match.objects.get(tournament=row, key=match.key)
    assert match.result["places"] == {str(a): 2, str(b): 1}


def test_who_disputed_an_entry_is_not_asked_to_confirm_or_dispute_it_again():
    found = entered()
    people, match, url, a = found.people, found.match, found.url, found.a
    disputer = as_user(people[found.b])
    page = disputer.get(url).content.decode()
    assert 'id="confirm"' in page and 'id="dispute"' in page
    found.dispute(by=disputer)
    page = disputer.get(url).content.decode()
    assert 'id="disputed"' in page and "I had 27" in page
    assert 'id="confirm"' not in page and 'id="dispute"' not in page
    # Nor is the entry said to wait for them: they answered (the organiser decides now).
    assert 'id="waiting"' not in as_user(people[a]).get(url).content.decode()
    console = as_user(people[0]).get(f"/tournaments/{found.row.pk}/").content.decode()
    assert "Not confirmed by:" not in console and "state-disputed" in console
    # A new entry of the game asks everyone again.
    as_user(people[a]).post(url, kazino_form(match, 27, 25))
    page = disputer.get(url).content.decode()
    assert 'id="confirm"' in page and 'id="disputed"' not in page


def test_the_organisers_page_is_the_organisers_only_and_marks_rounds():
    organiser = User.objects.create_user("org", password="pw-board-1")
    row = service.create("Later", "pitch", "swiss", {"table_size": 4, "rounds": 3}, by=organiser)
    assert Client().get(f"/tournaments/{row.pk}/board/").status_code == 404
    client = as_user(organiser)
    client.post(f"/tournaments/{row.pk}/board/", {"action": "add_player", "name": "Wilner"})
    client.post(f"/tournaments/{row.pk}/board/", {"action": "round", "round": 2, "on": "1"})
    row.refresh_from_db()
    assert row.board_rounds == [2] and not row.over_the_board
    assert row.entries.get().name == "Wilner"
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert 'id="sheets"' in page and f"/tournaments/{row.pk}/board/" in page


def test_the_forms_fields_become_the_hands_the_rules_check():
    dominoes = {"variant": "all_fives", "players": 3, "partnerships": False}
    post = {"count": "3", "h0-play-1": "20", "h0-play-2": "5", "h0-play-3": "0", "h0-bonus-1": "7½"}
    post |= {"h0-bonus-2": "7½", "h0-bonus-3": "0", "h0-winner": "1,2"}
    hands = parse_hands("dominoes", dominoes, [1, 2, 3], post)
    assert hands == [
        {"play": {"1": 20, "2": 5, "3": 0}, "bonus": {"1": "7½", "2": "7½", "3": 0}, "winners": [1, 2]}
    ]
    skyjo = parse_hands(
        "skyjo", {}, [4, 5], {"count": "2", "h0-total-4": "−3", "h0-total-5": "12", "h0-closer": "4"}
    )
    assert skyjo == [{"totals": {"4": -3, "5": 12}, "closer": 4}]
    pitch = parse_hands("pitch", {}, [1, 2], {"count": "1", "h0-pitcher": "2", "h0-bid": "3", "h0-high": "2"})
    assert pitch == [{"pitcher": 2, "bid": 3, "high": 2, "low": None, "jack": None, "game": None}]


# --- The tournament list (issue #20 item 6) ------------------------------------------------------


def test_the_list_filters_by_game_club_and_status_and_shows_a_repeating_tournament_once(client):
    demo = Club.objects.create(name="Demo club", slug="demo")
    other = Club.objects.create(name="Jacmel Kazino", slug="jacmel")
    for _n in range(9):  # the demo's Swiss starts again each time it ends
        service.create("Demo club Swiss", "kazino", "swiss", {"repeat": True}, club=demo)
    service.create("Jacmel Friday", "kazino", "swiss", {}, club=other)
    service.create("Skyjo Sunday", "skyjo", "swiss", {})
    newest = Tournament.objects.filter(name="Demo club Swiss").order_by("-pk").first()
    page = client.get("/tournaments/").content.decode()
    assert page.count("Demo club Swiss") == 1 and f'href="/tournaments/{newest.pk}/"' in page
    assert "Jacmel Friday" in page and "Skyjo Sunday" in page and 'id="tournament-filters"' in page
    page = client.get("/tournaments/?game=skyjo").content.decode()
    assert "Skyjo Sunday" in page and "Jacmel Friday" not in page
    page = client.get("/tournaments/?club=jacmel").content.decode()
    assert "Jacmel Friday" in page and "Demo club Swiss" not in page and "Skyjo Sunday" not in page
    page = client.get("/tournaments/?club=none").content.decode()
    assert "Skyjo Sunday" in page and "Jacmel Friday" not in page
    Tournament.objects.filter(name="Jacmel Friday").update(status="finished")
    page = client.get("/tournaments/?status=finished").content.decode()
    assert "Jacmel Friday" in page and "Skyjo Sunday" not in page
    page = client.get("/tournaments/?status=running&game=pitch").content.decode()
    assert "No tournament matches these choices." in page
    assert client.get("/tournaments/?game=<script>&status=nonsense&club=x").status_code == 200


@pytest.mark.parametrize("language", ["ht", "tl"])
@pytest.mark.parametrize("game", ["skyjo", "dominoes", "kazino", "pitch"])
def test_the_score_pages_speak_the_players_language(language, game):
    options = {"table_size": 3} if game in ("skyjo", "pitch") else {}
    row, people = setup(game=game, players=3 if options else 2, **options)
    match = Match.objects.filter(tournament=row).first()
    phrases = english_only_phrases(language)
    for client, url in (
        (as_user(people[match.entrants[0]]), f"/tournaments/{row.pk}/score/{match.key}/"),
        (as_user(people[0]), f"/tournaments/{row.pk}/board/"),
        (Client(), f"/tournaments/{row.pk}/score/"),
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        main = re.search(r"<main>(.*)</main>", page, re.S).group(1)
        text = html.unescape(re.sub(r"<[^>]+>", " ", main))
        assert not english_on_page(text, phrases), (url, english_on_page(text, phrases))


def test_the_players_names_are_read_once_however_many_entries_the_page_sums_up():
    """The page's summaries of entries (pending, recorded) name the players from the entries the page
    read once: an entry to sum up costs no further read of them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    row, people = setup()
    match = Match.objects.filter(tournament=row).first()
    url = f"/tournaments/{row.pk}/score/{match.key}/"
    phone = as_user(people[match.entrants[1]])

    def entry_reads() -> tuple[str, int]:
        with CaptureQueriesContext(connection) as queries:
            page = phone.get(url).content.decode()
        return page, sum('FROM "tournaments_entry"' in q["sql"] for q in queries.captured_queries)

    _page, before = entry_reads()
    as_user(people[match.entrants[0]]).post(url, kazino_form(match, 30, 22))
    page, after = entry_reads()
    assert 'id="confirm"' in page and f"Cards captured: {NAMES[match.entrants[0] - 1]} 30" in page
    assert after == before
