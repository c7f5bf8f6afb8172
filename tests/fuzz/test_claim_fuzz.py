"""Fuzzing the seat credentials: invite claims over HTTP and the table socket's handshake.

Invites: every method, code (open, used, another table's, a seat's credential, junk), table (its own,
another, unknown, a tournament's log) and visitor (anonymous, signed in, a seat's holder). The only
input that changes anything is a POST of an open invite to its own table: that seat is then taken by
the visitor, with a new credential kept in the visitor's session only. Everything else changes no
seat and no invite and grants nothing; no answer carries a credential; none is a server error.

Handshakes: every ``?seat=`` (numbers, junk, repeated, missing), credential header (a seat's, a replaced
one, an open seat's, another table's, junk bytes, empty), ``?token=`` and session (anonymous, signed
in, holding seats). The socket must play exactly the seat the rules of games/access/seats.py give, watch as a
spectator only when nothing was claimed, and refuse everything else with its code and close.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from games.access.seats import SESSION_KEY
from games.commands.create import SeatSpec, create_game
from games.eventlog import streams
from games.models import Invite, Seat
from tests.replay.sockets import app

from . import strategies as fz
from .budget import fuzz_settings
from .tally import TALLY

pytestmark = pytest.mark.django_db(transaction=True)
METHODS = ["get", "get", "post", "post", "post", "put", "delete", "patch"]


@dataclass
class Tables:
    """Tiny tables of three: seat 0 the owner's, seats 1 and 2 open; new ones as seats are taken."""

    owner: Any
    games: list[int] = field(default_factory=list)
    log: int = 0

    def __post_init__(self) -> None:
        self.log = streams.open_stream("tournament")
        self.add()
        self.add()

    def add(self) -> None:
        seats = [SeatSpec("owner", user=self.owner)] + [
            SeatSpec("Open seat", awaiting_player=True) for _ in range(2)
        ]
        self.games.append(create_game("tiny", {"players": 3, "goal": 1000}, seats).pk)

    def refill(self) -> None:
        if not Seat.objects.filter(game__in=self.games, awaiting_player=True).exists():
            self.add()

    def seats(self) -> dict[tuple[int, int], tuple[Any, ...]]:
        rows = Seat.objects.filter(game__in=self.games)
        return {(s.game_id, s.number): (s.awaiting_player, s.user_id, s.display_name, s.token) for s in rows}

    def invites(self) -> dict[str, tuple[int, int, bool]]:
        rows = Invite.objects.filter(seat__game__in=self.games).select_related("seat")
        return {i.code: (i.seat.game_id, i.seat.number, i.used_at is not None) for i in rows}


def _kept(client: Client) -> dict[str, Any]:
    return dict(client.session.get(SESSION_KEY) or {})


def _probe_invite(tables: Tables, visitors: dict[str, Client], data: st.DataObject) -> None:
    tables.refill()
    seats, invites = tables.seats(), tables.invites()
    open_codes = [code for code, (game, n, used) in invites.items() if not used and seats[(game, n)][0]]
    used_codes = [code for code, (_g, _n, used) in invites.items() if used] or open_codes
    kind = fz.pick(data, ["open", "open", "used", "credential", "junk", "long", "old_link"], "code kind")
    code = {
        "open": fz.pick(data, open_codes, "open code"),
        "used": fz.pick(data, used_codes, "used code"),
        "credential": fz.pick(data, sorted(s[3] for s in seats.values()), "a credential"),
        "junk": data.draw(fz.body_text.filter(lambda s: "\x00" not in s), label="junk"),
        "long": "A" * data.draw(st.sampled_from([44, 64, 65, 2000])),
        "old_link": fz.pick(data, sorted(s[3] for s in seats.values()), "a credential"),
    }[kind]
    own = invites[code][0] if code in invites else fz.pick(data, tables.games, "table")
    game = fz.pick(data, [own, own, own, *tables.games, tables.log, 999_999_999, 10**20], "table")
    method = fz.pick(data, METHODS, "method")
    who = fz.pick(data, sorted(visitors), "visitor")
    client = visitors[who] if who != "fresh" else Client()
    route = "join" if kind == "old_link" else "invite"
    url = f"/tables/{game}/{route}/{quote(code, safe='')}/"
    kept = _kept(client)
    try:
        response = getattr(client, method)(url)
    except Exception:
        TALLY.channel("http-invites").server_errors += 1
        raise
    channel = TALLY.channel("http-invites")
    channel.sent += 1
    channel.kinds[f"{method} {kind}"] += 1
    channel.outcomes[str(response.status_code)] += 1
    assert response.status_code < 500, (url, response.status_code)
    body = response.content.decode(errors="replace")
    after = tables.seats()
    # A page may quote its own address (the language switcher does): a credential the visitor sent.
    tokens = ({s[3] for s in seats.values()} | {s[3] for s in after.values()}) - {code}
    assert not any(t in body for t in tokens), f"{url}: the answer carries a seat credential"
    # Only an open invite, posted to its own table, claims (a "used" draw is an open one while none is used).
    claims = method == "post" and route == "invite" and code in open_codes and game == own
    if not claims:
        assert response.status_code in (200, 404, 405, 410) and (
            response.status_code != 200 or method == "get"
        )
        assert after == seats and tables.invites() == invites, f"{method} {url} changed a seat or an invite"
        assert _kept(client) == kept, f"{method} {url} gave the visitor a credential"
        return
    assert response.status_code == 302, (url, response.status_code)
    game_id, number, _used = invites[code]
    changed = {key for key in after if after[key] != seats[key]}
    assert changed == {(game_id, number)}, changed
    awaiting, user_id, _name, token = after[(game_id, number)]
    assert not awaiting and token != seats[(game_id, number)][3]
    assert user_id == (client.session.get("_auth_user_id") and int(client.session["_auth_user_id"]))
    assert tables.invites()[code][2], "the invite is used"
    assert _kept(client).get(str(game_id), {}).get(str(number)) == token, (
        "the new credential is the claimer's"
    )


def test_hostile_invite_claims():
    owner = get_user_model().objects.create_user("table-owner")
    tables = Tables(owner)
    signed_in = Client()
    signed_in.force_login(get_user_model().objects.create_user("claimer"))
    holder = Client()  # a guest whose session holds seat 0 of the first table
    session = holder.session
    first = Seat.objects.get(game_id=tables.games[0], number=0)
    session[SESSION_KEY] = {str(first.game_id): {"0": first.token}}
    session.save()
    visitors = {"fresh": Client(), "guest": Client(), "signed in": signed_in, "holder": holder}
    started = time.perf_counter()

    @fuzz_settings("http-invites")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _probe_invite(tables, visitors, data)

    try:
        run()
    finally:
        TALLY.channel("http-invites").seconds += time.perf_counter() - started


# --- The table socket's handshake ---------------------------------------------------------------------


def _session(user: Any, kept: dict[str, dict[str, str]]) -> str:
    """A session cookie's value: signed in as ``user`` (or nobody), keeping ``kept`` credentials."""
    if user is not None:
        client = Client()
        client.force_login(user)
        store = SessionStore(session_key=client.cookies["sessionid"].value)
    else:
        store = SessionStore()
    if kept:
        store[SESSION_KEY] = kept
    store.save()
    return str(store.session_key)


def _expected(
    seats: list[Seat],
    user_id: int | None,
    kept: dict[str, str],
    token: bytes | None,
    wanted: list[str] | None,
) -> tuple[str, int | None]:
    """What games/access/seats.py says the handshake gets: ("state", seat or None) or ("not_your_seat",
    None)."""
    presented = token.decode("latin-1") if token else None
    held = set()
    for s in seats:
        if s.awaiting_player:
            continue
        if presented is not None:
            if presented == s.token:
                held.add(s.number)
        elif (user_id is not None and s.user_id == user_id and not s.bot_level) or kept.get(
            str(s.number)
        ) == s.token:
            held.add(s.number)
    if wanted is not None:
        number = wanted[0] if len(wanted) == 1 else ""
        if number.isascii() and number.isdigit() and len(number) <= 2 and int(number) in held:
            return "state", int(number)
        return "not_your_seat", None
    if held:
        return "state", min(held)
    return ("not_your_seat", None) if presented is not None else ("state", None)


def test_hostile_table_socket_handshakes():
    import asyncio

    users = [get_user_model().objects.create_user(f"player-{n}") for n in range(2)]
    specs = [
        SeatSpec("one", user=users[0]),
        SeatSpec("two", user=users[1]),
        SeatSpec("guest"),
        SeatSpec("Open seat", awaiting_player=True),
    ]
    game = create_game("tiny", {"players": 3, "goal": 1000}, specs[:3])
    other = create_game("tiny", {"players": 3, "goal": 1000}, [specs[0], specs[2], specs[3]])
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    foreign = [s.token for s in Seat.objects.filter(game=other)]  # the open seat's among them
    guest = seats[2].token
    sessions = {
        "none": (None, {}),
        "player one": (users[0], {}),
        "guest": (None, {"2": guest}),
        "guest, stale": (None, {"2": guest[::-1]}),
        "player two and the guest": (users[1], {"2": guest}),
    }
    cookies = {
        name: _session(user, {str(game.pk): kept} if kept else {}) for name, (user, kept) in sessions.items()
    }
    loop = asyncio.new_event_loop()
    channel = TALLY.channel("socket-handshakes")
    started = time.perf_counter()

    async def handshake(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[dict[str, Any], Any]:
        ws = WebsocketCommunicator(app, path, headers=headers)
        connected, code = await ws.connect(timeout=10)
        if not connected:
            return {}, code
        first = json.loads((await ws.receive_output(timeout=10))["text"])
        if first["type"] == "error":
            after = await ws.receive_output(timeout=10)
            return first, after.get("code")
        await ws.disconnect()
        return first, "open"

    @fuzz_settings("socket-handshakes")
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        name = fz.pick(data, sorted(sessions), "session")
        wanted = data.draw(
            st.one_of(
                st.none(),
                st.lists(
                    st.one_of(st.sampled_from(["0", "1", "2", "3", "00", "-1", "٣", "²", ""]), fz.body_text),
                    min_size=1,
                    max_size=2,
                ),
            ),
            label="seat",
        )
        wanted = [w.replace("\x00", "") for w in wanted] if wanted is not None else None
        token = data.draw(
            st.one_of(
                st.none(),
                st.sampled_from([s.token.encode() for s in seats] + [t.encode() for t in foreign]),
                st.binary(max_size=60).filter(
                    lambda b: b"\x00" not in b and b"\r" not in b and b"\n" not in b
                ),
            ),
            label="credential",
        )
        in_address = data.draw(st.integers(0, 2**16), label="token in the address") % 8 == 3
        query = [("seat", w) for w in wanted or []] + ([("token", guest)] if in_address else [])
        path = f"/ws/tables/{game.pk}/" + (f"?{urlencode(query)}" if query else "")
        headers = [(b"cookie", f"sessionid={cookies[name]}".encode())]
        if token is not None:
            headers.append((b"x-seat-token", token))
        try:
            first, how = loop.run_until_complete(handshake(path, headers))
        except Exception:
            channel.server_errors += 1
            raise
        user = sessions[name][0]
        kept = sessions[name][1]
        if in_address:
            expect: tuple[str, int | None] = ("token_in_address", None)
        else:
            expect = _expected(seats, user.pk if user else None, kept, token, wanted)
        got = (first.get("code") or first.get("type"), first.get("seat"))
        channel.sent += 1
        channel.kinds[name] += 1
        channel.outcomes[str(got[0])] += 1
        assert got == expect, (path, name, token, first, how)
        assert how == {"state": "open", "not_your_seat": 4403, "token_in_address": 4400}[expect[0]], how
        assert first.get("message") or first["type"] == "state"

    try:
        run()
    finally:
        channel.seconds += time.perf_counter() - started
        from channels.db import database_sync_to_async
        from django.db import connections

        loop.run_until_complete(database_sync_to_async(connections.close_all)())
        loop.close()
