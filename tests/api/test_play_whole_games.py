"""A whole game of each of the four games through the public API only: a token, a table against a
computer, moves until the end, the result and the hand history; on SQLite, and on PostgreSQL when
DATABASE_URL names one (CI). The computer plays as in production, by the in-process worker."""

from __future__ import annotations

import json
import random
import zlib
from types import SimpleNamespace

import pytest

from games.commands import create
from games.computers import worker
from replay.export import export_game

from .helpers import Api, token_for, user

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ["skyjo", "dominoes", "kazino", "pitch"]
MAX_STEPS = 3000


def play_through(api: Api, game: str, rng: random.Random, options: dict | None = None) -> tuple[int, dict]:
    seats = [{"kind": "me"}, {"kind": "computer", "level": "greedy"}]
    made = api.post("/tables", {"game": game, "seats": seats, "options": options or {}})
    assert made.status_code == 201, made.content
    table = made.json()["table"]
    for step in range(MAX_STEPS):
        assert worker.inprocess().drain(60), "the computer's turns are played"
        state = api.get(f"/tables/{table}/state", seat=0).json()
        if state["finished"]:
            return table, state
        assert 0 in state["to_act"], state["to_act"]
        action = rng.choice(state["legal_actions"])
        # Half the moves name the seq they follow and an id; the others leave both to the server.
        body = {"action": action}
        if step % 2:
            body |= {"expected_seq": state["seq"], "command_id": f"c{step}"}
        moved = api.post(f"/tables/{table}/actions", body)
        assert moved.status_code == 200, moved.content
    raise AssertionError(f"{game}: not over after {MAX_STEPS} moves")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_through_the_public_api(settings, monkeypatch, game):
    # One deal a game, always the same: the compact history's share of the export depends on the
    # game's length (a random Pitch deal once came to 10.6 %), and the moves are drawn from a fixed seed.
    monkeypatch.setattr(create, "secrets", SimpleNamespace(randbits=lambda bits: zlib.crc32(game.encode())))
    settings.JOBS = "inprocess"
    settings.ACTION_RATE_LIMIT = "10000/5s"  # the test moves faster than a person (a bot waits on 429)
    api = Api(token_for(user()))
    table, final = play_through(api, game, random.Random(game))
    assert final["outcome"] is not None and final["legal_actions"] == []
    assert api.get(f"/tables/{table}/state").json()["outcome"] == final["outcome"], (
        "spectators see the end too"
    )
    mine = api.get(f"/tables/{table}/history", perspective="0")
    public = Api().get(f"/tables/{table}/history", perspective="public")
    for answer in (mine, public):
        assert answer.status_code == 200, answer.content
        doc = answer.json()
        assert doc["outcome"] == final["outcome"] and doc["events"] and doc["views"]
    # The compact history against the full export of the same game, same perspective.
    full = len(json.dumps(export_game(table, "public"), separators=(",", ":")))
    compact = len(public.content)
    print(f"{game}: full export {full} bytes, compact {compact} bytes ({100 * compact / full:.1f}%)")
    assert compact <= full / 10
    # Views on demand: each hand's start, or any moment by its seq, for the same perspective.
    hands = Api().get(f"/tables/{table}/history", perspective="public", views="hands").json()
    assert len(hands["views"]) >= len(hands["hands"])
    some = [h["first"] for h in hands["hands"][:3]]
    at = Api().get(
        f"/tables/{table}/history", perspective="public", views="none", at=",".join(map(str, some))
    )
    assert sorted(map(int, at.json()["views"])) == some
