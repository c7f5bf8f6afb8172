"""Fuzzing the sockets: the table socket (a connection per seat and a spectator), the replay socket
(a room driven by a signed-in user, and a live game watched by an anonymous spectator) and the
tournament page's socket. Every frame gets one answer, never a crash of the connection, and changes
nothing unless it was a valid command (arena.py says how that is checked).

Hypothesis draws one input per example; the connections stay open across examples on one event loop.
Rate limits are off here (conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connections
from hypothesis import given
from hypothesis import strategies as st

from games.commands import moves
from games.commands.create import SeatSpec, create_game
from games.eventlog import store
from games.eventlog.tables import load_table
from games.live.consumers import TABLE_COMMANDS
from replay import frames
from replay.models import Room, RoomMember
from tests.replay.sockets import app, session_of
from tournaments import service as tournaments

from . import strategies as fz
from .arena import CODE, Arena
from .budget import fuzz_settings
from .probes import draw, fresh_id
from .tally import TALLY

pytestmark = pytest.mark.django_db(transaction=True)
T = TypeVar("T")
SOCKET_KINDS = ["command"] * 9 + [
    "junk_frame",
    "binary_frame",
    "not_object",
    "unknown_type",
    "table_command",
    "resync",
]


class Loop:
    """One event loop for a whole fuzz run: the consumers live in it between examples."""

    def __init__(self, channel: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.channel = channel

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        try:
            return self.loop.run_until_complete(coroutine)
        except (AssertionError, TimeoutError):
            raise
        except Exception:  # the consumer raised: the connection would have died with a server error
            TALLY.channel(self.channel).server_errors += 1
            raise

    def close(self) -> None:
        self.loop.run_until_complete(database_sync_to_async(connections.close_all)())
        self.loop.close()


async def _open(path: str, session: str | None = None, token: str | None = None) -> WebsocketCommunicator:
    headers = [(b"cookie", f"sessionid={session}".encode())] if session else []
    if token is not None:
        headers.append((b"x-seat-token", token.encode()))  # a seat's credential, as a script sends it
    ws = WebsocketCommunicator(app, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected, path
    return ws


async def _answer(ws: WebsocketCommunicator, skip: tuple[str, ...] = ("update",)) -> dict[str, Any]:
    """The next message that answers the client (updates pushed to everyone are skipped)."""
    while True:
        message = await ws.receive_json_from(timeout=20)
        if message["type"] not in skip:
            return message


def _send(
    ws: WebsocketCommunicator, text: str | None = None, data: bytes | None = None
) -> Coroutine[Any, Any, None]:
    # The test communicator cannot send an empty frame; a space is as little JSON as nothing.
    if text is not None:
        return ws.send_to(text_data=text or " ")
    return ws.send_to(bytes_data=data or b"\x00")


# --- The table socket --------------------------------------------------------------------------------


# What a seat's table command may get at a table that counts: never an ack (issue #18). The command's
# own checks come first (bad_command_id, bad_seq), then the table's kind; a new game at a rated
# table waits for the game's end (game_not_over, after a stale seq).
COUNTED_REFUSALS = {
    # not_absent: a claim while every opponent is connected (games/commands/resignation.py)
    "rated": {"bad_command_id", "bad_seq", "not_in_rated", "stale_seq", "game_not_over", "not_absent"},
    "tournament": {"bad_command_id", "bad_seq", "not_in_tournament", "organiser_only", "not_absent"},
}
# Resigning ends the game (tests/games/test_resignation.py): the fuzzer keeps its table in play.
FUZZED_TABLE_COMMANDS = sorted(set(TABLE_COMMANDS) - {"resign"})


class Table:
    """The arena's game with a socket per seat (its credential in the handshake's header) and a
    spectator's."""

    def __init__(self, engine: str, kind: str = "casual") -> None:
        name = f"socket-table-{engine}" + ("" if kind == "casual" else f"-{kind}")
        self.loop = Loop(name)
        self.arena = Arena(engine, name, kind)
        self.game_id = 0
        self.seats: dict[int, WebsocketCommunicator] = {}
        self.watcher: WebsocketCommunicator | None = None
        self.connect()

    def connect(self) -> None:
        """(Re)connect to the arena's current game (a finished one is replaced by a new one)."""
        if self.game_id == self.arena.game_id:
            return
        self.loop.run(self._disconnect())
        self.game_id = self.arena.game_id
        path = f"/ws/tables/{self.game_id}/"
        self.seats = {n: self.loop.run(_open(path, token=t)) for n, t in self.arena.tokens.items()}
        self.watcher = self.loop.run(_open(path))
        for ws in [*self.seats.values(), self.watcher]:
            assert self.loop.run(_answer(ws))["type"] == "state"

    async def _disconnect(self) -> None:
        for ws in [*self.seats.values(), *([self.watcher] if self.watcher else [])]:
            await ws.disconnect()

    def close(self) -> None:
        self.loop.run(self._disconnect())
        self.loop.close()


def _probe_table(table: Table, data: st.DataObject) -> None:
    arena = table.arena
    kind = data.draw(st.sampled_from(SOCKET_KINDS), label="socket kind")
    probe = draw(arena, data)  # also replaces a finished game
    table.connect()
    seq = arena.current()[0]
    seat: int | None = probe.seat
    message: Any = {"type": "action", **probe.fields}
    expect = probe.expect
    text: str | None = None
    frame: bytes | None = None
    if kind == "junk_frame":
        text = data.draw(fz.raw_junk(8192))
        expect = fz.junk_expect(text) if len(text) <= 8192 else {"bad_json"}
    elif kind == "binary_frame":
        frame, expect = data.draw(st.binary(max_size=64)), {"bad_json"}
    elif kind == "not_object":
        message, expect = data.draw(fz.not_an_object), {"bad_json"}
    elif kind == "unknown_type":
        message = {**probe.fields, "type": data.draw(st.one_of(fz.json_values, fz.nasty_text))}
        known = isinstance(message["type"], str) and message["type"] in {*TABLE_COMMANDS, "action", "resync"}
        expect = None if known else {"unknown_message"}
    elif kind == "table_command":
        message = {
            "type": data.draw(st.sampled_from(FUZZED_TABLE_COMMANDS)),
            "command_id": fz.pick(data, [fresh_id(data), data.draw(fz.bad_command_ids)], "id"),
            "expected_seq": fz.pick(
                data, [seq, seq - 1, data.draw(fz.bad_seqs), data.draw(fz.huge_ints)], "seq"
            ),
        }
        seat, expect = fz.pick(data, list(arena.tokens), "seat"), COUNTED_REFUSALS.get(arena.kind)
    elif kind == "resync":
        message, expect = {**probe.fields, "type": "resync"}, {"state"}
    # One input in ten from the spectator (a modulo: Hypothesis favours the ends of a range).
    if data.draw(st.integers(0, 2**16), label="from the spectator") % 10 == 7:
        seat = None  # the spectator's socket: every command is refused, frames are checked the same
        if isinstance(message, dict) and message.get("type") != "resync" and text is None and frame is None:
            expect = {"spectator"}
    ws = table.seats[seat] if seat is not None else table.watcher
    assert ws is not None
    if text is None and frame is None:
        text = json.dumps(message)
    if text is not None and len(text) > 8192:
        expect = {"bad_json"}  # too large comes first, whatever else is wrong
    before = arena.current()
    table.loop.run(_send(ws, text, frame))
    answer = table.loop.run(_answer(ws))
    label = f"{kind}/{probe.kind}" if kind == "command" else kind
    if answer["type"] == "state":
        assert expect == {"state"}, f"{label}: a state answered {text!r:.200}"
        arena.check(label, text, {"code": "state", "message": "the table"}, before, seat=seat, expect=expect)
        assert answer["seat"] == seat, "resync sent another audience's picture"
        return
    command = (message.get("command_id"), seat, message) if isinstance(message, dict) else None
    if command is not None and "command_id" not in message and answer.get("type") == "ack":
        # Left out: the server gave it one (ws:…), which a retry must send.
        command = (answer["command_id"], seat, {**message, "command_id": answer["command_id"]})
    arena.check(label, text or frame, answer, before, seat=seat, expect=expect, command=command)


@pytest.mark.parametrize(
    ("engine", "kind"),
    [
        *((engine, "casual") for engine in ("tiny", "skyjo", "dominoes", "kazino", "pitch")),
        ("tiny", "rated"),
        ("tiny", "tournament"),
    ],
)
def test_hostile_messages_on_the_table_socket(engine: str, kind: str):
    table = Table(engine, kind)
    started = time.perf_counter()

    @fuzz_settings(f"socket-table-{engine}")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _probe_table(table, data)

    try:
        run()
    finally:
        table.arena.channel.seconds += time.perf_counter() - started
        table.close()
    table.arena.verify()


# --- The replay socket --------------------------------------------------------------------------------

REPLAY_KINDS = ["load", "load", "move", "follow", "give", "take", "unknown_type", "junk_frame", "not_object"]
REPLAY_ANSWERS = {"hand", "position", "driver", "following", "error"}


def _replay_world() -> dict[str, Any]:
    users = [get_user_model().objects.create_user(name) for name in ("driver", "member")]
    seats = [SeatSpec("P0"), SeatSpec("P1")]
    finished = create_game("tiny", {"players": 2, "goal": 3}, seats)
    for seat, n in ((0, 2), (1, 1)):
        moves.submit(finished.pk, seat, {"type": "add", "n": n}, f"end-{seat}", store.head(finished.pk)[0])
    live = create_game("tiny", {"players": 2, "goal": 50}, seats)
    moves.submit(live.pk, 0, {"type": "add", "n": 1}, "live-1", store.head(live.pk)[0])
    room = Room.objects.create(game=finished, created_by=users[0], driver=users[0], seq=1)
    for user in users:
        RoomMember.objects.create(room=room, user=user)
    return {
        "users": users,
        "room": room.key,
        "games": [finished.pk, live.pk],
        "seqs": [m.seq for m in frames.load(finished.pk).moments],
        "secrets": list(load_table(live.pk).state.secrets),
    }


async def _read_answer(ws: WebsocketCommunicator, message: Any) -> list[dict[str, Any]]:
    """Every message that answers one input: a hand comes in parts, following again adds a position."""
    first = await _answer(ws, skip=())
    assert first["type"] in REPLAY_ANSWERS, first
    out = [first]
    if first["type"] == "hand":
        while sum(len(p["moments"]) for p in out) < first["total"]:
            out.append(await _answer(ws, skip=()))
    if first["type"] == "following" and first["on"]:
        out.append(await _answer(ws, skip=()))
    return out


def _replay_message(world: dict[str, Any], kind: str, data: st.DataObject) -> Any:
    # Every number field may also be a number past 64 bits (fz.huge_ints): an error, never a close.
    huge = data.draw(fz.huge_ints, label="huge")
    perspective = fz.pick(data, [0, 1, "public", "all", "0", data.draw(fz.json_values), huge], "perspective")
    if kind == "load":
        return {
            "type": "load",
            "perspective": perspective,
            "hand": fz.pick(data, [1, 0, 2, data.draw(fz.json_values), huge]),
        }
    if kind == "move":
        return {
            "type": "move",
            "seq": fz.pick(data, [*world["seqs"], data.draw(fz.json_values), huge]),
            "perspective": perspective,
        }
    if kind == "follow":
        return {"type": "follow", "on": data.draw(st.one_of(st.booleans(), fz.json_values, fz.huge_ints))}
    if kind == "give":
        return {
            "type": "give",
            "to": fz.pick(data, [u.pk for u in world["users"]] + [data.draw(fz.json_values), huge, huge]),
        }
    if kind == "take":
        return {"type": "take", "x": data.draw(fz.json_values)}
    if kind == "unknown_type":
        return {"type": data.draw(st.one_of(fz.json_values, fz.nasty_text))}
    if kind == "not_object":
        return data.draw(fz.not_an_object)
    return None


def _room_row(key: str) -> tuple[int, str, int | None]:
    row = Room.objects.get(key=key)
    return row.seq, row.perspective, row.driver_id


def _probe_replay(
    world: dict[str, Any], loop: Loop, sockets: dict[str, WebsocketCommunicator], data: st.DataObject
) -> None:
    kind = data.draw(st.sampled_from(REPLAY_KINDS), label="replay kind")
    where = data.draw(st.sampled_from(["room", "live"]), label="socket")
    message = _replay_message(world, kind, data)
    text = data.draw(fz.raw_junk(2048)) if message is None else json.dumps(message)
    heads = [store.head(g) for g in world["games"]]
    room = _room_row(world["room"])
    loop.run(_send(sockets[where], text))
    answers = loop.run(_read_answer(sockets[where], message))
    first = answers[0]
    channel = TALLY.channel("socket-replay")
    channel.sent += 1
    channel.kinds[f"{kind} ({where})"] += 1
    channel.outcomes[first.get("code") or first["type"]] += 1
    assert [store.head(g) for g in world["games"]] == heads, "a replay changed a game"
    moved = _room_row(world["room"]) != room
    assert not moved or first["type"] in ("position", "driver"), f"the room changed on {text!r:.200}"
    if first["type"] == "error":
        assert CODE.match(first["code"]) and first["message"], first
    if message is None and (len(text) > 2048 or fz.junk_expect(text)):
        assert first.get("code") == "bad_json", first
    if where == "live":
        # An anonymous spectator of a live game: the spectators' pictures only, no card of a seat.
        shown = json.dumps(answers)
        assert all(a.get("perspective", "public") == "public" for a in answers if a["type"] == "hand"), shown
        assert not any(secret in shown for secret in world["secrets"]), (
            f"a hidden card reached a spectator: {shown:.300}"
        )
        assert first["type"] in ("hand", "error"), first


def test_hostile_messages_on_the_replay_socket():
    world = _replay_world()
    loop = Loop("socket-replay")
    session = loop.run(session_of(world["users"][0]))
    sockets = {
        "room": loop.run(_open(f"/ws/replays/rooms/{world['room']}/", session)),
        "live": loop.run(_open(f"/ws/replays/{world['games'][1]}/")),
    }
    for ws in sockets.values():
        loop.run(_drain(ws))
    started = time.perf_counter()

    @fuzz_settings("socket-replay")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _probe_replay(world, loop, sockets, data)

    try:
        run()
    finally:
        TALLY.channel("socket-replay").seconds += time.perf_counter() - started
        for ws in sockets.values():
            loop.run(ws.disconnect())
        loop.close()


async def _drain(ws: WebsocketCommunicator) -> None:
    while not await ws.receive_nothing(timeout=0.3):
        await ws.receive_output()


# --- The tournament page's socket ---------------------------------------------------------------------


def test_hostile_messages_on_the_tournament_socket():
    owner = get_user_model().objects.create_user("organiser")
    row = tournaments.create("Fuzz Cup", "kazino", "swiss", {}, by=owner)
    loop = Loop("socket-tournament")
    ws = loop.run(_open(f"/ws/tournaments/{row.pk}/"))
    channel = TALLY.channel("socket-tournament")
    started = time.perf_counter()

    @fuzz_settings("socket-tournament")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        frame = data.draw(
            st.one_of(
                fz.raw_junk(2048).map(lambda t: (t, None)),
                st.binary(max_size=32).map(lambda b: (None, b)),
                fz.json_values.map(lambda v: (json.dumps(v), None)),
            )
        )
        loop.run(_send(ws, *frame))
        answer = loop.run(_answer(ws, skip=()))
        channel.sent += 1
        channel.kinds["text" if frame[0] is not None else "binary"] += 1
        channel.outcomes[answer.get("code", answer["type"])] += 1
        assert (
            answer["type"] == "error"
            and answer["code"] in ("bad_json", "unknown_message")
            and answer["message"]
        )
        if frame[0] is None or len(frame[0]) > 2048 or fz.junk_expect(frame[0]):
            assert answer["code"] == "bad_json", answer

    try:
        run()
    finally:
        channel.seconds += time.perf_counter() - started
        loop.run(ws.disconnect())
        loop.close()


# --- Socket paths -------------------------------------------------------------------------------------

PATH_KINDS = ["tables", "replays", "tournaments", "replays/rooms", "nope", ""]


def test_hostile_socket_paths():
    """A handshake to any path: a route's socket (an id that exists), or closed with 4404 — an id past
    64 bits, a word, an unknown path. Never an exception out of the router (Daphne: a 500)."""
    owner = get_user_model().objects.create_user("path-owner")
    known = {
        "tables": create_game("tiny", {"players": 2, "goal": 50}, [SeatSpec("P0"), SeatSpec("P1")]).pk,
        "tournaments": tournaments.create("Path Cup", "kazino", "swiss", {}, by=owner).pk,
    }
    loop = Loop("socket-paths")
    channel = TALLY.channel("socket-paths")
    started = time.perf_counter()

    async def handshake(path: str) -> str:
        ws = WebsocketCommunicator(app, path)
        connected, code = await ws.connect(timeout=20)
        if not connected:
            return f"refused {code}"
        if path == f"/ws/tournaments/{known['tournaments']}/":
            await ws.disconnect()
            return "listening"  # the tournament socket says nothing until the tournament changes
        message = await ws.receive_output(timeout=20)
        if message["type"] != "websocket.close" and json.loads(message["text"]).get("code") == "unknown_game":
            message = await ws.receive_output(timeout=20)  # the table socket says why, then closes
        await ws.disconnect()
        if message["type"] == "websocket.close":
            return f"closed {message['code']}"
        return json.loads(message["text"])["type"]

    @fuzz_settings("socket-paths")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(PATH_KINDS), label="path kind")
        part = data.draw(
            st.one_of(
                fz.huge_ints.map(str),
                st.integers().map(str),
                st.sampled_from([str(v) for v in known.values()]),
                st.text("abcxyz0123456789-_.~%", max_size=30),
            ),
            label="id",
        )
        path = f"/ws/{kind}/{part}/" if kind else f"/{part}"
        answer = loop.run(handshake(path))
        channel.sent += 1
        channel.kinds[kind or "root"] += 1
        channel.outcomes[answer] += 1
        assert answer in ("closed 4404", "refused 4404", "state", "ready", "listening"), (path, answer)
        if answer in ("state", "ready", "listening"):
            assert int(part) in known.values(), (path, answer)

    try:
        run()
    finally:
        channel.seconds += time.perf_counter() - started
        loop.close()
