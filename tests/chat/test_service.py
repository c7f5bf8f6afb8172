"""The table chat's service (chat/service.py): who may talk, what a message may be, its rate limit, the
tournament option, reports."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from chat import service
from chat.models import Message, Report
from games.errors import ServiceError
from games.live.consumers import Speaker
from games.models import Game, Seat
from tests.games.factories import tiny_game
from tournaments.models import Match, MatchGame, Tournament
from tournaments.options import validate_options

pytestmark = pytest.mark.django_db


def speaker(game: Game, seat: int | None, user=None) -> Speaker:  # type: ignore[no-untyped-def]
    token = Seat.objects.get(game=game, number=seat).token if seat is not None else ""
    return Speaker(game.pk, seat, token, user)


def refusal(call) -> ServiceError:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as refused:
        call()
    return refused.value


def tournament_table(options: dict) -> Game:  # type: ignore[type-arg]
    game = tiny_game(kind="tournament")
    t = Tournament.objects.create(
        stream_id=uuid.uuid4().int % 2**62,
        name="Cup",
        game="tiny",
        format="swiss",
        options=options,
        status="running",
    )
    match = Match.objects.create(tournament=t, round=1, key="1-1")
    MatchGame.objects.create(match=match, game_id=game.pk, number=1)
    return game


def test_a_phrase_is_stored_as_its_key_and_a_text_stripped_to_one_line():
    game = tiny_game()
    said = service.say(speaker(game, 0), {"phrase": "good_game"})
    typed = service.say(speaker(game, 1), {"text": "  well\n\tplayed   <b>you</b>  "})
    assert (said.phrase, said.text, said.seat) == ("good_game", "", 0)
    assert said.as_json()["phrase"] == "good_game" and "text" not in said.as_json()
    # Kept as typed (the page writes it as text, never as markup): no HTML escaping in the store.
    assert (typed.phrase, typed.text) == ("", "well played <b>you</b>")
    assert [m.as_json()["id"] for m in service.history(speaker(game, 1))] == [said.pk, typed.pk]


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ({"text": "x" * 201}, "too_long"),
        ({"text": "   "}, "bad_chat"),
        ({}, "bad_chat"),
        ({"phrase": "good_game", "text": "hi"}, "bad_chat"),
        ({"phrase": "insult"}, "bad_chat"),
        ({"text": ["a", "list"]}, "bad_chat"),
        ({"phrase": 3}, "bad_chat"),
        ({"text": "nul\x00byte"}, "bad_chat"),
    ],
)
def test_a_bad_message_is_refused_with_a_code_and_stores_nothing(content, code):
    game = tiny_game()
    error = refusal(lambda: service.say(speaker(game, 0), content))
    assert error.code == code and error.status == 400
    assert not Message.objects.exists()


def test_two_hundred_characters_are_allowed():
    game = tiny_game()
    assert len(service.say(speaker(game, 0), {"text": "é" * 200}).text) == 200


def test_spectators_may_neither_write_nor_read():
    game = tiny_game()
    for call in (
        lambda: service.say(speaker(game, None), {"phrase": "hello"}),
        lambda: service.history(speaker(game, None)),
    ):
        error = refusal(call)
        assert error.code == "chat_players_only" and error.status == 403
    assert not Message.objects.exists()


def test_each_seat_has_its_own_chat_rate_limit(settings):
    settings.CHAT_RATE_LIMIT = "2/10s"
    game = tiny_game()
    for _ in range(2):
        service.say(speaker(game, 0), {"phrase": "hello"})
    error = refusal(lambda: service.say(speaker(game, 0), {"phrase": "hello"}))
    assert error.code == "rate_limited" and error.status == 429
    service.say(speaker(game, 1), {"phrase": "hello"})  # the other seat's count is its own
    assert Message.objects.filter(seat=0).count() == 2


def test_a_tournament_table_has_no_chat_unless_its_organiser_allows_it():
    closed = tournament_table({"table_size": 2})
    assert not service.allowed(closed)
    error = refusal(lambda: service.say(speaker(closed, 0), {"phrase": "hello"}))
    assert error.code == "chat_off" and error.status == 403
    assert refusal(lambda: service.history(speaker(closed, 0))).code == "chat_off"
    opened = tournament_table({"table_size": 2, "chat": True})
    assert service.allowed(opened)
    service.say(speaker(opened, 0), {"phrase": "hello"})
    assert (
        Message.objects.filter(game=opened).count() == 1 and not Message.objects.filter(game=closed).exists()
    )


def test_casual_and_rated_tables_have_chat_a_lesson_none():
    assert service.allowed(tiny_game()) and service.allowed(tiny_game(kind="rated"))
    lesson = tiny_game()
    Game.objects.filter(pk=lesson.pk).update(kind="lesson")
    lesson.refresh_from_db()
    assert not service.allowed(lesson)


def test_the_tournament_option_is_a_yes_or_no_and_off_by_default():
    assert "chat" not in validate_options("pitch", "swiss", {})
    assert validate_options("pitch", "swiss", {"chat": True})["chat"] is True
    with pytest.raises(ServiceError) as refused:
        validate_options("pitch", "swiss", {"chat": "yes"})
    assert refused.value.code == "bad_options"


def test_history_is_the_tables_last_messages_oldest_first(monkeypatch):
    monkeypatch.setattr(service, "HISTORY", 3)
    game, other = tiny_game(), tiny_game()
    said = [service.say(speaker(game, n % 2), {"text": f"m{n}"}) for n in range(5)]
    service.say(speaker(other, 0), {"text": "elsewhere"})
    assert [m.text for m in service.history(speaker(game, 0))] == ["m2", "m3", "m4"]
    assert said[-1].as_json()["seat"] == 0


def test_a_report_is_kept_for_the_staff_with_who_and_when_once_per_seat():
    user = get_user_model().objects.create_user("reader")
    game, other = tiny_game(), tiny_game()
    message = service.say(speaker(game, 0), {"text": "rude"})
    assert service.report(speaker(game, 1, user), {"id": message.pk}) == message.pk
    service.report(speaker(game, 1, user), {"id": str(message.pk)})  # again: no error, one report
    report = Report.objects.get()
    assert (report.message_id, report.seat, report.reporter, report.handled) == (message.pk, 1, user, False)
    assert report.created_at is not None
    assert refusal(lambda: service.report(speaker(game, 0), {"id": message.pk})).code == "own_message"
    assert refusal(lambda: service.report(speaker(other, 1), {"id": message.pk})).code == "no_message"
    assert refusal(lambda: service.report(speaker(game, 1), {"id": "1e9"})).code == "bad_number"
    assert (
        refusal(lambda: service.report(speaker(game, None), {"id": message.pk})).code == "chat_players_only"
    )
    assert Report.objects.count() == 1


def test_a_message_carries_nothing_of_the_game():
    game = tiny_game()
    message = service.say(speaker(game, 0), {"phrase": "one_moment"}).as_json()
    assert set(message) == {"id", "seat", "phrase", "at"}
