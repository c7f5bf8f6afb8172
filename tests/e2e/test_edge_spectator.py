"""A spectator's table page watched through the spectator edge (infra/edge/), as deployed: a Daphne
process and the edge (the Procfile's command lines, SPECTATOR_SOCKET set, on Redis) behind a router that
sends ``/ws/watch/`` to the edge and the rest to Daphne, as nginx does. The players move through
Daphne's API; the page shows each move as it comes, and nothing a seat hides reaches it."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from games.commands.create import SeatSpec, create_game
from games.models import Event, Seat
from tests.faults.test_edge import move
from tests.processes import ROOT, Processes, app_env, free_port, procfile, report_failed

from .conftest import CHROMIUM

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

WATCH = "/ws/watch/"
MOVES = 6
START = 60.0


class Router:
    """nginx's routing for this test: a connection whose request is for ``/ws/watch/`` goes to the edge,
    any other to Daphne. Each connection's targets are kept, so the test knows who served the page's
    socket."""

    def __init__(self, web: int, edge: int) -> None:
        self.web, self.edge = web, edge
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.routed: list[tuple[str, int]] = []  # (request line, port)
        self.sockets: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, name="e2e-router", daemon=True).start()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.close()
        with self.lock:
            for sock in self.sockets:
                _shut(sock)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._route, args=(client,), daemon=True).start()

    def _route(self, client: socket.socket) -> None:
        first = _recv(client)
        line = first.split(b"\r\n", 1)[0].decode("latin-1")
        port = self.edge if line.startswith(f"GET {WATCH}") else self.web
        try:
            upstream = socket.create_connection(("127.0.0.1", port))
        except OSError:
            _shut(client)
            return
        with self.lock:
            self.routed.append((line, port))
            self.sockets |= {client, upstream}
        upstream.sendall(first)
        threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()
        _pump(client, upstream)


def _pump(source: socket.socket, target: socket.socket) -> None:
    while data := _recv(source):
        try:
            target.sendall(data)
        except OSError:
            break
    _shut(target)


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


@dataclass
class Site:
    base: str  # the router, as the browser sees the site
    web: str  # Daphne itself, for the players' API calls
    router: Router
    processes: Processes
    edge_port: int
    frames: list[str] = field(default_factory=list)


@pytest.fixture
def site(request) -> Iterator[Site]:  # type: ignore[no-untyped-def]
    in_ci = os.environ.get("CI", "").lower() == "true"
    for missing, why in (
        (not Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}"),
        (not os.environ.get("REDIS_URL"), "the spectator edge needs Redis (REDIS_URL)"),
    ):
        if missing and in_ci:
            pytest.fail(f"CI=true but {why}", pytrace=False)
        if missing:
            pytest.skip(why)
    processes = Processes(
        logs_dir=ROOT / "var" / "e2e-edge" / request.node.name[:80],
        env=app_env(SPECTATOR_SOCKET=WATCH, JOBS="off", EXTRA_ENGINES="tiny=tests.games.tiny_engine"),
    )
    router = None
    try:
        web = processes.start_web("web")
        edge_port = free_port()
        processes.start("edge", procfile()["edge"], EDGE_PORT=str(edge_port))
        processes.wait_ready(["web", "edge"], START)
        router = Router(int(web.rsplit(":", 1)[1]), edge_port)
        yield Site(f"http://127.0.0.1:{router.port}", web, router, processes, edge_port)
    finally:
        if router is not None:
            router.close()
        processes.stop()
        if report_failed(request):
            print(processes.tails())


def test_a_spectator_page_watches_the_players_move_live_through_the_edge(site: Site, browser):
    seats = [SeatSpec("Guest 1", name_role="guest"), SeatSpec("Guest 2", name_role="guest")]
    game = create_game("tiny", {"players": 2, "goal": 20}, seats)
    tokens = [s.token for s in Seat.objects.filter(game=game).order_by("number")]
    secrets = Event.objects.get(game_id=game.pk, type="deal").data["secrets"]
    assert secrets  # each seat's hidden card: never for a spectator

    context = browser.new_context(viewport={"width": 1100, "height": 900}, base_url=site.base)
    context.set_default_timeout(START * 1000)
    try:
        page = context.new_page()
        sockets: list[str] = []

        def opened(ws: Any) -> None:
            sockets.append(ws.url)
            ws.on("framereceived", lambda payload: site.frames.append(str(payload)))

        page.on("websocket", opened)
        page.goto(f"/tables/{game.pk}/")
        seq = game.events.count()
        page.wait_for_function(
            f"window.tableClient && window.tableClient.snap && window.tableClient.snap.seq === {seq}"
        )
        for n in range(MOVES):  # bounded: one move a turn, each seen by the page before the next
            seq = move(site.web, game, n % 2, tokens[n % 2], f"m{n}", seq)["seq"]
            page.wait_for_function(f"window.tableClient.snap.seq === {seq}")
        page.wait_for_function(
            f"document.querySelector('.generic-view').textContent.includes('\"total\": {MOVES}')"
        )
        log_items = page.locator("#log-list li").count()
    finally:
        context.close()

    assert sockets == [f"ws://127.0.0.1:{site.router.port}{WATCH}{game.pk}/"]
    assert [port for line, port in site.router.routed if line.startswith(f"GET {WATCH}")] == [site.edge_port]
    messages = [json.loads(frame) for frame in site.frames]
    assert [m["type"] for m in messages] == ["state"] + ["update"] * MOVES  # live, one frame a move
    assert [m["seq"] for m in messages[1:]] == list(range(messages[0]["seq"] + 1, seq + 1))
    for frame, message in zip(site.frames, messages, strict=True):
        assert message["seat"] is None and message["legal_actions"] == []
        assert message["view"]["secret"] is None
        assert not any(f'"{card}"' in frame for card in secrets), frame
    assert log_items >= MOVES
    assert "spectator edge lost Redis" not in site.processes.log("edge")
