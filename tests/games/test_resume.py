"""Streams that resume: ``{"type": "resume", "since": SEQ}`` on the table socket answers exactly the
updates after SEQ that the audience was sent live (the spectator delay respected), or a fresh state."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.commands import controls, moves
from games.eventlog import store
from games.eventlog.tables import load_table
from games.live import resume
from games.models import Seat
from tests import tier
from tests.replay import sockets

from .factories import tiny_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_db_connections"),
]


async def connect(game_id: int, token: str = "") -> WebsocketCommunicator:
    return await sockets.connect(f"/ws/tables/{game_id}/", token=token or None)


@database_sync_to_async
def setup(delay: int = 0, goal: int = 40):
    game = tiny_game(goal=goal, spectator_delay=delay)
    return game, {s.number: s.token for s in Seat.objects.filter(game=game)}


@database_sync_to_async
def move(game_id: int, n: int = 1) -> None:
    table = load_table(game_id)
    seat = table.to_act()[0]
    moves.submit(game_id, seat, {"type": "add", "n": n}, f"m{table.seq}", table.seq)


@pytest.mark.parametrize(("delay", "audience"), [(0, 0), (0, None), (2, None)])
async def test_resume_sends_exactly_what_the_audience_was_sent_live(delay, audience):
    game, tokens = await setup(delay)
    token = tokens[audience] if audience is not None else ""
    live = await connect(game.pk, token)
    first = await live.receive_json_from()
    dropped = await connect(game.pk, token)
    state = await dropped.receive_json_from()
    await dropped.disconnect()
    sent = []
    for _ in range(5):
        await move(game.pk)
        sent.append(await live.receive_output())
    back = await connect(game.pk, token)
    await back.receive_json_from()  # the state on connect
    await back.send_json_to({"type": "resume", "since": state["seq"]})
    resumed = []
    expected = [m["text"] for m in sent if json.loads(m["text"])["seq"] > state["seq"]]
    for _ in expected:
        resumed.append(await back.receive_from())
    assert await back.receive_nothing()
    assert [json.loads(t) for t in resumed] == [json.loads(t) for t in expected]
    assert first["seq"] == state["seq"]
    for ws in (live, back):
        await ws.disconnect()


async def test_a_resume_from_too_far_back_or_ahead_gets_the_whole_state(monkeypatch):
    monkeypatch.setattr(resume, "MAX_UPDATES", 2)
    game, tokens = await setup()
    ws = await connect(game.pk, tokens[0])
    start = (await ws.receive_json_from())["seq"]
    for _ in range(3):
        await move(game.pk)
        assert (await ws.receive_json_from())["type"] == "update"
    for since, answer in ((10_000, "state"), (start, "state"), (-1, "error"), ("x", "error")):
        await ws.send_json_to({"type": "resume", "since": since})
        reply = await ws.receive_json_from()
        assert reply["type"] == answer, since
        if answer == "error":
            assert reply["code"] == "bad_request"
    await ws.disconnect()


@database_sync_to_async
def _play_and_drop(rounds: int, seed: int) -> tuple[int, int]:
    """A table played move by move; after each, a client that dropped at a random earlier update comes
    back with resume: it must get every update after that once, in order, ending at the head."""
    rng = random.Random(seed)
    game = tiny_game(goal=1000)
    seen: list[int] = [store.head(game.pk)[0]]  # the seqs a client has, oldest first
    drops = 0
    for _ in range(rounds):
        table = load_table(game.pk)
        seat = table.to_act()[0]
        moves.submit(game.pk, seat, {"type": "add", "n": 1}, f"m{table.seq}", table.seq)
        table = load_table(game.pk)
        since = rng.choice(seen[-20:])
        messages = resume.updates_after(table, seat, since)
        assert messages is not None
        seqs = [json.loads(m)["seq"] for m in messages]
        chain = [json.loads(m)["since"] for m in messages]
        assert chain == [since, *seqs[:-1]], "each update follows the one before: nothing lost"
        assert seqs == sorted(set(seqs)) and seqs[-1] == table.seq, "nothing doubled, up to the head"
        seen.append(table.seq)
        drops += 1
    return drops, store.head(game.pk)[0]


async def test_dropped_clients_lose_and_double_nothing():
    """A thousand drops in the whole run, two hundred in the inner loop (tests/tier.py)."""
    rounds = tier.count(1000, 200)
    drops, head = await _play_and_drop(rounds, seed=7)
    assert drops == rounds and head > rounds


@database_sync_to_async
def _across_a_new_game() -> tuple[list[dict], int]:
    game = tiny_game(goal=3)
    start = store.head(game.pk)[0]
    while load_table(game.pk).outcome() is None:
        table = load_table(game.pk)
        moves.submit(game.pk, table.to_act()[0], {"type": "add", "n": 1}, f"m{table.seq}", table.seq)
    seq = store.head(game.pk)[0]
    controls.new_game(game.pk, "again", seq, by="seat:0")
    table = load_table(game.pk)
    moves.submit(game.pk, table.to_act()[0], {"type": "add", "n": 1}, "g2", table.seq)
    messages = resume.updates_after(load_table(game.pk), None, start)
    assert messages is not None
    return [json.loads(m) for m in messages], seq


async def test_a_resume_across_a_new_game_keeps_the_last_moves_and_the_result_of_the_one_before():
    updates, end_of_first = await _across_a_new_game()
    numbers = [u["game_number"] for u in updates]
    assert numbers == sorted(numbers) and numbers[0] == 1 and numbers[-1] == 2
    last_of_first = next(u for u in updates if u["seq"] == end_of_first)
    assert last_of_first["finished"] and last_of_first["game_number"] == 1
    assert [u["since"] for u in updates[1:]] == [u["seq"] for u in updates[:-1]]


async def test_a_socket_action_may_leave_out_the_seq_and_the_command_id():
    game, tokens = await setup()
    ws = await connect(game.pk, tokens[0])
    await ws.receive_json_from()
    await ws.send_json_to({"type": "action", "action": {"type": "add", "n": 1}})
    reply = await ws.receive_json_from()
    while reply["type"] == "update":
        reply = await ws.receive_json_from()
    assert reply["type"] == "ack" and reply["command_id"].startswith("ws:")
    await ws.send_json_to(
        {"type": "action", "action": {"type": "add", "n": 1}, "expected_seq": None, "command_id": "x"}
    )
    refused = await ws.receive_json_from()
    while refused["type"] == "update":
        refused = await ws.receive_json_from()
    assert refused["type"] == "error" and refused["code"] == "bad_seq"
    await ws.disconnect()
