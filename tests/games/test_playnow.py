"""Play now (games/access/playnow.py, #33 finding a game): the next player asking for the same game, options
and kind is seated with the one waiting, once; nobody with themselves; waits lapse; a computer takes
the seat after the minutes asked for, by a job, with the test's clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games import bounds
from games.access import playnow
from games.background import jobs
from games.models import Game, Seat, Seek
from tests import races

pytestmark = pytest.mark.django_db

TINY = {"players": 2, "goal": 50}


def _users(*names: str) -> list:
    return [get_user_model().objects.create_user(n) for n in names]


def _seated(game: Game) -> set[str]:
    return {s.user.username for s in Seat.objects.filter(game=game, user__isnull=False)}


def test_the_second_player_asking_for_the_same_is_seated_with_the_first():
    ana, ben = _users("ana", "ben")
    first = playnow.press(ana, "tiny", TINY, "casual")
    assert first.status == Seek.Status.WAITING and first.game is None
    second = playnow.press(ben, "tiny", TINY, "casual")
    assert second.status == Seek.Status.MATCHED and second.game is not None
    first.refresh_from_db()
    assert first.status == Seek.Status.MATCHED and first.game_id == second.game_id
    game = second.game
    assert _seated(game) == {"ana", "ben"} and game.kind == "casual" and game.status == "active"
    assert not Seat.objects.filter(game=game, awaiting_player=True).exists()
    # Both pages learn it from the state they ask for.
    assert playnow.state(first.pk, ana).game_id == game.pk


def test_other_options_another_kind_or_another_game_are_not_the_same():
    ana, ben, cy, di = _users("ana", "ben", "cy", "di")
    playnow.press(ana, "tiny", TINY, "casual")
    assert playnow.press(ben, "tiny", {"players": 2, "goal": 60}, "casual").game is None
    assert playnow.press(cy, "tiny", TINY, "rated").game is None
    rated = playnow.press(di, "tiny", TINY, "rated")
    assert rated.game is not None and rated.game.kind == "rated" and _seated(rated.game) == {"cy", "di"}
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 2  # ana's and ben's


def test_nobody_is_seated_with_themselves_and_a_matched_wait_is_not_matched_again():
    ana, ben, cy = _users("ana", "ben", "cy")
    first = playnow.press(ana, "tiny", TINY, "casual")
    again = playnow.press(ana, "tiny", TINY, "casual")
    assert again.pk == first.pk and again.game is None
    playnow.press(ben, "tiny", TINY, "casual")
    late = playnow.press(cy, "tiny", TINY, "casual")
    assert late.game is None and late.status == Seek.Status.WAITING
    assert Game.objects.count() == 1


def test_one_wait_at_a_time():
    ana, ben = _users("ana", "ben")
    old = playnow.press(ana, "tiny", TINY, "casual")
    playnow.press(ana, "tiny", TINY, "rated")
    old.refresh_from_db()
    assert old.status == Seek.Status.CANCELLED
    assert playnow.press(ben, "tiny", TINY, "casual").game is None


@pytest.mark.parametrize("lapse", ["expired", "page_closed", "cancelled"])
def test_a_wait_that_lapsed_or_was_cancelled_seats_nobody(lapse: str):
    ana, ben = _users("ana", "ben")
    start = timezone.now()
    first = playnow.press(ana, "tiny", TINY, "casual", now=start)
    if lapse == "expired":
        later = start + playnow.LIFETIME
        # Her page kept asking until then.
        playnow.state(first.pk, ana, now=later - timedelta(seconds=1))
    elif lapse == "page_closed":
        later = start + playnow.UNSEEN + timedelta(seconds=1)
    else:
        later = start + timedelta(seconds=5)
        playnow.cancel(first.pk, ana)
    second = playnow.press(ben, "tiny", TINY, "casual", now=later)
    assert second.game is None and second.status == Seek.Status.WAITING
    first.refresh_from_db()
    assert first.status != Seek.Status.MATCHED and first.game is None
    assert not Game.objects.exists()


def test_a_wait_lapses_when_its_page_asks_after_its_end():
    (ana,) = _users("ana")
    start = timezone.now()
    seek = playnow.press(ana, "tiny", TINY, "casual", now=start)
    assert playnow.state(seek.pk, ana, now=start + timedelta(minutes=9)).status == Seek.Status.WAITING
    assert playnow.state(seek.pk, ana, now=start + playnow.LIFETIME).status == Seek.Status.EXPIRED


def test_a_wait_is_its_players_only():
    ana, ben = _users("ana", "ben")
    seek = playnow.press(ana, "tiny", TINY, "casual")
    for who in (ben, None):
        with pytest.raises(playnow.NoSuchWait):
            playnow.state(seek.pk, who)
        with pytest.raises(playnow.NoSuchWait):
            playnow.cancel(seek.pk, who)
    for junk in (0, -1, 2**70, "1", None):
        with pytest.raises(playnow.NoSuchWait):
            playnow.state(junk, ana)  # type: ignore[arg-type]
    assert Seek.objects.get().status == Seek.Status.WAITING


@pytest.mark.parametrize("minutes", [0, 6, -1, "x", 10**30, True])
def test_the_fallbacks_minutes_are_bounded_and_a_refusal_changes_nothing(minutes):
    (ana,) = _users("ana")
    with pytest.raises(bounds.OutOfBounds):
        playnow.press(ana, "tiny", TINY, "casual", fallback_minutes=minutes)
    assert not Seek.objects.exists()


def test_a_bad_kind_is_refused():
    (ana,) = _users("ana")
    with pytest.raises(playnow.ServiceError):
        playnow.press(ana, "tiny", TINY, "tournament")
    assert not Seek.objects.exists()


def test_a_computer_takes_the_seat_after_the_minutes_asked_for(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The fallback is a job (games/background/jobs.py) due at the minutes asked for; run with the test's
    clock: before its time it does nothing, at its time the player is seated with a computer."""
    (ana,) = _users("ana")
    sent: list[tuple] = []
    monkeypatch.setattr(jobs, "enqueue", lambda name, *args, delay=0.0: sent.append((name, args, delay)))
    start = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        seek = playnow.press(ana, "tiny", TINY, "casual", fallback_minutes=2, now=start)
    assert sent == [(playnow.FALLBACK, (seek.pk,), 120.0)]
    assert jobs.find(playnow.FALLBACK).fn is not None  # registered under the name it is sent by
    assert playnow.fall_back(seek.pk, now=start + timedelta(seconds=119)) == "not_due"
    assert Seek.objects.get().game is None
    playnow.state(seek.pk, ana, now=start + timedelta(seconds=100))  # her page is still open
    assert playnow.fall_back(seek.pk, now=start + timedelta(minutes=2)) == "seated"
    seek.refresh_from_db()
    assert seek.status == Seek.Status.MATCHED
    seats = list(Seat.objects.filter(game=seek.game).order_by("number"))
    assert [s.user_id for s in seats if not s.is_bot] == [ana.pk] and sum(s.is_bot for s in seats) == 1
    # Run twice (a retried job): one table.
    assert playnow.fall_back(seek.pk, now=start + timedelta(minutes=3)) == "not_waiting"
    assert Game.objects.count() == 1


def test_no_computer_unless_asked_and_none_once_an_opponent_came():
    ana, ben, cy = _users("ana", "ben", "cy")
    start = timezone.now()
    plain = playnow.press(ana, "tiny", TINY, "casual", now=start)
    assert playnow.fall_back(plain.pk, now=start + timedelta(minutes=9)) == "not_waiting"
    playnow.cancel(plain.pk, ana)
    asked = playnow.press(ben, "tiny", TINY, "casual", fallback_minutes=1, now=start)
    playnow.press(cy, "tiny", TINY, "casual", now=start + timedelta(seconds=30))
    assert playnow.fall_back(asked.pk, now=start + timedelta(minutes=1)) == "not_waiting"
    assert Game.objects.count() == 1 and not Seat.objects.filter(bot_level__gt="").exists()


def test_a_closed_page_gets_no_computer():
    (ana,) = _users("ana")
    start = timezone.now()
    seek = playnow.press(ana, "tiny", TINY, "casual", fallback_minutes=5, now=start)
    assert playnow.fall_back(seek.pk, now=start + timedelta(minutes=5)) == "expired"
    assert not Game.objects.exists()


def _press_at_once(users: list) -> list[BaseException]:
    """Each user presses Play now in their own thread and connection, at the same moment."""
    results = races.at_once(
        *(lambda user=user: playnow.press(user, "tiny", TINY, "casual") for user in users)
    )
    return [r for r in results if isinstance(r, BaseException)]


@pytest.mark.django_db(transaction=True)
def test_players_pressing_at_once_are_seated_in_pairs_each_once():
    """Four press at the same moment: two tables of two, nobody seated twice, no wait left over; three
    press: one table and one waiting."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite runs one writer at a time)")
    for count in (4, 3):
        Seek.objects.all().delete()
        users = _users(*(f"p{count}-{i}" for i in range(count)))
        errors = _press_at_once(users)
        assert not errors, errors
        games = Game.objects.filter(seats__user__in=users).distinct()
        assert games.count() == count // 2
        for game in games:
            assert Seat.objects.filter(game=game, user__isnull=False).count() == 2
        seated = Seat.objects.filter(user__in=users)
        assert seated.count() == len({s.user_id for s in seated}) == 2 * (count // 2)
        assert Seek.objects.filter(status=Seek.Status.WAITING).count() == count % 2
