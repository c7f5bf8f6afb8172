"""#37 item 9, the API's rough edges as an outside developer met them: an empty body on join/register,
a JSON body that is no object, options.players contradicting the seats, a rated table's maker choosing
who leads, 429 with no reason phrase, 413 missing from the error table, the bot example's imports, and
the stream that never closed after the end."""

from __future__ import annotations

import ast
import asyncio
import builtins
import json
import re
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import AsyncClient

from games.eventlog import store
from games.models import Game
from infra.reasons import name_statuses
from tests.games.factories import play, tiny_game

from .helpers import Api, token_for, user

pytestmark = pytest.mark.django_db
DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"
TINY = {"game": "tiny", "options": {"goal": 50}, "seats": [{"kind": "me"}, {"kind": "open"}]}


def test_join_and_register_take_an_empty_body():
    ada, bob = Api(token_for(user("ada"))), Api(token_for(user("bob")))
    game_id = ada.post("/tables", TINY).json()["table"]
    joined = bob.post(f"/tables/{game_id}/join", b"")
    assert joined.status_code == 200, joined.content
    from tournaments import service as tournaments

    cup = tournaments.create("Cup", "kazino", "swiss", {}, by=user("org"))
    registered = ada.post(f"/tournaments/{cup.pk}/register", b"")
    assert registered.status_code == 200, registered.content


@pytest.mark.parametrize("body", ["[1, 2]", "null", "3", '"text"'])
def test_a_json_body_that_is_not_an_object_is_bad_json(body):
    ada = Api(token_for(user("ada")))
    game_id = ada.post("/tables", TINY).json()["table"]
    for path in (f"/tables/{game_id}/actions", "/tables", f"/tables/{game_id}/join"):
        answer = ada.post(path, body)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_json", (
            path,
            answer.content,
        )


def test_options_players_must_agree_with_the_seats():
    ada = Api(token_for(user("ada")))
    answer = ada.post("/tables", {**TINY, "options": {"goal": 50, "players": 3}})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "wrong_seat_count"
    assert ada.post("/tables", {**TINY, "options": {"goal": 50, "players": 2}}).status_code == 201


@pytest.mark.parametrize(("game", "option"), [("dominoes", {"first": 1}), ("pitch", {"dealer": 1})])
def test_a_rated_tables_maker_does_not_choose_who_starts(game, option):
    ada = Api(token_for(user("ada")))
    seats = [{"kind": "me"}, {"kind": "computer", "level": "random"}]
    rated = ada.post("/tables", {"game": game, "seats": seats, "options": option, "kind": "rated"})
    assert rated.status_code == 400 and rated.json()["error"]["code"] == "not_in_rated"
    assert not Game.objects.exists()
    assert ada.post("/tables", {"game": game, "seats": seats, "options": option}).status_code == 201


def test_every_status_the_site_sends_has_its_reason_phrase_under_daphne():
    from twisted.web import http

    name_statuses()
    assert http.RESPONSES[429] == b"Too Many Requests"
    assert http.RESPONSES[413] and http.RESPONSES[503]


def test_the_error_table_names_413_and_the_bot_example_imports_what_it_uses():
    text = DOCS.read_text()
    assert "| `too_large` | 413 |" in text
    block = re.search(r"## Write a bot.*?```python\n(.*?)```", text, re.S)
    assert block is not None
    tree = ast.parse(block.group(1))
    bound = {
        a.asname or a.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    bound |= {
        t.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    bound |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.name}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    assert used - bound - set(dir(builtins)) == set()


@database_sync_to_async
def _move(game: Game, seat: int, n: int, command_id: str) -> None:
    play(game, seat, n, command_id, store.head(game.pk)[0])


async def _lines_of(game: Game) -> list[dict[str, Any]]:
    response = await AsyncClient().get(f"/api/v1/tables/{game.pk}/stream")
    out = []
    async for line in response.streaming_content:
        text = line.decode() if isinstance(line, bytes) else line
        if text.strip():
            out.append(json.loads(text))
    return out


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_stream_ends_after_the_games_last_line():
    game = await database_sync_to_async(tiny_game)(goal=2)
    # Opened before or after the last move, the stream ends with the line that says so (it hung).
    reading = asyncio.ensure_future(_lines_of(game))
    await _move(game, 0, 2, "win")
    lines = await asyncio.wait_for(reading, 30)
    assert lines[-1]["finished"] and lines[-1]["outcome"] is not None
    # Opened on a finished game: the state, then the end.
    again = await asyncio.wait_for(_lines_of(game), 30)
    assert len(again) == 1 and again[0]["type"] == "state" and again[0]["finished"]
    await database_sync_to_async(connections.close_all)()


def test_the_organiser_reads_every_hand_of_their_own_tournaments_game():
    from games.access import tokens
    from games.commands import moves
    from tournaments import service as tournaments
    from tournaments.models import Match, MatchGame

    organiser, stranger = user("org"), user("eve")
    cup = tournaments.create("Cup", "kazino", "swiss", {}, by=organiser)
    game = tiny_game(goal=2, kind=Game.Kind.TOURNAMENT)  # made by the tournament, not by its organiser
    moves.submit(game.pk, 0, {"type": "add", "n": 2}, "win", store.head(game.pk)[0])
    match = Match.objects.create(tournament=cup, round=1, key="R1-T1", entrants=[1, 2])
    MatchGame.objects.create(match=match, game_id=game.pk, number=1)
    path = f"/tables/{game.pk}/history"
    mine = Api(tokens.create(organiser, "org", ["organise"])[1]).get(path, perspective="all")
    assert mine.status_code == 200, mine.content
    theirs = Api(tokens.create(stranger, "eve", ["organise"])[1]).get(path, perspective="all")
    assert theirs.status_code == 403 and theirs.json()["error"]["code"] == "not_organiser"


def test_finished_tournaments_have_a_route_and_a_round_robin_announces_its_rounds():
    from tournaments import service as tournaments
    from tournaments import simulate
    from tournaments.models import Tournament

    robin = simulate.setup("kazino", "round_robin", 4, {"game_config": {"match": "single"}}, "random")
    tournaments.start(robin)
    running = Api().get("/tournaments", status="running").json()
    assert [(t["id"], t["planned_rounds"]) for t in running] == [(robin.pk, 3)]
    assert Api().get(f"/tournaments/{robin.pk}").json()["planned_rounds"] == 3
    done = tournaments.create("Done Cup", "kazino", "swiss", {}, by=user("org"))
    Tournament.objects.filter(pk=done.pk).update(status="finished")  # as its projection writes it at the end
    finished = Api().get("/tournaments").json()
    assert [t["id"] for t in finished] == [done.pk]
    for page, limit in (("0", "20"), ("1", "101"), ("²", "5"), ("1", "-1")):
        refused = Api().get("/tournaments", page=page, limit=limit)
        assert refused.status_code == 400, (page, limit)


def test_a_player_finds_their_own_tournament_table():
    from tournaments import service as tournaments

    organiser, ada = user("org"), user("ada")
    cup = tournaments.create("Cup", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    api = Api(token_for(ada, ("read",)))
    assert api.get(f"/tournaments/{cup.pk}/my-table").json()["error"]["code"] == "no_table"
    tournaments.register(cup, "ada", user=ada, by=organiser)
    tournaments.register(cup, "", bot_level="random", by=organiser)
    tournaments.seed(cup, "manual", [1, 2], by=organiser)
    tournaments.start(cup, by=organiser)
    found = api.get(f"/tournaments/{cup.pk}/my-table")
    assert found.status_code == 200, found.content
    table, seat = found.json()["table"], found.json()["seat"]
    state = api.get(f"/tables/{table}/state", seat=seat)
    assert state.status_code == 200 and state.json()["seat"] == seat
    assert Api().get(f"/tournaments/{cup.pk}/my-table").json()["error"]["code"] == "sign_in"
