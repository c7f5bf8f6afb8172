"""PostgreSQL connection lost in the middle of a submit: a clear error, nothing half-written, and the
same command sent again is stored exactly once.

Daphne (the Procfile's web command, embedded mode: computer seats in-process) reaches PostgreSQL
through a proxy in this test (pgproxy.py), which cuts the connection at the INSERT of one command:
before it reaches the server, or after the server answered (committed: a game's last move writes its
status in the same statement). The client gets ``database_unavailable`` — HTTP 503 with the API's
JSON error, or an ``error`` on the socket — never a 500, a traceback or a socket closed by an
exception; for a signed-in caller too, whose session is read in middleware before the view.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection

from games.commands.create import SeatSpec, create_game
from games.eventlog import queries, store
from games.models import Game, Seat
from tests.processes import Processes, database_url, eventually

from .conftest import check_log, server_errors
from .pgproxy import PostgresProxy

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DOWN = {"code": "database_unavailable"}


@pytest.fixture
def web(faults: Processes):  # type: ignore[no-untyped-def]
    s = connection.settings_dict
    proxy = PostgresProxy(s["HOST"] or "127.0.0.1", int(s["PORT"] or 5432))
    try:
        faults.env.update(
            # Plain TCP through the proxy, which reads the queries to cut the right one.
            DATABASE_URL=database_url("127.0.0.1", proxy.port, "sslmode=disable"),
            REDIS_URL="",
            JOBS="inprocess",
            EXTRA_ENGINES="tiny=tests.games.tiny_engine",
        )
        url = faults.start_web("web")
        faults.wait_ready(["web"])
        yield url, proxy, faults
    finally:
        proxy.close()


def table(goal: int) -> tuple[Game, str]:
    """Seat 0 for the client (it moves first), seat 1 for the computer."""
    seats = [SeatSpec("You"), SeatSpec("Computer", bot_level="random")]
    game = create_game("tiny", {"players": 2, "goal": goal}, seats)
    return game, Seat.objects.get(game=game, number=0).token


def post(url: str, game: Game, token: str, command_id: str, seq: int) -> tuple[int, dict[str, Any], str]:
    body = {"seat": 0, "action": {"type": "add", "n": 1}, "command_id": command_id, "expected_seq": seq}
    request = urllib.request.Request(
        f"{url}/api/games/{game.pk}/actions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Seat-Token": token},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:  # noqa: S310 - loopback only
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    try:
        body = json.loads(text)
    except ValueError:  # not the API's JSON: a server error page
        body = {}
    return status, body, text


def written(game: Game) -> tuple[int, str, str]:
    """What the database holds of a game: its head, the head's hash, its status."""
    game.refresh_from_db()
    return (*store.head(game.pk), game.status)


def insert_of(command_id: str) -> bytes:
    """The INSERT of a command's events (client-side binding: its id is in the query text)."""
    return rb"INSERT INTO games_event[^\x00]*'" + re.escape(command_id.encode()) + rb"'"


def assert_refused(status: int, body: dict[str, Any], text: str) -> None:
    assert status == 503, (status, text)
    assert body["error"]["code"] == "database_unavailable" and body["error"]["message"], body
    assert "Traceback" not in text and "psycopg" not in text


def test_a_submit_cut_off_before_its_insert_stores_nothing_and_its_retry_stores_it_once(web):
    url, proxy, faults = web
    game, token = table(goal=50)
    seq = store.head(game.pk)[0]
    before = written(game)

    trap = proxy.arm(insert_of("cut-1"), "before")
    assert_refused(*post(url, game, token, "cut-1", seq))
    assert trap.sprung.is_set()
    assert written(game) == before, "a refused command left something behind"

    status, body, _ = post(url, game, token, "cut-1", seq)
    assert status == 200 and body["duplicate"] is False and body["first_seq"] == seq + 1, body
    # The computer answers: the move was published and its turn scheduled after the commit.
    assert eventually(lambda: store.head(game.pk)[0] > body["seq"], timeout=10)
    log = check_log(game.pk)
    assert [e.command_id for e in log].count("cut-1") == 1
    assert server_errors(faults) == []


def test_a_submit_whose_answer_is_lost_after_the_commit_is_acknowledged_once_on_retry(web):
    url, proxy, faults = web
    game, token = table(goal=50)
    seq = store.head(game.pk)[0]

    trap = proxy.arm(insert_of("cut-2"), "after")
    assert_refused(*post(url, game, token, "cut-2", seq))
    assert trap.sprung.is_set()
    # The INSERT had committed: the command is there, whole, once, and nothing after it.
    stored = store.command_events(game.pk, "cut-2")
    assert [e.seq for e in stored] == [seq + 1] and store.head(game.pk)[0] == seq + 1
    check_log(game.pk)

    status, body, _ = post(url, game, token, "cut-2", seq)
    assert status == 200 and body["duplicate"] is True and body["first_seq"] == seq + 1, body
    # The first attempt died before its effects: the retry published it and woke the computer.
    assert eventually(lambda: store.head(game.pk)[0] > seq + 1, timeout=10), "the computer never moved"
    assert [e.command_id for e in check_log(game.pk)].count("cut-2") == 1
    assert server_errors(faults) == []


def test_a_last_move_cut_off_is_written_with_its_status_or_not_at_all(web):
    """A game's last move and the game's status are one statement (games.eventlog.store.append's ``then``: an
    INSERT and an UPDATE in one data-modifying WITH, atomic without a transaction): cut before it
    reaches the server, neither is written; cut after the server answered, both are. Either way the
    retry finishes the game once."""
    url, proxy, faults = web
    game, token = table(goal=1)  # the first move wins
    seq = store.head(game.pk)[0]
    before = written(game)

    trap = proxy.arm(insert_of("last"), "before")
    assert_refused(*post(url, game, token, "last", seq))
    assert trap.sprung.is_set()
    assert written(game) == before, "the game's events and its status must be written together"
    status, body, _ = post(url, game, token, "last", seq)
    assert status == 200 and body["duplicate"] is False, body
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and queries.result(game.pk) is not None
    check_log(game.pk)

    # The server answered (committed) and the answer was lost: the move and the status are both there.
    game, token = table(goal=1)
    seq = store.head(game.pk)[0]
    trap = proxy.arm(insert_of("last-2"), "after")
    assert_refused(*post(url, game, token, "last-2", seq))
    assert trap.sprung.is_set()
    head, _hash, state = written(game)
    assert head > seq and state == Game.Status.FINISHED, "the game's events and its status go together"
    status, body, _ = post(url, game, token, "last-2", seq)
    assert status == 200 and body["duplicate"] is True and body["first_seq"] == seq + 1, body
    assert queries.result(game.pk) is not None
    check_log(game.pk)
    assert server_errors(faults) == []


def test_the_table_socket_answers_a_lost_database_with_an_error_and_takes_the_retry(web):
    import websockets

    url, proxy, faults = web
    game, token = table(goal=50)
    seq = store.head(game.pk)[0]
    socket_url = f"{url.replace('http', 'ws', 1)}/ws/tables/{game.pk}/"
    action = {"type": "action", "action": {"type": "add", "n": 2}, "command_id": "ws-1", "expected_seq": seq}

    async def play() -> dict[str, Any]:
        async with (
            websockets.connect(socket_url, origin=url, additional_headers={"X-Seat-Token": token}) as seat,
            websockets.connect(socket_url, origin=url) as spectator,
        ):
            first = [json.loads(await seat.recv()), json.loads(await spectator.recv())]
            assert [m["type"] for m in first] == ["state", "state"]
            proxy.arm(insert_of("ws-1"), "before")
            await seat.send(json.dumps(action))
            error = json.loads(await asyncio.wait_for(seat.recv(), 20))
            quiet = await _nothing(spectator, 0.5)
            await seat.send(json.dumps(action))  # the same command again, on the same socket
            replies = [json.loads(await asyncio.wait_for(seat.recv(), 20)) for _ in range(2)]
            seen = json.loads(await asyncio.wait_for(spectator.recv(), 20))
            # The computer answers that move. Its turn reads the game too: wait for it, so that the trap
            # below catches the late socket's read and not the turn's.
            answer = json.loads(await asyncio.wait_for(spectator.recv(), 20))
            assert answer["type"] == "update", answer
            # A lost database on connect: an error first, then a close the client reconnects after.
            proxy.arm(rb'FROM "games_game"', "before")
            async with websockets.connect(socket_url, origin=url) as late:
                refused = json.loads(await asyncio.wait_for(late.recv(), 20))
                await asyncio.wait_for(late.wait_closed(), 20)
                code = late.close_code
            return {
                "error": error,
                "quiet": quiet,
                "replies": replies,
                "seen": seen,
                "refused": refused,
                "code": code,
            }

    got = asyncio.run(asyncio.wait_for(play(), 60))
    assert got["error"]["type"] == "error" and got["error"]["command_id"] == "ws-1"
    assert {k: got["error"][k] for k in DOWN} == DOWN and got["error"]["message"]
    assert got["quiet"], "a refused command was published"
    ack = next(m for m in got["replies"] if m["type"] == "ack")
    # Not a duplicate: the first attempt had stored nothing.
    assert ack["duplicate"] is False and ack["first_seq"] == seq + 1 and ack["command_id"] == "ws-1"
    assert got["seen"]["type"] == "update" and got["seen"]["seq"] >= seq + 1
    assert got["refused"]["type"] == "error" and got["refused"]["code"] == "database_unavailable"
    assert got["code"] == 4503
    assert [e.command_id for e in check_log(game.pk)].count("ws-1") == 1
    assert server_errors(faults) == []


async def _nothing(ws: Any, seconds: float) -> bool:
    """True when nothing arrives on ``ws`` for ``seconds``."""
    try:
        await asyncio.wait_for(ws.recv(), seconds)
    except TimeoutError:
        return True
    return False


def test_the_proxy_passes_everything_when_not_armed(web):
    """The cut is the only fault: through the proxy, a game plays as it does directly."""
    url, proxy, faults = web
    game, token = table(goal=50)
    for n in range(3):
        seq = store.head(game.pk)[0]
        status, body, _ = post(url, game, token, f"plain-{n}", seq)
        assert status == 200 and body["duplicate"] is False, body
        assert eventually(lambda: store.head(game.pk)[0] > body["seq"], timeout=10)  # noqa: B023
    assert len(check_log(game.pk)) >= 7 and proxy.connections >= 1
    assert server_errors(faults) == []


def test_a_signed_in_caller_gets_the_same_clear_answer(web, client, django_user_model):
    """The session and the player's saved language are read in middleware, before the view: losing
    the database there must not turn into a server error either."""
    url, proxy, faults = web
    user = django_user_model.objects.create_user("ana", password="not-used-here")
    seats = [SeatSpec("Ana", user=user), SeatSpec("Computer", bot_level="random")]
    game = create_game("tiny", {"players": 2, "goal": 50}, seats)
    client.force_login(user)  # a session in the database Daphne reads, as a browser would hold it
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    def state() -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{url}/api/games/{game.pk}/state?seat=0", headers={"Cookie": cookie}
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as response:  # noqa: S310 - loopback only
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            text = exc.read().decode()
            return exc.code, json.loads(text) if text.startswith("{") else {"page": text[:200]}

    trap = proxy.arm(rb'FROM "django_session"', "before")
    status, body = state()
    assert trap.sprung.is_set()
    assert status == 503 and body["error"]["code"] == "database_unavailable", (status, body)
    status, body = state()
    assert status == 200 and body["seat"] == 0 and body["view"]["secret"], (status, body)
    assert server_errors(faults) == []


def test_a_signed_in_socket_whose_session_cannot_be_read_is_told_to_try_again(web, client, django_user_model):
    """Channels reads a socket's session and user before the consumer: a 500 there, before the fix."""
    import websockets

    url, proxy, faults = web
    user = django_user_model.objects.create_user("ana", password="not-used-here")
    seats = [SeatSpec("Ana", user=user), SeatSpec("Computer", bot_level="random")]
    game = create_game("tiny", {"players": 2, "goal": 50}, seats)
    client.force_login(user)
    headers = {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}
    socket_url = f"{url.replace('http', 'ws', 1)}/ws/tables/{game.pk}/"

    async def connect() -> tuple[dict[str, Any], int | None]:
        async with websockets.connect(socket_url, origin=url, additional_headers=headers) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if first["type"] == "error":
                await asyncio.wait_for(ws.wait_closed(), 20)
            return first, ws.close_code

    proxy.arm(rb'FROM "django_session"', "before")
    refused, code = asyncio.run(connect())
    assert refused["type"] == "error" and refused["code"] == "database_unavailable" and code == 4503
    state, _ = asyncio.run(connect())  # the client connects again, as the page does
    assert state["type"] == "state" and state["seat"] == 0
    assert server_errors(faults) == []
