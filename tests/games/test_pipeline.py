"""The command pipeline (issue #21): a command loads its table once, appends once, and hands the table it
built to publishing and to the computer seats' scheduling; at most 4 queries per move, on PostgreSQL
and on SQLite (bin/test runs this file on both). Queries are counted as Django logs them, transaction
statements (BEGIN, COMMIT, savepoints) included; publishing goes to the in-memory layer (no query).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.db import connection

from games import engines, hooks, signals
from games.commands import controls
from games.commands.create import SeatSpec, create_game
from games.computers import autoplay, worker
from games.eventlog import store, tables
from games.eventlog.tables import load_table
from games.live import publish
from games.models import Game
from replay import frames

from .factories import play, tiny_game

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
MAX_QUERIES = 4


def head(game: Game) -> int:
    return store.head(game.pk)[0]


@pytest.fixture
def effects(monkeypatch):
    """What the after-commit hooks did: tables published, computer turns scheduled, and how many times
    the table was loaded."""
    import threading

    calls: dict[str, list] = {"published": [], "scheduled": [], "loads": []}
    real_publish, real_load = publish.table_changed, tables.load_table
    here = threading.get_ident()  # an in-process worker left by another test may load its own tables
    tables.forget_all()  # folds kept by earlier tests (of a flushed database whose ids come back)

    def published(table):
        calls["published"].append(table)
        real_publish(table)

    def load(game, upto=None):
        if threading.get_ident() == here:
            calls["loads"].append((game if isinstance(game, int) else game.pk, upto))
        return real_load(game, upto)

    monkeypatch.setattr(publish, "table_changed", published)
    monkeypatch.setattr(worker, "schedule_bot_turn", lambda *turn: calls["scheduled"].append(turn))
    monkeypatch.setattr(tables, "load_table", load)
    return calls


def test_a_human_move_is_loaded_once_and_costs_at_most_4_queries(effects, django_assert_max_num_queries):
    game = tiny_game(bots={1: "random"})
    seq = head(game)
    effects["loads"].clear()
    with django_assert_max_num_queries(MAX_QUERIES):
        play(game, 0, 1, "m1", seq)
    assert effects["loads"] == [(game.pk, None)], "one load, no second one after commit"
    (published,) = effects["published"][-1:]
    assert published.seq == seq + 1 == head(game)
    assert effects["scheduled"] == [(game.pk, seq + 1, 1)], "the next computer turn, from the same table"


def test_a_move_through_the_http_api_costs_at_most_4_queries(client, effects, django_assert_max_num_queries):
    """The API finds the game and the caller's seat (two queries), then the service's two."""
    import json

    game = tiny_game(bots={1: "random"})
    token = game.seats.get(number=0).token
    body = {"seat": 0, "action": {"type": "add", "n": 1}, "command_id": "api-1", "expected_seq": head(game)}
    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.post(
            f"/api/games/{game.pk}/actions",
            json.dumps(body),
            content_type="application/json",
            HTTP_X_SEAT_TOKEN=token,
        )
    assert response.status_code == 200, response.content
    assert effects["scheduled"] == [(game.pk, head(game), 1)]


def test_a_computer_move_is_loaded_once_and_costs_at_most_4_queries(effects, django_assert_max_num_queries):
    game = tiny_game(bots={0: "random", 1: "random"})
    seq = head(game)
    effects["loads"].clear()
    effects["scheduled"].clear()
    with django_assert_max_num_queries(MAX_QUERIES):
        assert autoplay.play_bot_turn(game.pk, seq, 0) == "played"
    assert effects["loads"] == [(game.pk, None)]
    assert effects["published"][-1].seq == seq + 1
    assert effects["scheduled"] == [(game.pk, seq + 1, 1)]


@pytest.mark.parametrize("command", ["pause", "resume", "undo", "redo", "restart", "new_game"])
def test_a_table_command_costs_at_most_4_queries(effects, django_assert_max_num_queries, command):
    game = tiny_game(bots={1: "random"})
    play(game, 0, 1, "m1", head(game))
    if command == "resume":
        controls.pause(game.pk, "p0", head(game), by="seat:0")
    if command == "redo":
        controls.undo(game.pk, "u0", head(game), by="seat:0")
    seq = head(game)
    effects["loads"].clear()
    with django_assert_max_num_queries(MAX_QUERIES):
        getattr(controls, command)(game.pk, f"{command}-1", seq, by="seat:0")
    assert effects["loads"] == [(game.pk, None)]
    assert effects["published"][-1].seq == head(game) > seq


def test_the_move_that_ends_a_game_writes_its_status_with_it(
    effects, django_assert_max_num_queries, monkeypatch
):
    """PostgreSQL: the INSERT and the status UPDATE in one statement; SQLite: in one transaction (BEGIN,
    INSERT, UPDATE, COMMIT), one statement more than other moves. (What the other parts do when they
    hear of the game's end, ``signals.game_finished``, is theirs: not counted here.)"""
    finished: list[dict] = []
    monkeypatch.setattr(signals.game_finished, "send_robust", lambda **kwargs: finished.append(kwargs) or [])
    game = tiny_game(goal=2)
    seq = head(game)
    with django_assert_max_num_queries(MAX_QUERIES if connection.vendor == "postgresql" else MAX_QUERIES + 1):
        play(game, 0, 2, "last", seq)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert effects["published"][-1].outcome() is not None
    assert [(f["game_id"], f["number"]) for f in finished] == [(game.pk, 1)]


def test_a_cold_process_reads_the_whole_log_in_the_same_query(effects, django_assert_max_num_queries):
    """No kept fold (a restarted worker): the game row and the whole log in one query, the seats' levels
    in one more (then kept)."""
    game = tiny_game(bots={0: "random", 1: "random"})
    seq = head(game)
    tables.forget_all()
    with django_assert_max_num_queries(MAX_QUERIES):
        assert autoplay.play_bot_turn(game.pk, seq, 0) == "played"
    with django_assert_max_num_queries(2):
        assert autoplay.play_bot_turn(game.pk, seq + 1, 1) == "played"


def test_a_retried_command_costs_one_query_and_publishes_again(effects, django_assert_max_num_queries):
    game = tiny_game()
    seq = head(game)
    play(game, 0, 1, "m1", seq)
    effects["published"].clear()
    with django_assert_max_num_queries(1):
        again = play(game, 0, 1, "m1", seq)
    assert again.duplicate and head(game) == seq + 1
    assert [t.seq for t in effects["published"]] == [seq + 1]


def test_a_kazino_move_with_its_fair_deal_proof_costs_at_most_4_queries(
    effects, django_assert_max_num_queries, monkeypatch
):
    monkeypatch.setattr(signals.game_finished, "send_robust", lambda **kwargs: [])
    config = {**engines.get("kazino").default_config(2), "match": "single"}
    seats = [SeatSpec("G1", bot_level="greedy"), SeatSpec("G2", bot_level="greedy")]
    game = create_game("kazino", config, seats, seed=21)
    for _ in range(30):
        table = load_table(game.pk)
        if table.outcome() is not None:
            break
        seat = table.to_act()[0]
        limit = MAX_QUERIES if connection.vendor == "postgresql" else MAX_QUERIES + 1
        with django_assert_max_num_queries(limit):
            assert autoplay.play_bot_turn(game.pk, table.seq, seat) == "played"
    assert store.verify_chain(game.pk, store.load(game.pk)) is None


def test_the_kept_fold_after_a_command_equals_a_fold_from_scratch():
    game = tiny_game(bots={1: "random"})
    play(game, 0, 1, "m1", head(game))
    controls.undo(game.pk, "u1", head(game), by="seat:0")
    play(game, 0, 2, "m2", head(game))
    kept = tables.load_table(game.pk)
    tables.forget_all()
    fresh = tables.load_table(game.pk)
    assert [e.hash for e in kept.events] == [e.hash for e in fresh.events]
    assert kept.state == fresh.state and kept.timeline == fresh.timeline


def test_invalidate_forgets_the_kept_fold_and_the_seats(django_assert_num_queries):
    game = tiny_game(bots={1: "random"})
    assert tables.load_table(game.pk).computer_levels() == ("", "random")
    game.seats.filter(number=1).update(bot_level="strong")
    with django_assert_num_queries(1):
        assert tables.load_table(game.pk).computer_levels() == ("", "random"), "kept with the fold"
    tables.invalidate(game.pk)
    with django_assert_num_queries(2):
        assert tables.load_table(game.pk).computer_levels() == ("", "strong")


def test_hooks_run_in_order_and_one_failing_does_not_stop_the_others(monkeypatch):
    seen: list[str] = []
    monkeypatch.setattr(hooks, "_hooks", {})
    hooks.register("second", lambda change: seen.append("second"), order=2)
    hooks.register("broken", lambda change: 1 / 0, order=1)
    hooks.register("first", lambda change: seen.append("first"), order=0)
    game = tiny_game()
    seen.clear()  # the opening's
    play(game, 0, 1, "m1", head(game))
    assert seen == ["first", "second"]


def test_a_replay_is_folded_once_per_head_and_shared(django_assert_max_num_queries):
    game = tiny_game(goal=30)
    for n in range(4):
        play(game, n % 2, 1, f"m{n}", head(game))
    first = frames.load(game.pk)
    with django_assert_max_num_queries(2):  # the table (kept fold) and the seats
        second = frames.load(game.pk)
    assert second.moments is first.moments and second.states is first.states, "one fold for every viewer"
    play(game, 0, 2, "m4", head(game))
    extended = frames.load(game.pk)
    assert extended.moments[: len(first.moments)] == first.moments
    frames.forget_all()
    fresh = frames.load(game.pk)
    assert fresh.moments == extended.moments and fresh.states == extended.states


def test_what_spectators_see_is_read_from_the_end_of_the_log_as_from_the_whole():
    """tables.moves_back and previous_end walk back from the end; they agree with the definitions on
    the list of every command's end."""
    import random

    from games.models import Event

    rng = random.Random(5)
    for _ in range(300):
        events, seq = [], 0
        for command in range(rng.randint(0, 8)):
            for _ in range(rng.randint(1, 3)):
                seq += 1
                events.append(Event(seq=seq, command_id=f"c{command}"))
        ends = tables.command_ends(events)
        assert tables.previous_end(events) == (ends[-2] if len(ends) > 1 else 0)
        for delay in range(5):
            expected = (ends[-1 - delay] if len(ends) > delay else ends[0]) if ends else 0
            assert tables.moves_back(events, delay) == expected
            for upto in range(len(events) + 1):
                part = tables.command_ends(events[:upto])
                want = (part[-1 - delay] if len(part) > delay else part[0]) if part else 0
                assert tables.moves_back(events, delay, upto=upto) == want


PIPELINE = (
    "commands.runner",
    "commands.create",
    "commands.moves",
    "commands.controls",
    "commands.resignation",
    "commands.deals",
    "eventlog.tables",
    "hooks",
    "live.publish",
    "computers.worker",
    "background.jobs",
    "background.dueturns",
    "background.broker",
    "tasks",
    "computers.autoplay",
    "eventlog.store",
)
COMMANDS = [module for module in PIPELINE if module.startswith("commands.")]


def _imports(module: str) -> set[str]:
    """The pipeline modules ``games.<module>`` imports, anywhere in it (lazy imports included)."""
    tree = ast.parse((ROOT / "games" / f"{module.replace('.', '/')}.py").read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            inner = name.partition(".")[2] if name.startswith("games.") else ""
            if inner in PIPELINE and inner != module:
                found.add(inner)
    return found


def test_the_pipeline_modules_import_each_other_one_way():
    graph = {module: _imports(module) for module in PIPELINE}
    for command in COMMANDS:
        assert "live.publish" not in graph[command] and "computers.worker" not in graph[command], command
        # Every command module runs through the runner; none imports a sibling.
        assert graph[command] & set(COMMANDS) <= {"commands.runner"}, command
    # Jobs are named, not imported.
    assert "tasks" not in graph["computers.worker"] and "tasks" not in graph["background.jobs"]
    assert (
        "computers.worker" not in graph["background.dueturns"]
        and not set(COMMANDS) & graph["background.dueturns"]
    )
    order: list[str] = []
    visiting: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in order:
            return
        assert module not in visiting, f"import circle: {' -> '.join([*path, module])}"
        visiting.add(module)
        for imported in sorted(graph[module]):
            visit(imported, [*path, module])
        visiting.discard(module)
        order.append(module)

    for module in PIPELINE:
        visit(module, [])


@pytest.mark.redis
def test_publishing_asks_channels_redis_which_groups_have_a_member():
    """games.live.publish reads channels-redis's group sets (a private part of it: an upgrade that moves them
    makes publishing send every audience again, which this notices)."""
    import os
    import uuid

    from asgiref.sync import async_to_sync
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"test-{uuid.uuid4().hex[:8]}")
    listened, empty = f"table-{uuid.uuid4().hex}-public", f"table-{uuid.uuid4().hex}-seat-0"

    async def ask() -> set[str] | None:
        channel = await layer.new_channel()
        await layer.group_add(listened, channel)
        try:
            return await publish._listened(layer, [listened, empty])
        finally:
            await layer.group_discard(listened, channel)
            await layer.flush()

    assert async_to_sync(ask)() == {listened}
