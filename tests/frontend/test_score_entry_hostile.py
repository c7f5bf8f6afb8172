"""#37 items 7 and 8, score entry with real cards: "²" or 5,000 digits in a score were a server error
(``int()`` after ``isdigit()``), a refused entry redrew as many rows as ``count`` said (20,000 rows),
All Fives points in play had no bound (10^30 counted), and the table-code limit counted right codes
too, across every tournament of an address (a club's shared Wi-Fi locked every phone out)."""

from __future__ import annotations

import re
import time
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.test import Client

from frontend.over_the_board import CODE_RATE
from games import bounds
from games.engines import tally
from games.engines.base import IllegalAction
from tests.frontend.test_over_the_board_pages import as_user, kazino_form, setup
from tournaments import board, projection
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits():  # type: ignore[no-untyped-def]
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize("hostile", ["²", "٣", "9" * 5000, "1e999999", "1.5", "-0x10"])
def test_a_hostile_score_is_refused_with_a_sentence_not_a_server_error(hostile):
    row, people = setup()
    match = Match.objects.filter(tournament=row).first()
    phone = as_user(people[match.entrants[0]])
    form = kazino_form(match, 30, 22)
    form[f"h0-cards-{match.entrants[0]}"] = hostile
    answer = phone.post(f"/tournaments/{row.pk}/score/{match.key}/", form)
    assert answer.status_code == 200
    assert Match.objects.get(pk=match.pk).board == []


def test_a_refused_entry_never_draws_more_rows_than_a_game_has_hands():
    row, people = setup(game="skyjo", game_config={})
    match = Match.objects.filter(tournament=row).first()
    phone = as_user(people[match.entrants[0]])
    first, second = match.entrants
    form = {"action": "enter", "game": 1, "count": 20_000, f"h0-total-{first}": "x", f"h0-total-{second}": 3}
    page = phone.post(f"/tournaments/{row.pk}/score/{match.key}/", form).content.decode()
    rows = set(re.findall(r'name="h(\d+)-total-', page))
    assert rows and len(rows) <= bounds.HANDS.high


def test_all_fives_points_in_play_are_bounded():
    hand = {"play": {"0": 10**30, "1": 0}, "bonus": {"0": 0, "1": 0}, "winners": [1]}
    config = {"players": 2, "variant": "all_fives", "target": 250}
    with pytest.raises(IllegalAction) as refused:
        board.score("dominoes", config, [0, 1], [hand])
    assert refused.value.code == "too_many_points"


def test_a_score_written_with_an_exponent_is_no_number_and_costs_nothing():
    started = time.perf_counter()
    assert tally.whole_or_half("1e999999999") is None
    assert tally.whole_or_half("7½") == Fraction(15, 2)
    assert time.perf_counter() - started < 1.0


def test_only_wrong_codes_count_and_only_in_their_tournament():
    row, _people = setup(accounts=False)
    other, _others = setup(accounts=False, organiser="org2")
    tries = int(CODE_RATE.split("/")[0])
    match = Match.objects.filter(tournament=row).first()
    right = board.code_of(projection.load(row.stream_id), match.key)
    phone = Client()
    for _n in range(tries + 5):  # right codes never lock anyone out
        answer = phone.post(f"/tournaments/{row.pk}/score/", {"code": right})
        assert answer["Location"] == f"/tournaments/{row.pk}/score/{match.key}/"
    for _n in range(tries):
        phone.post(f"/tournaments/{other.pk}/score/", {"code": "ZZZZZZ"})
    locked = Client().post(f"/tournaments/{other.pk}/score/", {"code": "ZZZZZZ"}, follow=True)
    assert "Too many codes tried" in locked.content.decode()
    # The other tournament of the same address is not locked by those mistakes.
    answer = Client().post(f"/tournaments/{row.pk}/score/", {"code": right})
    assert answer["Location"] == f"/tournaments/{row.pk}/score/{match.key}/"


def coded_phone(row, match, entrant: int) -> Client:  # type: ignore[no-untyped-def]
    """A phone that typed ``match``'s table code and says it is ``entrant``."""
    phone = Client()
    phone.post(
        f"/tournaments/{row.pk}/score/", {"code": board.code_of(projection.load(row.stream_id), match.key)}
    )
    phone.post(f"/tournaments/{row.pk}/score/{match.key}/", {"action": "who", "entrant": entrant})
    return phone


def entered_by_code(row, match):  # type: ignore[no-untyped-def]
    """The first player enters game 1 by the table's code; (the second player's phone, its answer form)."""
    a, b = match.entrants
    coded_phone(row, match, a).post(f"/tournaments/{row.pk}/score/{match.key}/", kazino_form(match, 30, 22))
    seen = Match.objects.get(tournament=row, key=match.key).board[0]["entered_seq"]
    return coded_phone(row, match, b), {"action": "confirm", "game": 1, "seen": seen}


def test_a_right_seat_code_never_counts_towards_the_limit():
    row, _people = setup(accounts=False)
    tries = int(CODE_RATE.split("/")[0])
    first, second = Match.objects.filter(tournament=row)
    url = f"/tournaments/{row.pk}/score/{first.key}/"
    phone, form = entered_by_code(row, first)
    for _n in range(tries - 1):
        wrong = phone.post(url, {**form, "seat_code": "ZZZZZZ"}, follow=True).content.decode()
        assert "type the code of your own seat" in wrong
    t = projection.load(row.stream_id)
    right = board.seat_code_of(t, first.key, first.entrants[1])
    assert 'id="match-decided"' in phone.post(url, {**form, "seat_code": right}, follow=True).content.decode()
    # The right code did not eat the budget: one wrong try is left, then the limit.
    other, form = entered_by_code(row, second)
    url = f"/tournaments/{row.pk}/score/{second.key}/"
    last = other.post(url, {**form, "seat_code": "ZZZZZZ"}, follow=True).content.decode()
    assert "type the code of your own seat" in last and "Too many codes tried" not in last
    locked = other.post(url, {**form, "seat_code": "ZZZZZZ"}, follow=True).content.decode()
    assert "Too many codes tried" in locked


def test_wrong_seat_codes_in_one_tournament_leave_another_open():
    row, _people = setup(accounts=False)
    other, _others = setup(accounts=False, organiser="org2")
    tries = int(CODE_RATE.split("/")[0])
    theirs = Match.objects.filter(tournament=other).first()
    phone, form = entered_by_code(other, theirs)
    for _n in range(tries):
        phone.post(f"/tournaments/{other.pk}/score/{theirs.key}/", {**form, "seat_code": "ZZZZZZ"})
    locked = phone.post(
        f"/tournaments/{other.pk}/score/{theirs.key}/", {**form, "seat_code": "ZZZZZZ"}, follow=True
    )
    assert "Too many codes tried" in locked.content.decode()
    match = Match.objects.filter(tournament=row).first()
    mine, form = entered_by_code(row, match)
    right = board.seat_code_of(projection.load(row.stream_id), match.key, match.entrants[1])
    done = mine.post(f"/tournaments/{row.pk}/score/{match.key}/", {**form, "seat_code": right}, follow=True)
    assert 'id="match-decided"' in done.content.decode()
