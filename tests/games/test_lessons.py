"""Lessons: every script is played through its engine (a lesson never teaches an illegal move), and a
lesson table takes only the move its step teaches, plays the computer's part of the script, and
counts nowhere."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from games import engines, lessons
from games.commands import controls, moves
from games.commands.create import SeatSpec, create_game
from games.computers.autoplay import choose
from games.engines.base import IllegalAction
from games.errors import ServiceError
from games.eventlog import queries, tables
from games.lessons import LEARNER, Learn, Reply
from games.lessons import play as lesson_play
from games.models import Event, Game


def _start(lesson):
    engine = engines.get(lesson.engine)
    return engine, engine.replay(engine.start(engine.validate_config(lesson.config), lesson.seed))


@pytest.mark.parametrize("slug", [lesson.slug for lesson in lessons.all_lessons()])
def test_every_lesson_replays_its_script_through_the_engine_to_its_end(slug):
    lesson = lessons.get(slug)
    engine, state = _start(lesson)
    for seat, action in lesson.played():
        assert seat in engine.to_act(state), (slug, seat, action)
        legal = engine.legal_actions(state, seat)
        # The very action the engine offers, as it writes it (the table's client sends one of these).
        assert action in legal, (slug, action)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
    # Past the script the game goes on: somebody has something to play, or the game is over.
    assert engine.to_act(state) or engine.outcome(state) is not None


@pytest.mark.parametrize("slug", [lesson.slug for lesson in lessons.all_lessons()])
def test_every_step_says_what_to_do_and_a_wrong_move_is_explained(slug):
    lesson = lessons.get(slug)
    learns = [e for e in lesson.script if isinstance(e, Learn)]
    assert learns and all(e.title and e.text and e.wrong for e in lesson.steps if isinstance(e, Learn))
    assert all(isinstance(e, Reply) and e.seat != LEARNER for e in lesson.script if e not in lesson.steps)
    assert lesson.computer_match and lesson.friends_match


def test_actions_compare_whatever_the_order_of_a_capture_s_groups():
    a = {"type": "capture", "card": "AS", "value": 14, "groups": [["2S", "QD"], ["4C", "10H"]]}
    b = {"type": "capture", "card": "AS", "value": 14, "groups": [["10H", "4C"], ["QD", "2S"]]}
    assert lessons.same_action(a, b)
    assert not lessons.same_action(a, {**b, "value": 1})


# --- A lesson table through the service ----------------------------------------------------------


def _lesson_game(slug: str) -> Game:
    lesson = lessons.get(slug)
    return create_game(
        lesson.engine,
        lesson.config,
        [SeatSpec("Learner"), SeatSpec.computer(2, "greedy")],
        seed=lesson.seed,
        kind=Game.Kind.LESSON,
    )


def _submit(game: Game, action, command_id: str):
    table = tables.load_table(game.pk)
    return moves.submit(game.pk, LEARNER, action, command_id, table.seq)


def _computer_turns(game: Game) -> None:
    """Play the computer's turns as the worker would (its choice through games.computers.autoplay)."""
    while True:
        table = tables.load_table(game.pk)
        seats = [s for s in table.to_act() if s != LEARNER]
        if not seats or LEARNER in table.to_act() and not lesson_play.scripted(table, seats[0]):
            return
        seat = seats[0]
        moves.play_turn(
            game.pk,
            seat,
            f"bot-{table.seq}-{seat}",
            table.seq,
            lambda t, s=seat: choose(t, t.seq, s),
            actor=f"bot:{seat}",
        )


@pytest.mark.django_db(transaction=True)
def test_a_legal_move_the_step_does_not_teach_is_refused_with_its_explanation_and_stores_nothing():
    game = _lesson_game("kazino")
    before = Event.objects.filter(game=game).count()
    with pytest.raises(ServiceError) as info:
        _submit(game, {"type": "trail", "card": "AS"}, "wrong-1")
    assert info.value.code == "lesson_move"
    assert "Ace as 14" in info.value.localized()["message"]
    assert Event.objects.filter(game=game).count() == before
    # The same move without a seq (the public API's and a socket's way) meets the same step.
    with pytest.raises(ServiceError) as info:
        moves.submit_now(game.pk, LEARNER, {"type": "trail", "card": "AS"}, "wrong-2")
    assert info.value.code == "lesson_move"
    assert Event.objects.filter(game=game).count() == before


@pytest.mark.django_db(transaction=True)
def test_an_illegal_move_gets_the_engine_s_own_refusal():
    game = _lesson_game("kazino")
    with pytest.raises(ServiceError) as info:
        _submit(game, {"type": "trail", "card": "9H"}, "illegal-1")
    assert info.value.code != "lesson_move"


@pytest.mark.parametrize("slug", [lesson.slug for lesson in lessons.all_lessons()])
@pytest.mark.django_db(transaction=True)
def test_a_lesson_is_played_to_its_end_at_a_real_table_and_then_goes_on_freely(slug):
    lesson = lessons.get(slug)
    game = _lesson_game(slug)
    for n, action in enumerate(lesson.moves(LEARNER)):
        _computer_turns(game)
        table = tables.load_table(game.pk)
        assert lesson_play.made(table, LEARNER) == n
        # Sent as the client sends it: the engine's own legal action, through JSON.
        legal = table.engine.legal_actions(table.state, LEARNER)
        sent = json.loads(json.dumps(next(a for a in legal if lessons.same_action(a, action))))
        _submit(game, sent, f"learner-{n}")
    _computer_turns(game)
    table = tables.load_table(game.pk)
    assert lesson_play.made(table, LEARNER) == len(lesson.moves(LEARNER))
    assert lesson_play.scripted(table, LEARNER) is None
    # Every computer move was the script's.
    assert lesson_play.made(table, 1) >= len(lesson.moves(1))
    if LEARNER in table.to_act():  # past the script any legal move is taken
        free = table.engine.legal_actions(table.state, LEARNER)[-1]
        _submit(game, free, "free-1")


@pytest.mark.django_db(transaction=True)
def test_lesson_tables_count_nowhere(client):
    game = _lesson_game("kazino")
    assert game.kind == Game.Kind.LESSON and not game.is_rated and not game.allows_undo
    assert not Game.objects.listed().filter(pk=game.pk).exists()
    assert Game.objects.tables().filter(pk=game.pk).exists()  # its table page still opens
    page = client.get("/").content.decode()
    assert f"/tables/{game.pk}/" not in page
    assert game.pk not in queries.finished_games()
    from tournaments import ratings

    assert not ratings.counts(game.kind, game.pk, tournament_game=False)


def kazino_table(kind: str) -> Any:
    """What the lesson's script reads of a Kazino table of ``kind`` with no events."""
    return SimpleNamespace(game=SimpleNamespace(kind=kind, engine="kazino"), events=[])


def test_a_scripted_move_never_raises_outside_a_lesson():
    # The check is a no-op at other tables: nothing is looked up for them.
    table = kazino_table(Game.Kind.CASUAL)
    assert lesson_play.scripted(table, 0) is None
    lesson_play.check(table, 0, {"type": "trail", "card": "AS"})


def test_engine_refuses_what_no_lesson_may_teach():
    # The replay test relies on decide refusing an illegal move.
    engine, state = _start(lessons.get("kazino"))
    with pytest.raises(IllegalAction):
        engine.decide(state, LEARNER, {"type": "trail", "card": "9H"})


@pytest.mark.django_db(transaction=True)
def test_a_finished_lesson_is_not_in_the_game_statistics():
    from games.eventlog import lengths

    from .factories import play, tiny_game

    counted, lesson = tiny_game(goal=2), tiny_game(goal=2, kind=Game.Kind.LESSON)
    for game in (counted, lesson):
        play(game, 0, 2, "win", tables.load_table(game.pk).seq)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
    assert len(lengths.measured("tiny", fresh=True)) == 1
    assert queries.finished_games() == [counted.pk]


@pytest.mark.django_db(transaction=True)
def test_a_lesson_takes_no_undo_restart_hint_pause_or_new_game_midway():
    from games.errors import Forbidden

    game = _lesson_game("kazino")
    table = tables.load_table(game.pk)
    for command in (controls.undo, controls.restart, controls.pause):
        with pytest.raises(Forbidden) as info:
            command(game.pk, f"c-{command.__name__}", table.seq, by="seat:0")
        assert info.value.code == "not_in_lesson"
    with pytest.raises(Forbidden) as info:
        queries.hint(game, LEARNER)
    assert info.value.code == "no_hint"
    with pytest.raises(ServiceError) as refused:
        controls.new_game(game.pk, "c-new", table.seq, by="seat:0")
    assert refused.value.code == "game_not_over"


def test_off_its_deal_the_script_steps_aside():
    # On another deal (a new game once the lesson's is over) the scripted move may not be legal:
    # the computer then plays as any computer, and the learner's moves are free.
    lesson = lessons.get("kazino")
    engine, state = _start(lessons.get("kazino"))
    stub = kazino_table(Game.Kind.LESSON)
    stub.engine = engine
    stub.state = engine.replay(engine.start(engine.validate_config({"players": 2, "dealer": 1}), 7))
    assert lesson_play.scripted(stub, LEARNER) is None
    stub.state = state
    assert lesson_play.scripted(stub, LEARNER) == lesson.moves(LEARNER)[0]
