"""The event store, same assertions on SQLite and PostgreSQL (whichever DATABASE_URL names).

The README's test command runs this file on both: once in the main pass, once with TEST_PASS=sqlite.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, IntegrityError, connection, connections, transaction

from games.errors import Conflict
from games.eventlog import store
from games.models import AppendOnlyError, Event

from .factories import tiny_game

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 120.0  # seconds a thread may take to reach its step: only a bound for a failing test


def event(n: int) -> list[dict]:
    return [{"type": "added", "n": n}]


def test_appends_number_events_gaplessly_and_chain_them():
    game = tiny_game()
    opening = store.load(game.pk)
    first = store.append(game.pk, len(opening), event(1), command_id="a", actor="seat:0")
    second = store.append(game.pk, first.last_seq, event(2) + event(1), command_id="b", actor="seat:1")
    log = store.load(game.pk)
    assert [e.seq for e in log] == list(range(1, len(opening) + 4))
    assert second.first_seq == first.last_seq + 1 and second.last_seq == first.last_seq + 2
    assert store.verify_chain(game.pk, log) is None
    assert log[-1].hash == store.event_hash(log[-2].hash, log[-1])


def test_a_stale_expected_seq_is_a_conflict_and_appends_nothing():
    game = tiny_game()
    seq = store.head(game.pk)[0]
    store.append(game.pk, seq, event(1), command_id="a", actor="seat:0")
    with pytest.raises(Conflict) as info:
        store.append(game.pk, seq, event(2), command_id="b", actor="seat:1")
    assert info.value.code == "stale_seq" and info.value.actual_seq == seq + 1
    assert store.head(game.pk)[0] == seq + 1


def test_a_retried_command_appends_once_and_returns_the_first_result():
    game = tiny_game()
    seq = store.head(game.pk)[0]
    first = store.append(game.pk, seq, event(1) + event(2), command_id="same", actor="seat:0")
    again = store.append(game.pk, seq, event(1) + event(2), command_id="same", actor="seat:0")
    other_seq = store.append(game.pk, first.last_seq, event(2), command_id="same", actor="seat:0")
    assert not first.duplicate and again.duplicate and other_seq.duplicate
    assert [e.pk for e in again.events] == [e.pk for e in first.events] == [e.pk for e in other_seq.events]
    assert store.head(game.pk)[0] == seq + 2


def test_the_same_command_id_in_another_game_is_a_new_command():
    one, two = tiny_game(), tiny_game()
    store.append(one.pk, store.head(one.pk)[0], event(1), command_id="c", actor="seat:0")
    result = store.append(two.pk, store.head(two.pk)[0], event(1), command_id="c", actor="seat:0")
    assert not result.duplicate


def test_sixteen_threads_racing_lose_nothing_and_double_nothing():
    games = [tiny_game(goal=1000) for _ in range(3)]
    per_thread = 12
    errors: list[BaseException] = []
    barrier = threading.Barrier(16)

    def writer(tid: int) -> None:
        try:
            barrier.wait()
            for k in range(per_thread):
                game = games[(tid + k) % len(games)]
                while True:
                    seq = store.head(game.pk)[0]
                    try:
                        store.append(
                            game.pk, seq, event(1), command_id=f"t{tid}-{k}", actor=f"seat:{tid % 2}"
                        )
                        break
                    except Conflict:
                        continue
                    except DatabaseError:  # SQLite may give up on the lock under heavy contention
                        continue
        except BaseException as exc:  # surfaced below: a thread must not die silently
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    total = 0
    for game in games:
        log = store.load(game.pk)
        assert [e.seq for e in log] == list(range(1, len(log) + 1)), "a gap or a double in seq"
        assert store.verify_chain(game.pk, log) is None
        commands = [e.command_id for e in log if e.command_id != "opening"]
        assert len(commands) == len(set(commands)), "a command was appended twice"
        total += len(commands)
    assert total == 16 * per_thread, "an append was lost"


def test_the_model_refuses_to_update_or_delete_events():
    game = tiny_game()
    stored = store.load(game.pk)[0]
    stored.type = "edited"
    with pytest.raises(AppendOnlyError):
        stored.save()
    with pytest.raises(AppendOnlyError):
        stored.delete()
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=game).update(type="x")
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=game).delete()


@pytest.mark.parametrize(
    "sql",
    ["UPDATE games_event SET type = 'edited'", "DELETE FROM games_event"],
)
def test_the_database_refuses_raw_update_and_delete(sql):
    game = tiny_game()
    before = [(e.seq, e.type) for e in store.load(game.pk)]
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert [(e.seq, e.type) for e in store.load(game.pk)] == before


@pytest.mark.postgres
def test_postgres_refuses_truncate():
    game = tiny_game()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE games_event CASCADE")
    assert store.load(game.pk)


def test_deleting_a_game_with_events_is_refused():
    game = tiny_game()
    with pytest.raises((IntegrityError, DatabaseError, Exception)):
        game.delete()
    assert store.load(game.pk)


def test_verify_events_names_an_event_edited_behind_the_triggers_back(capsys):
    game = tiny_game()
    store.append(game.pk, store.head(game.pk)[0], event(2), command_id="a", actor="seat:0")
    target = store.load(game.pk)[-1]
    call_command("verify_events")
    with store.allow_rewrite(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET data = %s WHERE id = %s", ['{"n": 1}', target.pk])
    with pytest.raises(CommandError) as info:
        call_command("verify_events")
    assert f"game {game.pk} event {target.seq}" in str(info.value)


def test_verify_events_catches_an_event_the_engine_cannot_replay():
    game = tiny_game()
    # A well-chained event that the engine cannot fold: the chain is fine, the replay is not.
    store.append(game.pk, store.head(game.pk)[0], [{"type": "teleported"}], command_id="x", actor="seat:0")
    with pytest.raises(CommandError) as info:
        call_command("verify_events", game=game.pk)
    assert "cannot replay" in str(info.value)


def test_subscribers_read_every_event_once_in_order():
    games = [tiny_game() for _ in range(3)]
    for i, game in enumerate(games):
        store.append(game.pk, store.head(game.pk)[0], event(1), command_id=f"c{i}", actor="seat:0")
    wanted = sorted(Event.objects.values_list("pk", flat=True))
    seen: list[int] = []
    position = store.START
    deadline = time.monotonic() + WAIT
    # A transaction running anywhere in the PostgreSQL cluster (a parallel test worker's, in its own
    # database) holds the readable horizon back while it runs: read on until everything has come.
    while sorted(seen) != wanted and time.monotonic() < deadline:
        batch = store.read_all(position, limit=2)
        if not batch:
            time.sleep(0.05)
            continue
        seen += [e.pk for _, e in batch]
        position = batch[-1][0]
    assert sorted(seen) == wanted
    assert len(seen) == len(set(seen))


@pytest.mark.postgres
def test_subscribers_never_skip_an_event_that_commits_late():
    game = tiny_game(goal=1000)
    position = store.START
    for pos, _ in store.read_all(position):
        position = pos
    slow_started, fast_done, slow_may_commit = threading.Event(), threading.Event(), threading.Event()

    def slow() -> None:
        try:
            with transaction.atomic():
                seq = store.head(game.pk)[0]
                store.append(game.pk, seq, event(1), command_id="slow", actor="seat:0")
                slow_started.set()
                slow_may_commit.wait(WAIT)
        finally:
            connections.close_all()

    other = tiny_game()
    thread = threading.Thread(target=slow)
    thread.start()
    assert slow_started.wait(WAIT), "the slow transaction never began"
    store.append(other.pk, store.head(other.pk)[0], event(1), command_id="fast", actor="seat:0")
    fast_done.set()
    early = store.read_all(position)
    assert all(e.command_id != "slow" for _, e in early)
    assert all(e.command_id != "fast" for _, e in early), "read past a transaction still in flight"
    slow_may_commit.set()
    thread.join(WAIT)
    assert not thread.is_alive(), "the slow transaction never committed"
    late: list[str | None] = []
    deadline = time.monotonic() + WAIT
    while not ("slow" in late and "fast" in late) and time.monotonic() < deadline:
        time.sleep(0.05)  # the horizon may be held back by another worker's transaction (above)
        late = [e.command_id for _, e in store.read_all(position)]
    assert "slow" in late and "fast" in late


def test_an_append_that_trusts_a_head_still_cannot_leave_a_gap_or_fork():
    game = tiny_game()
    seq, last_hash = store.head(game.pk)
    with pytest.raises(Conflict):  # a future seq: the gapless trigger refuses it
        store.append(game.pk, seq + 3, event(1), command_id="ahead", actor="seat:0", head_hash=last_hash)
    store.append(game.pk, seq, event(1), command_id="a", actor="seat:0", head_hash=last_hash)
    with pytest.raises(Conflict):  # a stale seq: the unique (game, seq) constraint refuses it
        store.append(game.pk, seq, event(2), command_id="b", actor="seat:0", head_hash=last_hash)
    log = store.load(game.pk)
    assert [e.seq for e in log] == list(range(1, seq + 2))
    assert store.verify_chain(game.pk, log) is None


def test_the_database_refuses_a_raw_insert_that_leaves_a_gap():
    game = tiny_game()
    seq = store.head(game.pk)[0]
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO games_event (game_id, seq, type, data, actor, command_id, cmd_index, created_at,"
            " schema_version, hash) VALUES (%s, %s, 'x', '{}', 'a', 'gap', 0, %s, 1, 'h')",
            [game.pk, seq + 2, "2026-01-01T00:00:00Z"],
        )
