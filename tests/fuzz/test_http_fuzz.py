"""Fuzzing the HTTP API: malformed and hostile requests get a JSON error with a stable code, never a
server error, and change nothing; valid ones are stored exactly once (arena.py says how it is checked).

Rate limits are off here (conftest.py): every input must reach the checks behind them.
"""

from __future__ import annotations

import json
import time
import traceback
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from games.access.seats import SESSION_KEY
from games.commands import moves
from games.commands.create import SeatSpec, create_game
from games.eventlog import queries, store, streams
from games.eventlog.tables import load_table
from games.models import Seat
from replay.models import Annotation
from tournaments import service as tournaments
from tournaments.models import MatchGame

from . import strategies as fz
from .arena import Arena
from .budget import fuzz_settings
from .probes import Probe, draw, fresh_id
from .tally import TALLY

pytestmark = pytest.mark.django_db

HTTP_KINDS = ["command"] * 9 + [
    "junk_body",
    "not_object",
    "credentials",
    "wrong_method",
    "unknown_game",
    "content_type",
]


def _request(channel: str, send: Any) -> Any:
    """The response; a server error is counted, then fails the test."""
    try:
        response = send()
    except Exception:
        TALLY.channel(channel).server_errors += 1
        traceback.print_exc()  # Hypothesis may report a replay of the example, not this first error
        raise
    if response.status_code >= 500:
        TALLY.channel(channel).server_errors += 1
    assert response.status_code < 500, response.content[:300]
    return response


def _answer(response: Any) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    payload = response.json()
    if "error" in payload:
        assert response.status_code in (400, 403, 404, 405, 409, 429), response.status_code
        return payload["error"]
    assert response.status_code == 200
    return payload


def _encoded(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate makes bytes that are not UTF-8


def _probe_http(arena: Arena, client: Client, data: st.DataObject, log_id: int) -> None:
    kind = data.draw(st.sampled_from(HTTP_KINDS), label="http kind")
    content_type = "application/json"
    method = "post"
    probe = draw(arena, data) if kind == "command" else draw_valid(arena, data)
    url = f"/api/games/{arena.game_id}/actions"  # after the draw: it may have dealt a new game
    token: str | None = arena.tokens[probe.seat]
    body: bytes = json.dumps({"seat": probe.seat, **probe.fields}).encode()
    if kind == "junk_body":
        body = data.draw(st.one_of(fz.raw_junk(8192).map(_encoded), st.binary(max_size=64)))
        probe.expect = fz.junk_expect(body) if len(body) <= 8192 else {"bad_json"}
    elif kind == "not_object":
        body = json.dumps(data.draw(fz.not_an_object)).encode()
        probe.expect = {"bad_json"}
    elif kind == "credentials":
        others = [t for s, t in arena.tokens.items() if s != probe.seat]
        token = fz.pick(data, [*others, None, "", data.draw(fz.body_text)], "token")
        probe.expect = {"not_your_seat"}
    elif kind == "wrong_method":
        method = data.draw(st.sampled_from(["get", "put", "patch", "delete"]))
        probe.expect = {"method_not_allowed"}
    elif kind == "unknown_game":
        url = f"/api/games/{data.draw(st.sampled_from([999_999_999, 10**20, log_id]))}/actions"
        probe.expect = {"unknown_game"}
    elif kind == "content_type":
        content_type = data.draw(
            st.sampled_from(
                [
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x",
                    "multipart/form-data",
                    "",
                    "application/json; charset=utf-16",
                ]
            )
        )
    if len(body) > 8192 and kind not in ("wrong_method", "unknown_game"):
        probe.expect = {"bad_json"}  # too large comes first, whatever else is wrong
    headers = {"HTTP_X_SEAT_TOKEN": token} if token is not None else {}
    before = arena.current()
    response = _request(
        arena.channel_name,
        lambda: client.generic(method.upper(), url, body, content_type=content_type, **headers),
    )
    arena.check(
        f"{kind}/{probe.kind}" if kind == "command" else kind,
        body.decode("utf-8", "replace"),
        _answer(response),
        before,
        seat=probe.seat,
        expect=probe.expect,
        command=probe.command(),
    )


def draw_valid(arena: Arena, data: st.DataObject) -> Probe:
    seat, action = fz.pick(data, arena.playable(), "legal")
    fields = {"action": action, "command_id": fresh_id(data), "expected_seq": arena.current()[0]}
    return Probe("valid", seat, fields, None)


@pytest.mark.parametrize("engine", ["tiny", "skyjo", "dominoes", "kazino", "pitch"])
def test_hostile_actions_over_http(engine: str):
    arena = Arena(engine, f"http-actions-{engine}")
    client = Client()
    log_id = streams.open_stream("tournament")
    started = time.perf_counter()

    @fuzz_settings(f"http-actions-{engine}")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _probe_http(arena, client, data, log_id)

    try:
        run()
    finally:
        arena.channel.seconds += time.perf_counter() - started
    arena.verify()


# --- Reads and the replay's forms: junk in every query string and field ------------------------------

READ_KINDS = ["state", "state_unknown", "replay_page", "comment", "path_lookup", "tournament_form", "hint"]
# Pages that look a path's text up in the database (a NUL there once made PostgreSQL fail).
LOOKUPS = [
    "/players/{}/",
    "/replays/rooms/{}/",
    "/tables/{game}/invite/{}/",
    "/tables/{game}/join/{}/",
    "/clubs/{}/",
    "/rules/{}/",
    "/new/{}/",
]
TOURNAMENT_ACTIONS = [
    "register",
    "add_bot",
    "check_in",
    "withdraw",
    "seed",
    "start",
    "pause",
    "override",
    "forfeit",
    "pause_table",
    "resume_table",
]
# What a hint asked of each kind of table may get: the strong player's choice only at a casual one.
HINT_ANSWERS = {
    "casual": {"not_your_seat", "not_your_turn", "hint"},
    "rated": {"not_your_seat", "no_hint"},
    "tournament": {"not_your_seat", "no_hint"},
}


def _finished_game() -> int:
    """A tiny game ended in two moves: its replay and its comments are open to everyone."""
    seats = [SeatSpec("P0"), SeatSpec("P1")]
    game = create_game("tiny", {"players": 2, "goal": 3}, seats)
    for seat, n in ((0, 2), (1, 1)):
        moves.submit(game.pk, seat, {"type": "add", "n": n}, f"end-{seat}", store.head(game.pk)[0])
    assert queries.result(game.pk) is not None
    return game.pk


def _probe_read(world: dict[str, Any], data: st.DataObject) -> None:
    arena: Arena = world["live"]
    kind = fz.pick(data, READ_KINDS, "read kind")
    game_id = data.draw(st.sampled_from([arena.game_id, world["finished"]]))
    value = data.draw(
        st.one_of(fz.body_text, fz.numbers.map(str), st.sampled_from(["0", "1", "2", "-1", "²"]))
    )
    client = Client()
    before = store.head(game_id)
    notes = Annotation.objects.count()
    if kind == "state":
        token = fz.pick(data, [None, *arena.tokens.values(), data.draw(fz.body_text)], "token")
        headers = {"HTTP_X_SEAT_TOKEN": token} if token is not None else {}
        value = fz.pick(data, ["0", "1", value], "seat")
        response = _request(
            "http-pages", lambda: client.get(f"/api/games/{game_id}/state", {"seat": value}, **headers)
        )
        answer = _answer(response)
        if "code" not in answer:
            # A seat's view only with that seat's token: anyone else gets the public one or a refusal.
            seat = answer["seat"]
            assert seat is None or (game_id == arena.game_id and arena.tokens[seat] == token), answer["seat"]
            answer = {"code": "state"}
    elif kind == "state_unknown":
        missing = data.draw(st.sampled_from([999_999_999, 10**25, world["log"]]))
        answer = _answer(_request("http-pages", lambda: client.get(f"/api/games/{missing}/state")))
        assert answer["code"] == "unknown_game"
    elif kind == "replay_page":
        at = data.draw(st.one_of(fz.body_text, fz.numbers.map(str)))
        response = _request(
            "http-pages", lambda: client.get(f"/games/{game_id}/replay/", {"at": at, "as": value})
        )
        assert response.status_code == (400 if "\x00" in at + value else 200)
        answer = _answer(response) if response.status_code == 400 else {"code": "page"}
    elif kind == "path_lookup":
        path = fz.pick(data, LOOKUPS, "page").format(quote(value, safe=""), game=game_id)
        response = _request("http-pages", lambda: client.get(path))
        assert response.status_code in (200, 302, 400, 404, 410), (path, response.status_code)
        answer = (
            _answer(response) if response.status_code == 400 else {"code": f"page {response.status_code}"}
        )
    elif kind == "tournament_form":
        client.force_login(world["user"])
        fields = {
            k: data.draw(st.one_of(fz.body_text, fz.numbers.map(str)))
            for k in ("name", "game", "format", "table_size", "rounds", "level", "entrant", "order", "reason")
        }
        if data.draw(st.booleans(), label="new or act"):
            url = "/tournaments/new/"
        else:
            # The registering cup, or the running one whose live game the organiser may hold.
            row, live = fz.pick(data, [(world["tournament"], None), world["running"]], "tournament")
            # Each button posts its own form to /do/ACTION (frontend/console.py).
            action = fz.pick(data, [*TOURNAMENT_ACTIONS, value], "action")
            url = f"/tournaments/{row}/do/{quote(str(action), safe='')}"
            if live is not None:
                fields["game"] = fz.pick(data, [str(live), fields["game"]], "table")
        response = _request("http-pages", lambda: client.post(url, fields))
        # A refused console action is its page again at 400, 403 (not the organiser), 404 (no such
        # action) or 409 (a lost race): never a server error.
        assert response.status_code in (200, 302, 400, 403, 404, 409), (url, response.status_code)
        json_answer = response["Content-Type"].startswith("application/json")
        answer = _answer(response) if json_answer else {"code": f"form {response.status_code}"}
    elif kind == "hint":
        table_kind = fz.pick(data, sorted(world["hint"]), "table kind")
        table = world["hint"][table_kind]
        game_id = table.pk
        before = store.head(game_id)
        if data.draw(st.booleans(), label="holds the seats"):
            session = client.session
            session[SESSION_KEY] = {str(table.pk): world["hint_tokens"][table.pk]}
            session.save()
        value = fz.pick(data, ["0", "1", value], "seat")
        response = _request("http-pages", lambda: client.get(f"/tables/{game_id}/hint", {"seat": value}))
        answer = _answer(response)
        if "code" not in answer:
            assert answer["action"], answer
            answer = {"code": "hint"}
        # A NUL anywhere in the query is refused before any view reads it, whatever the table.
        expected = {"bad_request"} if "\x00" in value else HINT_ANSWERS[table_kind]
        assert answer["code"] in expected, (table_kind, answer)
    else:
        client.force_login(world["user"])
        text = data.draw(st.one_of(fz.body_text, st.just("x" * 1001), st.just("a fine move")))
        response = _request(
            "http-pages",
            lambda: client.post(f"/games/{game_id}/replay/comments/", {"seq": value, "text": text}),
        )
        answer = _answer(response) if response.status_code != 201 else {"code": "comment stored"}
        assert Annotation.objects.count() == notes + (response.status_code == 201)
    channel = TALLY.channel("http-pages")
    channel.sent += 1
    channel.kinds[kind] += 1
    channel.outcomes[answer["code"]] += 1
    assert store.head(game_id) == before, "a read changed a game"


def _hint_tables() -> dict[str, Any]:
    """A table of each kind where seat 0 is to move: the casual one a real engine's (its hint asks the
    strong player), the others tiny (a hint is refused there before any search)."""
    seats = [SeatSpec("P0"), SeatSpec("P1")]
    casual = next(
        game
        for seed in range(50)
        if load_table(game := create_game("dominoes", {"players": 2}, seats, seed=seed)).to_act() == [0]
    )
    return {
        "casual": casual,
        **{
            kind: create_game("tiny", {"players": 2, "goal": 50}, seats, kind=kind)
            for kind in ("rated", "tournament")
        },
    }


def _running_cup(organiser: Any) -> tuple[int, int]:
    """A running tournament of two computer players (who wait: the computer seats are off here) and
    the id of its live game."""
    row = tournaments.create(
        "Held Cup", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser
    )
    for n in (1, 2):
        tournaments.register(row, f"Bot {n}", bot_level="random", by=organiser)
    tournaments.seed(row, "random", by=organiser)
    tournaments.start(row, by=organiser)
    return row.pk, MatchGame.objects.get(match__tournament=row).game_id


def test_junk_in_reads_and_replay_forms():
    world: dict[str, Any] = {
        "live": Arena("tiny", "http-pages"),
        "finished": _finished_game(),
        "log": streams.open_stream("tournament"),
        "user": get_user_model().objects.create_user("reader"),
        "hint": _hint_tables(),
    }
    world["hint_tokens"] = {
        table.pk: {str(s.number): s.token for s in Seat.objects.filter(game=table)}
        for table in world["hint"].values()
    }
    world["tournament"] = tournaments.create("Junk Cup", "kazino", "swiss", {}, by=world["user"]).pk
    world["running"] = _running_cup(world["user"])
    started = time.perf_counter()

    @fuzz_settings("http-pages")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _probe_read(world, data)

    try:
        run()
    finally:
        TALLY.channel("http-pages").seconds += time.perf_counter() - started
