"""A table dealt a duplicate deal not released yet is not there for anyone who may not see it (#37).

Game ids are sequential, so a best-of-3's third game could be found by asking for the next ids: that
it exists tells that the match stood 1–1 after two games, before their results are out. Until the
deal is released, such a table is its seated players', the organiser's and staff's only
(``games.access.seats.may_see``); anyone else — signed out, a stranger, a player of the other table — gets, on
every path that names a table, exactly the answer an id no table has gets. Once released, it is
public as any table.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import AsyncClient, Client

from games.access import tokens
from games.commands import resignation
from games.errors import NotFound
from games.models import Game
from infra.edge.tables import read_state
from tests.replay.sockets import app, session_of
from tournaments import projection, service
from tournaments.commands import registration
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

OUTSIDERS = ("anonymous", "stranger", "other_table")
INSIDERS = ("player", "organiser", "staff")


@dataclass
class Cup:
    row: Tournament
    fast: str  # the table that went to a third game
    users: dict[str, Any]  # role -> user (anonymous: None)


def games_of(row: Tournament, key: str) -> list[Any]:
    return projection.load(row.stream_id).table(key).games


def resign_entrant(row: Tournament, key: str, entrant: int) -> None:
    """The entrant gives up the table's current game (its side last: the other wins it)."""
    game = games_of(row, key)[-1]
    seat = game.seats.index(entrant)
    resignation.resign(game.game_id, f"resign-{game.game_id}", by=f"seat:{seat}")


def cup_at_a_third_game() -> Cup:
    """A duplicate best-of-3 of four players: the fast table is 1–1 and plays its third game while
    the slow one has not finished its first, so every deal of the round is still secret."""
    users = get_user_model().objects
    organiser = users.create_user("organiser")
    options = {"duplicate": True, "best_of": 3, "rounds": 1, "game_config": {"match": "single"}}
    row = registration.create("Secret cup", "kazino", "swiss", options, by=organiser, secret=37)
    players = [users.create_user(f"player{n}") for n in range(4)]
    for n, user in enumerate(players):
        registration.register(row, user.username, user=user, command_id=f"register-{n}")
    registration.seed(row, "random")
    service.start(row)
    fast, slow = sorted(t.key for t in projection.load(row.stream_id).rounds[-1].tables)
    first, second = games_of(row, fast)[0].seats
    resign_entrant(row, fast, first)
    resign_entrant(row, fast, second)  # 1–1: a third game
    assert len(games_of(row, fast)) == 3
    entrants = {e.id: e.user_id for e in projection.load(row.stream_id).entrants.values()}
    by_id = {u.pk: u for u in players}
    return Cup(
        row,
        fast,
        {
            "anonymous": None,
            "stranger": users.create_user("stranger"),
            "other_table": by_id[entrants[games_of(row, slow)[0].seats[0]]],
            "player": by_id[entrants[first]],
            "organiser": organiser,
            "staff": users.create_user("staff", is_staff=True),
            "_slow": slow,
        },
    )


# --- the answers, made comparable -------------------------------------------------------------------

_CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"csrf": ?"|csrf-token" content=")[^"]*')


def same_text(text: str, game_id: int | str) -> str:
    """An answer with its own id and its per-request CSRF token written the same way for any id."""
    return _CSRF.sub(r"\1CSRF", text).replace(str(game_id), "ID")


def http(client: Client, method: str, path: str, game_id: int, **extra: Any) -> tuple[Any, ...]:
    """Status, headers (a ``Vary: Cookie`` would tell that the session was read) and body."""
    response = getattr(client, method)(path.format(id=game_id), **extra)
    body = response.content.decode() if not response.streaming else ""
    headers = sorted((k, same_text(v, game_id)) for k, v in response.headers.items() if k != "Content-Length")
    cookies = sorted(response.cookies)  # which cookies are set, not their fresh values
    return response.status_code, headers, cookies, same_text(body, game_id)


async def _stream(game_id: int, headers: dict[str, str]) -> tuple[int, str, str]:
    response = await AsyncClient().get(f"/api/v1/tables/{game_id}/stream", headers=headers)
    if response.streaming:
        await response.streaming_content.aclose()
        return response.status_code, response["Content-Type"], "a stream"
    return response.status_code, response["Content-Type"], same_text(response.content.decode(), game_id)


async def _socket(path: str, game_id: int | str, session: str | None) -> list[Any]:
    """What a socket gets: refused (closed, with what it was told), or its first picture."""
    headers = [(b"cookie", f"sessionid={session}".encode())] if session else []
    ws = WebsocketCommunicator(app, path.format(id=game_id), headers=headers)
    connected, code = await ws.connect()
    seen: list[Any] = [connected, code]
    while connected:
        output = await ws.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            seen.append(("closed", output.get("code")))
            break
        message = json.loads(output["text"])
        if message["type"] in ("state", "ready"):
            seen.append(message["type"])
            await ws.disconnect()
            break
        seen.append(same_text(output["text"], game_id))
    await database_sync_to_async(connections.close_all)()
    return seen


def answers(cup: Cup, role: str, live: int, finished: int) -> dict[str, Any]:
    """What ``role`` gets on every path that names a table: ``live`` for a table being played,
    ``finished`` for a finished game (the hand history and the review read only those)."""
    user = cup.users[role]
    client = Client()
    api: dict[str, str] = {}
    session = None
    if user is not None:
        client.force_login(user)
        api = {"HTTP_AUTHORIZATION": "Bearer " + tokens.create(user, "t", ["read", "play", "organise"])[1]}
        session = async_to_sync(session_of)(user)
    async_headers = {"Authorization": api["HTTP_AUTHORIZATION"]} if api else {}
    got: dict[str, Any] = {
        "table page": http(client, "get", "/tables/{id}/", live),
        "hint": http(client, "get", "/tables/{id}/hint?seat=0", live),
        "invite": http(client, "get", "/tables/{id}/invite/no-such-code/", live),
        "invite claim": http(client, "post", "/tables/{id}/invite/no-such-code/", live),
        "take a seat": http(client, "post", "/tables/{id}/take/", live),
        "old invite": http(client, "get", "/tables/{id}/join/old-token/", live),
        "api state": http(client, "get", "/api/games/{id}/state", live),
        "api action": http(client, "post", "/api/games/{id}/actions", live, data="{}", content_type="x"),
        "v1 state": http(client, "get", "/api/v1/tables/{id}/state", live, **api),
        "v1 seat state": http(client, "get", "/api/v1/tables/{id}/state?seat=0", live, **api),
        "v1 updates": http(client, "get", "/api/v1/tables/{id}/updates?since=0", live, **api),
        "v1 stream": async_to_sync(_stream)(live, async_headers),
        "v1 actions": http(
            client,
            "post",
            "/api/v1/tables/{id}/actions",
            live,
            data="{}",
            content_type="application/json",
            **api,
        ),
        "v1 resign": http(client, "post", "/api/v1/tables/{id}/resign", live, **api),
        "v1 claim": http(client, "post", "/api/v1/tables/{id}/claim", live, **api),
        "v1 join": http(client, "post", "/api/v1/tables/{id}/join", live, **api),
        "v1 history of a live game": http(client, "get", "/api/v1/tables/{id}/history", live, **api),
        "v1 history": http(client, "get", "/api/v1/tables/{id}/history?perspective=public", finished, **api),
        "v1 history, all": http(
            client, "get", "/api/v1/tables/{id}/history?perspective=all", finished, **api
        ),
        "replay page": http(client, "get", "/games/{id}/replay/", live),
        "replay page, finished": http(client, "get", "/games/{id}/replay/?as=all", finished),
        "replay room": http(client, "post", "/games/{id}/replay/rooms/", finished),
        "comments": http(client, "get", "/games/{id}/replay/comments/", finished),
        "comment": http(client, "post", "/games/{id}/replay/comments/", live, data={"seq": 1, "text": "hm"}),
        "hide a comment": http(
            client, "post", "/games/{id}/replay/comments/1/", finished, data={"hidden": 1}
        ),
        "review": http(client, "get", "/games/{id}/replay/review/", finished),
        "ask for a review": http(client, "post", "/games/{id}/replay/review/", finished),
        "table socket": async_to_sync(_socket)("/ws/tables/{id}/", live, session),
        "spectator socket": async_to_sync(_socket)("/ws/watch/{id}/", live, session),
        "replay socket": async_to_sync(_socket)("/ws/replays/{id}/", finished, session),
    }
    connections.close_all()
    return got


def edge_state(game_id: int) -> Any:
    """What the spectator edge reads of a table before it serves its sockets (infra/edge/)."""
    try:
        return read_state(game_id, "en")["seq"]
    except NotFound as exc:
        return exc.code
    finally:
        connections.close_all()


def test_a_table_whose_deal_is_secret_answers_outsiders_as_a_table_that_does_not_exist(settings) -> None:
    settings.SPECTATOR_SOCKET = "/ws/watch/"
    cup = cup_at_a_third_game()
    played = games_of(cup.row, cup.fast)
    third, second = played[2].game_id, played[1].game_id
    missing = Game.objects.order_by("-pk").first().pk + 1000  # type: ignore[union-attr]
    nothing = {role: answers(cup, role, missing, missing) for role in (*OUTSIDERS, *INSIDERS)}
    for role in OUTSIDERS:
        got = answers(cup, role, third, second)
        for path, answer in got.items():
            assert answer == nothing[role][path], f"{role}: {path} told that the table exists"
    assert edge_state(third) == edge_state(missing) == "unknown_game"

    # The table's own player, the organiser and staff get the table (the organiser watches through
    # Daphne: the edge knows nobody).
    for role in INSIDERS:
        got = answers(cup, role, third, second)
        assert got["table page"][0] == 200 and got["v1 state"][0] == 200 and got["api state"][0] == 200
        assert got["replay page"][0] == 200 and got["v1 stream"][2] == "a stream"
        assert got["table socket"][-1] == "state" and got["replay socket"][-1] == "ready"
        assert got["spectator socket"] == nothing[role]["spectator socket"], "the edge knows nobody"
        different = {path for path in got if got[path] != nothing[role][path]}
        assert different >= {"table page", "api state", "v1 state", "v1 updates", "replay page", "comments"}
    client = Client()
    client.force_login(cup.users["organiser"])
    page = client.get(f"/tables/{third}/")
    assert page.context["client"]["socket"] == f"/ws/tables/{third}/"
    # A replay room its player opens on it: its link leads nowhere for an outsider either.
    client.force_login(cup.users["player"])
    room = client.post(f"/games/{second}/replay/rooms/")["Location"].rstrip("/").rsplit("/", 1)[1]
    assert client.get(f"/replays/rooms/{room}/").status_code == 200
    for role in OUTSIDERS:
        visitor = Client()
        if cup.users[role] is not None:
            visitor.force_login(cup.users[role])
        session = async_to_sync(session_of)(cup.users[role]) if cup.users[role] is not None else None
        for path in ("/replays/rooms/{id}/",):
            there, nowhere = (
                same_text(visitor.get(path.format(id=k)).content.decode(), k) for k in (room, "0" * 8)
            )
            assert there == nowhere, f"{role}: the room told that the table exists"
        sockets = [async_to_sync(_socket)("/ws/replays/rooms/{id}/", k, session) for k in (room, "0" * 8)]
        assert sockets[0] == sockets[1], f"{role}: the room's socket told that the table exists"

    # Released (every match decided): public as any table, to everyone, on every path.
    resign_entrant(cup.row, cup.fast, played[2].seats[0])
    slow = cup.users["_slow"]
    loser = games_of(cup.row, slow)[0].seats[0]
    resign_entrant(cup.row, slow, loser)
    resign_entrant(cup.row, slow, loser)
    assert all(t.result is not None for t in projection.load(cup.row.stream_id).rounds[-1].tables)
    for role in OUTSIDERS:
        got = answers(cup, role, third, second)
        assert got["table page"][0] == 200 and got["v1 state"][0] == 200 and got["api state"][0] == 200
        assert got["replay page"][0] == 200 and got["v1 history"][0] == 200
        assert got["table socket"][-1] == "state" and got["replay socket"][-1] == "ready"
        assert got["spectator socket"][-1] == "state"
    assert edge_state(third) != "unknown_game"
    anonymous = Client().get(f"/tables/{third}/")
    assert anonymous.context["client"]["socket"] == f"/ws/watch/{third}/"
