"""``python -m infra.edge``: the spectator edge's process (or processes sharing its port)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import time
from typing import Any

from infra.edge import __doc__ as overview

# Seconds a child of the edge may take to stop after SIGTERM (closing its sockets waits for their
# clients' answers, close_timeout 10 s, and for Redis, server.STOP_TIMEOUT): then it is killed.
STOP_BOUND = 15.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=overview, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--host", default=os.environ.get("EDGE_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("EDGE_PORT", "8003")))
    parser.add_argument(
        "--processes",
        type=int,
        default=int(os.environ.get("EDGE_PROCESSES", "1")),
        help="processes sharing the port (SO_REUSEPORT): a table's fan-out spread over cores",
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
    import django

    django.setup()
    from django.conf import settings

    if not settings.REDIS_URL or not settings.SPECTATOR_SOCKET:
        raise SystemExit("the spectator edge needs REDIS_URL and SPECTATOR_SOCKET (docs/deploying.md)")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)
    if args.processes <= 1:
        _serve(settings.REDIS_URL, settings.SPECTATOR_SOCKET, args.host, args.port, reuse_port=False)
        return
    # Each child is a whole edge (its own subscriptions): the kernel spreads new sockets over them.
    children = []
    for _ in range(args.processes):
        pid = os.fork()
        if pid == 0:
            try:
                _serve(settings.REDIS_URL, settings.SPECTATOR_SOCKET, args.host, args.port, reuse_port=True)
            finally:
                os._exit(0)
        children.append(pid)

    stopping: list[float] = []  # when the stop was asked

    def forward(signum: int, _frame: Any) -> None:
        stopping.append(time.monotonic())
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    left = set(children)
    while left:
        for child in list(left):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(child, os.WNOHANG)[0] == 0:
                    continue
            left.discard(child)
        if left and stopping and time.monotonic() - stopping[0] > STOP_BOUND:
            # A child that has not ended in time is ended: a stop is bounded, whatever a child waits for
            # (its port and its database sessions would be held after the edge is gone).
            for child in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
        time.sleep(0.1)


def _serve(redis_url: str, prefix: str, host: str, port: int, reuse_port: bool) -> None:
    from infra.edge.server import Edge

    edge = Edge(redis_url, prefix)
    try:
        import uvloop
    except ImportError:
        asyncio.run(edge.run(host, port, reuse_port=reuse_port))
    else:
        uvloop.run(edge.run(host, port, reuse_port=reuse_port))


if __name__ == "__main__":
    main()
