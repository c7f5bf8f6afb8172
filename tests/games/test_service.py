"""The command service on the tiny engine: conflicts, idempotency, undo/redo/restart, side effects."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.commands import controls, moves
from games.commands.create import SeatSpec, create_game
from games.computers import worker
from games.computers.autoplay import play_bot_turn
from games.errors import ServiceError
from games.eventlog import queries, store, tables
from games.eventlog.tables import load_table
from games.live import publish
from games.models import Event, Game

from .factories import play, tiny_game

pytestmark = pytest.mark.django_db(transaction=True)


def seq_of(game: Game) -> int:
    return store.head(game.pk)[0]


def state_of(game: Game):
    return load_table(game.pk).state


@pytest.fixture
def effects(monkeypatch):
    """Record publications and computer-turn schedulings instead of sending them."""
    calls: dict[str, list] = {"published": [], "scheduled": []}
    monkeypatch.setattr(publish, "table_changed", lambda table: calls["published"].append(table.seq))
    monkeypatch.setattr(worker, "schedule_bot_turn", lambda *args: calls["scheduled"].append(args))
    return calls


def test_a_move_is_appended_and_changes_the_state():
    game = tiny_game()
    result = play(game, 0, 2, "m1", seq_of(game))
    assert result.last_seq == seq_of(game) and not result.duplicate
    assert state_of(game).total == 2


def test_a_stale_expected_seq_is_refused_and_appends_nothing():
    game = tiny_game()
    seq = seq_of(game)
    play(game, 0, 1, "m1", seq)
    with pytest.raises(ServiceError) as info:
        play(game, 1, 1, "m2", seq)
    assert info.value.code == "stale_seq" and info.value.status == 409
    assert seq_of(game) == seq + 1


def test_a_resent_command_appends_once_and_answers_the_same():
    game = tiny_game()
    seq = seq_of(game)
    first = play(game, 0, 2, "m1", seq)
    again = play(game, 0, 2, "m1", seq)
    assert again.duplicate and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert seq_of(game) == seq + 1 and state_of(game).total == 2


BAD_INPUT = [
    ("unknown_action", 0, {"type": "fly"}),
    ("bad_action", 0, "add"),
    ("bad_action", 0, None),
    ("bad_action", 0, ["add"]),
    ("bad_action", 0, {"type": 5}),
    ("bad_action", 0, {"n": 1}),
    ("unknown_action", 0, {"type": "table.undo"}),
    ("bad_number", 0, {"type": "add", "n": 3}),
    ("bad_number", 0, {"type": "add", "n": "1"}),
    ("bad_number", 0, {"type": "add", "n": 1, "extra": True}),
    ("not_your_turn", 1, {"type": "add", "n": 1}),
    ("not_your_seat", 2, {"type": "add", "n": 1}),
    ("not_your_seat", -1, {"type": "add", "n": 1}),
    ("not_your_seat", "0", {"type": "add", "n": 1}),
    ("not_your_seat", True, {"type": "add", "n": 1}),
]


@pytest.mark.parametrize(("code", "seat", "action"), BAD_INPUT)
def test_bad_input_gets_a_clear_code_and_appends_nothing(code, seat, action):
    game = tiny_game()
    seq = seq_of(game)
    with pytest.raises(ServiceError) as info:
        moves.submit(game.pk, seat, action, "cmd", seq)
    assert info.value.code == code
    assert info.value.text and "Traceback" not in info.value.text
    assert seq_of(game) == seq


@pytest.mark.parametrize(
    ("command_id", "expected_seq", "code"),
    [
        ("", 2, "bad_command_id"),
        ("x" * 65, 2, "bad_command_id"),
        (None, 2, "bad_command_id"),
        ("bad id!", 2, "bad_command_id"),
        ("ok", "2", "bad_seq"),
        ("ok", -1, "bad_seq"),
        ("ok", None, "bad_seq"),
    ],
)
def test_bad_command_ids_and_seqs_are_refused(command_id, expected_seq, code):
    game = tiny_game()
    with pytest.raises(ServiceError) as info:
        moves.submit(game.pk, 0, {"type": "add", "n": 1}, command_id, expected_seq)
    assert info.value.code == code


def test_an_unknown_game_is_refused():
    with pytest.raises(ServiceError) as info:
        moves.submit(987654, 0, {"type": "add", "n": 1}, "c", 1)
    assert info.value.code == "unknown_game" and info.value.status == 404


def test_an_unknown_engine_or_bad_config_creates_nothing():
    before = Game.objects.count()
    for engine, config in [
        ("chess", {}),
        ("tiny", {"players": 9}),
        ("tiny", {"players": 2, "colour": "red"}),
    ]:
        with pytest.raises(ServiceError):
            create_game(engine, config, [SeatSpec("A"), SeatSpec("B")])
    assert Game.objects.count() == before


def test_a_finished_game_refuses_moves():
    game = tiny_game(goal=2)
    play(game, 0, 2, "m1", seq_of(game))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    with pytest.raises(ServiceError) as info:
        play(game, 1, 1, "m2", seq_of(game))
    assert info.value.code == "game_over"


def test_undo_takes_back_the_human_move_and_every_computer_reply_after_it():
    game = tiny_game(bots={1: "random"})
    play(game, 0, 1, "h1", seq_of(game))
    play(game, 1, 2, "b1", seq_of(game), actor="bot:1")
    play(game, 0, 2, "h2", seq_of(game))
    play(game, 1, 1, "b2", seq_of(game), actor="bot:1")
    assert state_of(game).total == 6
    controls.undo(game.pk, "u1", seq_of(game), by="seat:0")
    assert state_of(game).total == 3 and state_of(game).turn == 0
    controls.undo(game.pk, "u2", seq_of(game), by="seat:0")
    assert state_of(game).total == 0
    with pytest.raises(ServiceError) as info:
        controls.undo(game.pk, "u3", seq_of(game), by="seat:0")
    assert info.value.code == "nothing_to_undo"


def test_redo_brings_back_what_undo_took_and_a_new_move_forgets_it():
    game = tiny_game(bots={1: "random"})
    play(game, 0, 1, "h1", seq_of(game))
    play(game, 1, 2, "b1", seq_of(game), actor="bot:1")
    controls.undo(game.pk, "u1", seq_of(game), by="seat:0")
    controls.redo(game.pk, "r1", seq_of(game), by="seat:0")
    assert state_of(game).total == 3
    controls.undo(game.pk, "u2", seq_of(game), by="seat:0")
    play(game, 0, 2, "h2", seq_of(game))
    with pytest.raises(ServiceError) as info:
        controls.redo(game.pk, "r2", seq_of(game), by="seat:0")
    assert info.value.code == "nothing_to_redo"
    assert state_of(game).total == 2


def test_nothing_is_erased_by_undo():
    game = tiny_game()
    play(game, 0, 1, "h1", seq_of(game))
    before = [(e.seq, e.hash) for e in store.load(game.pk)]
    controls.undo(game.pk, "u1", seq_of(game), by="seat:0")
    after = [(e.seq, e.hash) for e in store.load(game.pk)]
    assert after[: len(before)] == before and len(after) == len(before) + 1


def test_restart_replays_the_same_deal_and_new_game_deals_anew():
    game = tiny_game()
    opening = state_of(game)
    play(game, 0, 2, "h1", seq_of(game))
    controls.restart(game.pk, "r", seq_of(game), by="seat:0")
    assert state_of(game) == opening
    controls.new_game(game.pk, "n", seq_of(game), by="seat:0")
    fresh = state_of(game)
    assert fresh.total == 0 and fresh.seed != opening.seed
    assert load_table(game.pk).timeline.game_number == 2


def test_tournament_games_allow_no_undo_redo_or_restart():
    game = tiny_game(kind=Game.Kind.TOURNAMENT)
    play(game, 0, 1, "h1", seq_of(game))
    for command in (controls.undo, controls.redo, controls.restart, controls.new_game):
        with pytest.raises(ServiceError) as info:
            command(game.pk, "t", seq_of(game), by="seat:0")
        assert info.value.code == "not_in_tournament"


def _refused(command, game: Game, code: str, by: str = "seat:0") -> None:
    before = store.head(game.pk)
    with pytest.raises(ServiceError) as info:
        command(game.pk, f"c-{code}-{command.__name__}", seq_of(game), by=by)
    assert info.value.code == code and info.value.status == 403, (command.__name__, info.value.code)
    assert store.head(game.pk) == before, f"a refused {command.__name__} stored something"


def test_rated_games_allow_no_undo_redo_restart_or_pause_by_a_player():
    game = tiny_game(kind=Game.Kind.RATED)
    play(game, 0, 1, "h1", seq_of(game))
    for command in (controls.undo, controls.redo, controls.restart):
        _refused(command, game, "not_in_rated")
    for command in (controls.pause, controls.resume):
        _refused(command, game, "not_in_rated")
    assert not load_table(game.pk).timeline.paused


def test_a_rated_table_deals_its_next_game_only_once_the_game_is_over():
    game = tiny_game(kind=Game.Kind.RATED, goal=3)
    play(game, 0, 2, "h1", seq_of(game))
    before = store.head(game.pk)
    with pytest.raises(ServiceError) as info:  # leaving a game for a new one would throw a loss away
        controls.new_game(game.pk, "n1", seq_of(game), by="seat:1")
    assert info.value.code == "game_not_over" and store.head(game.pk) == before
    play(game, 1, 1, "h2", seq_of(game))
    assert queries.result(game.pk) is not None
    controls.new_game(game.pk, "n2", seq_of(game), by="seat:0")
    assert load_table(game.pk).timeline.game_number == 2


def test_a_seat_cannot_pause_a_tournament_table_but_its_organiser_can():
    game = tiny_game(kind=Game.Kind.TOURNAMENT)
    _refused(controls.pause, game, "organiser_only")
    controls.pause(game.pk, "o1", seq_of(game), by="user:1")  # tournaments.service checked the organiser
    assert load_table(game.pk).timeline.paused
    _refused(controls.resume, game, "organiser_only", by="seat:1")
    controls.resume(game.pk, "o2", seq_of(game), by="user:1")
    assert not load_table(game.pk).timeline.paused
    assert [e.data["by"] for e in store.load(game.pk) if e.type.startswith("table.")] == ["user:1"] * 2


@pytest.mark.parametrize("kind", [Game.Kind.RATED, Game.Kind.TOURNAMENT])
def test_the_service_gives_no_hint_in_a_game_that_counts(kind):
    game = tiny_game(kind=kind)
    with pytest.raises(ServiceError) as info:
        queries.hint(game, 0)
    assert info.value.code == "no_hint" and info.value.status == 403


def test_paused_reads_the_last_pause_or_resume_of_each_table():
    games = [tiny_game() for _ in range(3)]
    controls.pause(games[0].pk, "p", seq_of(games[0]), by="seat:0")
    controls.pause(games[1].pk, "p", seq_of(games[1]), by="seat:0")
    controls.resume(games[1].pk, "r", seq_of(games[1]), by="seat:0")
    assert queries.paused([g.pk for g in games]) == {games[0].pk}


def test_played_games_lists_every_finished_game_of_a_table_with_its_number():
    rated, casual = tiny_game(kind=Game.Kind.RATED, goal=2), tiny_game(goal=2)
    for game in (rated, casual):
        play(game, 0, 2, "g1", seq_of(game))
        controls.new_game(game.pk, "n", seq_of(game), by="seat:0")  # the next game aims at 3
        play(game, 0, 2, "g2a", seq_of(game))
        play(game, 1, 1, "g2b", seq_of(game))
    played = queries.played_games([Game.Kind.RATED])
    assert [(p.game_id, p.number) for p in played] == [(rated.pk, 1), (rated.pk, 2)]
    assert [p.outcome["places"] for p in played] == [[1, 2], [2, 1]]
    assert played[0].finished_at <= played[1].finished_at


def test_side_effects_wait_for_the_commit(effects):
    game = tiny_game(bots={1: "random"})
    effects["published"].clear()
    effects["scheduled"].clear()
    seq = seq_of(game)
    with pytest.raises(RuntimeError), transaction.atomic():
        play(game, 0, 1, "h1", seq)
        raise RuntimeError("roll it back")
    assert effects == {"published": [], "scheduled": []}
    assert seq_of(game) == seq
    play(game, 0, 1, "h1", seq)
    assert effects["published"] == [seq + 1]
    assert effects["scheduled"] == [(game.pk, seq + 1, 1)]


def test_a_paused_table_schedules_no_computer_turn(effects):
    game = tiny_game(bots={1: "random"})
    controls.pause(game.pk, "p", seq_of(game), by="seat:0")
    effects["scheduled"].clear()
    play(game, 0, 1, "h1", seq_of(game))
    assert effects["scheduled"] == []
    controls.resume(game.pk, "r", seq_of(game), by="seat:0")
    assert effects["scheduled"] == [(game.pk, seq_of(game), 1)]


def test_a_computer_turn_redelivered_appends_once():
    game = tiny_game(bots={1: "random"})
    play(game, 0, 1, "h1", seq_of(game))
    seq = seq_of(game)
    assert play_bot_turn(game.pk, seq, 1) == "played"
    after = seq_of(game)
    assert play_bot_turn(game.pk, seq, 1) == "stale"
    assert seq_of(game) == after


def test_a_computer_turn_never_plays_a_human_seat():
    game = tiny_game()
    assert play_bot_turn(game.pk, seq_of(game), 0) == "not a bot"


def test_the_inprocess_worker_plays_a_table_of_computers_to_the_end(settings):
    settings.JOBS = "inprocess"
    game = tiny_game(bots={0: "random", 1: "random"})
    assert worker.inprocess().drain(60)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    log = store.load(game.pk)
    assert {e.actor for e in log} == {"system", "bot:0", "bot:1"}


def test_new_game_asks_the_engine_for_the_next_games_config():
    game = tiny_game(goal=10)
    controls.new_game(game.pk, "n1", seq_of(game), by="seat:0")
    assert state_of(game).goal == 11
    controls.new_game(game.pk, "n2", seq_of(game), by="seat:0")
    assert state_of(game).goal == 12


def test_a_demo_table_deals_again_when_a_game_ends(settings):
    settings.JOBS = "inprocess"
    game = tiny_game(bots={0: "random", 1: "random"}, goal=3, is_demo=True)
    import time

    deadline = time.monotonic() + 30
    while load_table(game.pk).timeline.game_number < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert load_table(game.pk).timeline.game_number >= 3
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    game.is_demo = False  # stop the table so the worker goes idle before the test ends
    Game.objects.filter(pk=game.pk).update(is_demo=False)
    assert worker.inprocess().drain(30)


def test_pause_and_resume_apply_to_the_table_as_it_is_even_after_a_computer_moved():
    game = tiny_game(bots={1: "random"})
    seq = seq_of(game)
    play(game, 0, 1, "h1", seq)
    controls.pause(game.pk, "p", seq, by="seat:0")  # the page had not seen its own move yet
    assert load_table(game.pk).timeline.paused
    controls.resume(game.pk, "r", seq, by="seat:0")
    assert not load_table(game.pk).timeline.paused


def test_a_kept_fold_is_extended_and_always_equals_a_fold_from_scratch(monkeypatch):
    """load_table keeps each game's last fold; every load must equal folding the whole log again."""
    from games.eventlog import timeline as tl

    game = _cached_game()
    for _ in range(12):
        table = load_table(game.pk)
        if table.outcome() is not None:
            break
        seat = table.to_act()[0]
        action = table.engine.legal_actions(table.state, seat)[0]
        moves.submit(game.pk, seat, action, f"c{table.seq}", table.seq)
        fresh_events = store.load(game.pk)
        kept = load_table(game.pk)
        assert [e.seq for e in kept.events] == [e.seq for e in fresh_events]
        assert kept.state == kept.engine.replay(tl.fold(tables.rows(fresh_events)).engine_events())
    # A fold that does not match the stored log (another database, a rewritten test log) is not used.
    stale = tables._folds[game.pk]
    bogus = Event(game_id=game.pk, seq=stale.events[-1].seq, type="x", data={}, hash="0" * 64)
    tables._folds[game.pk] = tables._Fold(stale.version, [*stale.events[:-1], bogus], stale.timeline, None)
    assert load_table(game.pk).state == stale.state


def test_undo_refolds_the_whole_log_rather_than_extending():
    game = _cached_game()
    table = load_table(game.pk)
    seat = table.to_act()[0]
    moves.submit(game.pk, seat, table.engine.legal_actions(table.state, seat)[0], "m1", table.seq)
    controls.undo(game.pk, "u1", table.seq + 1, by=f"seat:{seat}")
    after = load_table(game.pk)
    assert after.state == table.state and after.timeline.can_redo


def _cached_game() -> Game:
    from games import engines

    config = {**engines.get("kazino").default_config(2), "match": "single"}
    return create_game("kazino", config, [SeatSpec("A"), SeatSpec("B")], seed=7)
