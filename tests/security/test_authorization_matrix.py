"""Who may do what: every HTTP endpoint and every socket message, for each role, cell by cell.

The roles are in world.py; the HTTP rows in endpoints.py. A refused request must change nothing, an
allowed one must do what it says (each row with an ``effect`` checks both).
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections, transaction
from django.urls import URLPattern, URLResolver, get_resolver

from games.commands import controls, moves
from games.commands.create import SeatSpec, create_game
from games.eventlog import store
from games.models import Game, Seat
from replay import rooms
from replay.access import Viewer
from replay.models import Room
from tests.replay.sockets import app, arrived, connect, session_of

from .endpoints import ENDPOINTS, ROLE_BLIND, Endpoint, Expect
from .world import ROLES, World, build, client_for

# --- Every URL is covered ----------------------------------------------------------------------------


def _url_names(patterns: list[Any], namespace: str | None = None) -> set[str]:
    names: set[str] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or namespace
            if inner == "admin":
                names.add("admin:*")  # the admin is one row: staff only
                continue
            names |= _url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern):
            names.add(f"{namespace}:{pattern.name}" if namespace else str(pattern.name or pattern.pattern))
    return names


def test_every_url_is_in_the_matrix():
    covered = {e.name for e in ENDPOINTS} | set(ROLE_BLIND)
    covered = {"admin:*" if name.startswith("admin:") else name for name in covered}
    missing = _url_names(get_resolver().url_patterns) - covered
    assert not missing, f"add these URLs to tests/security/endpoints.py: {sorted(missing)}"
    stale = covered - _url_names(get_resolver().url_patterns)
    assert not stale, f"these rows name no URL any more: {sorted(stale)}"


# --- HTTP, cell by cell -----------------------------------------------------------------------------


def _call(endpoint: Endpoint, world: World, role: str) -> Any:
    client = client_for(world, role)
    kwargs: dict[str, Any] = dict(endpoint.headers(world, role))
    data = endpoint.data(world) if endpoint.data else None
    if endpoint.method == "GET":
        return client.get(endpoint.url(world), **kwargs)
    if endpoint.json_body:
        kwargs["content_type"] = "application/json"
    return client.post(endpoint.url(world), data if data is not None else {}, **kwargs)


def _mismatch(response: Any, expected: Expect) -> str | None:
    if response.status_code >= 500:
        return f"server error {response.status_code}"
    if response.status_code != expected.status:
        return f"status {response.status_code}, expected {expected.status}"
    if expected.login and "/login/" not in response.get("Location", ""):
        return f"redirect to {response.get('Location')!r}, expected the sign-in page"
    if expected.code is not None:
        code = response.json().get("error", {}).get("code")
        if code != expected.code:
            return f"code {code!r}, expected {expected.code!r}"
    return None


class TestHttp:
    """Each row of endpoints.py, for every role, on one world (tests/security/conftest.py)."""

    @pytest.mark.django_db
    @pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.id)
    def test_http_matrix(self, endpoint: Endpoint, shared_world: World) -> None:
        wrong: dict[str, str] = {}
        world = shared_world
        for role in ROLES:
            # Each role acts on tables nobody touched: what one role's request changed is rolled back
            # before the next role's (the table folds kept in memory notice the log they folded is gone).
            with transaction.atomic():
                before = endpoint.effect(world) if endpoint.effect else None
                response = _call(endpoint, world, role)
                expected = endpoint.expect[role]
                problem = _mismatch(response, expected)
                if problem is None and endpoint.effect is not None:
                    changed = endpoint.effect(world) != before
                    if changed != expected.should_change():
                        problem = "changed what it may not" if changed else "did not do what it says"
                transaction.set_rollback(True)
            if problem:
                wrong[role] = problem
        assert not wrong, f"{endpoint.id}: {wrong}"

    @pytest.mark.django_db
    @pytest.mark.parametrize("name", ROLE_BLIND)
    def test_operators_endpoints_answer_every_role_alike(self, name: str, shared_world: World) -> None:
        world = shared_world
        statuses = {role: client_for(world, role).get(f"/{name}").status_code for role in ROLES}
        assert len(set(statuses.values())) == 1, statuses


# --- Sockets ------------------------------------------------------------------------------------------


@pytest.fixture
async def _close_db_connections():  # type: ignore[no-untyped-def]
    yield
    await database_sync_to_async(connections.close_all)()


async def _socket_as(world: World, role: str, path: str, game: Game | None = None) -> WebsocketCommunicator:
    """Connect to ``path`` as ``role``: a signed-in session, or (guest) a session that keeps seat 0's
    credential of ``game``, as a guest's browser does."""
    if role in world.users:
        return await connect(path, await session_of(world.users[role]))
    if role == "guest" and game is not None:
        return await connect(path, await session_of(None, {game.pk: {0: world.token(game, 0)}}))
    return await connect(path)


async def _reply(ws: WebsocketCommunicator, kinds: set[str]) -> dict[str, Any]:
    """The first message of one of ``kinds`` (table updates and others on the way are skipped)."""
    while True:
        message = await ws.receive_json_from(timeout=5)
        if message["type"] in kinds:
            return message


def _outcome(message: dict[str, Any]) -> str:
    return message["code"] if message["type"] == "error" else message["type"]


SEATED = {"owner", "guest", "opponent"}

# Table socket at a casual table: what each role gets for each message (an ack, a state, or a code).
TABLE_MATRIX: dict[str, dict[str, str]] = {
    "action": {"owner": "ack", "guest": "ack", "opponent": "not_your_turn"},
    "undo": dict.fromkeys(SEATED, "ack"),  # any player at a casual table may take a move back
    "redo": dict.fromkeys(SEATED, "ack"),
    "restart": dict.fromkeys(SEATED, "ack"),
    "new_game": dict.fromkeys(SEATED, "ack"),
    "pause": dict.fromkeys(SEATED, "ack"),
    "resume": dict.fromkeys(SEATED, "ack"),
    "resync": dict.fromkeys(ROLES, "state"),
    "hint": dict.fromkeys(SEATED, "unknown_message"),  # hints are an HTTP endpoint, not a message
}
# At a tournament table the moves stand: no undo, redo, restart or new game; and no seat pauses it
# (a player could stall a round against a computer): its organiser does, from the tournament's page.
TOURNAMENT_TABLE = {
    **TABLE_MATRIX,
    **{kind: dict.fromkeys(SEATED, "not_in_tournament") for kind in ("undo", "redo", "restart", "new_game")},
    **{kind: dict.fromkeys(SEATED, "organiser_only") for kind in ("pause", "resume")},
}
# A rated table: no takeback and no pause either; its next game once this one is over.
RATED_TABLE = {
    **TABLE_MATRIX,
    **{
        kind: dict.fromkeys(SEATED, "not_in_rated") for kind in ("undo", "redo", "restart", "pause", "resume")
    },
    "new_game": dict.fromkeys(SEATED, "game_not_over"),
}
MATRICES = {
    Game.Kind.CASUAL: TABLE_MATRIX,
    Game.Kind.RATED: RATED_TABLE,
    Game.Kind.TOURNAMENT: TOURNAMENT_TABLE,
}


@database_sync_to_async
def _table_for(world: World, kind: str, game_kind: str) -> Game:
    """A fresh table where ``kind`` can be done: a move to undo, an undo to redo, a pause to end
    (where the table allows them: elsewhere each is refused whatever the log holds)."""
    organiser, owner, opponent = (world.users[r] for r in ("organiser", "owner", "opponent"))
    seats = [SeatSpec("owner", user=owner), SeatSpec("opponent", user=opponent)]
    game = create_game("tiny", {"players": 2, "goal": 50}, seats, created_by=organiser, kind=game_kind)
    world.tokens[game.pk] = {s.number: s.token for s in Seat.objects.filter(game=game)}
    seq = store.head(game.pk)[0]
    if kind in ("undo", "redo"):
        moves.submit(game.pk, 0, {"type": "add", "n": 1}, "pre-move", seq)
        seq += 1
    if kind == "redo" and game_kind == Game.Kind.CASUAL:
        controls.undo(game.pk, "pre-undo", seq, by="seat:0")
    if kind == "resume" and game_kind != Game.Kind.RATED:
        controls.pause(game.pk, "pre-pause", seq, by="seat:0" if game_kind == Game.Kind.CASUAL else "user:1")
    return game


def _message(kind: str, seq: int) -> dict[str, Any]:
    if kind == "resync":
        return {"type": "resync"}
    message: dict[str, Any] = {"type": kind, "command_id": f"cell-{kind}", "expected_seq": seq}
    if kind == "action":
        message["action"] = {"type": "add", "n": 1}
    return message


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_kind", list(MATRICES))
@pytest.mark.parametrize("role", ROLES)
async def test_table_socket_matrix(role: str, game_kind: str, _close_db_connections: None):
    world = await database_sync_to_async(build)()
    matrix = MATRICES[game_kind]
    wrong: dict[str, str] = {}
    for kind, row in matrix.items():
        expected = row.get(role, "spectator")
        game = await _table_for(world, kind, game_kind)
        before = await database_sync_to_async(store.head)(game.pk)
        ws = await _socket_as(world, role, f"/ws/tables/{game.pk}/", game)
        await _reply(ws, {"state"})
        await ws.send_json_to(_message(kind, before[0]))
        got = _outcome(await _reply(ws, {"ack", "error", "state"}))
        await ws.disconnect()
        after = await database_sync_to_async(store.head)(game.pk)
        if got != expected:
            wrong[kind] = f"{got}, expected {expected}"
        elif (after != before) != (got == "ack"):
            wrong[kind] = "the log changed on a refusal" if got != "ack" else "an ack stored nothing"
    assert not wrong, f"{role} at a {game_kind} table: {wrong}"


# Replay socket: ``load`` of a live game from seat 0, and the room commands in a room on a finished
# game opened (so driven) by the owner, whose table the organiser made.
REPLAY_MATRIX: dict[str, dict[str, str]] = {
    "load seat 0 (live)": {"owner": "hand", "guest": "hand"},  # others: not_your_seat
    "load all cards (live)": dict.fromkeys(ROLES, "hand_not_over"),
    "follow": dict.fromkeys(ROLES, "following"),
    "move": {"owner": "position"},  # others: not_driver
    "give": {"owner": "driver"},  # others: not_driver
    "take": {"owner": "driver", "organiser": "driver", "staff": "driver"},  # others: cannot_take
}
REPLAY_DEFAULT = {
    "load seat 0 (live)": "not_your_seat",
    "move": "not_driver",
    "give": "not_driver",
    "take": "cannot_take",
}


@database_sync_to_async
def _room(world: World) -> Room:
    room = Room.objects.create(
        game=world.finished, created_by=world.users["owner"], driver=world.users["owner"], seq=1
    )
    for role in ("owner", "spectator"):
        rooms.join(room, Viewer(world.users[role].pk, frozenset()))
    return room


@database_sync_to_async
def _room_state(key: str) -> tuple[int, str, int | None]:
    room = Room.objects.get(key=key)
    return room.seq, room.perspective, room.driver_id


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
async def test_replay_socket_matrix(role: str, _close_db_connections: None):
    world = await database_sync_to_async(build)()
    wrong: dict[str, str] = {}
    for label, row in REPLAY_MATRIX.items():
        expected = row.get(role, REPLAY_DEFAULT.get(label, ""))
        if label.startswith("load"):
            ws = await _socket_as(world, role, f"/ws/replays/{world.live.pk}/", world.live)
            await _reply(ws, {"ready"})
            perspective = 0 if "seat 0" in label else "all"
            await ws.send_json_to({"type": "load", "perspective": perspective, "hand": 1})
            got = _outcome(await _reply(ws, {"hand", "error"}))
            changed = False
        else:
            room = await _room(world)
            ws = await _socket_as(world, role, f"/ws/replays/rooms/{room.key}/", world.finished)
            # ready, driver, position, and the members' news of this very connection (a driver message)
            await arrived(ws, {"ready": 1, "driver": 2, "position": 1})
            before = await _room_state(room.key)
            message: dict[str, Any] = {"type": label.split()[0]}
            message |= {
                "follow": {"on": False},
                "move": {"seq": world.last_moment[world.finished.pk], "perspective": "public"},
                "give": {"to": world.users["spectator"].pk},
                "take": {},
            }[label]
            await ws.send_json_to(message)
            got = _outcome(await _reply(ws, {"following", "position", "driver", "error"}))
            changed = await _room_state(room.key) != before
        await ws.disconnect()
        moved = got in ("position", "driver") and label != "follow"
        if got != expected:
            wrong[label] = f"{got}, expected {expected}"
        elif changed != (moved and not (label == "take" and role == "owner")):
            wrong[label] = "the room changed on a refusal" if changed else "the room did not change"
    assert not wrong, f"{role}: {wrong}"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
async def test_tournament_socket_matrix(role: str, _close_db_connections: None):
    """Everyone may listen to a tournament page's socket; nobody can send it anything."""
    world = await database_sync_to_async(build)()
    ws = await _socket_as(world, role, f"/ws/tournaments/{world.tournament.pk}/")
    for message, code in (
        ({"type": "start"}, "unknown_message"),
        ({"type": "register"}, "unknown_message"),
        (["x"], "bad_json"),
    ):
        await ws.send_json_to(message)
        reply = await ws.receive_json_from(timeout=5)
        assert reply["type"] == "error" and reply["code"] == code and reply["message"]
    await ws.disconnect()
    unknown = WebsocketCommunicator(app, "/ws/tournaments/999999999/")
    connected, code = await unknown.connect()
    assert not connected and code == 4404
