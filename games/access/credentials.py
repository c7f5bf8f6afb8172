"""A credential's end reaches what it opened (#37): a revoked API token, a seat credential presented in
``X-Seat-Token``, a signed-out session — each open stream and socket that was opened with it joins the
credential's channel-layer group, and the end of the credential is one ``credential.closed`` message
to that group. The stream (frontend/api/streams.py) stops; a socket (games/live/sockets.py) closes with
``CLOSED``. Nothing polls the database: the message arrives as fast as a move's update does.

Group names hold a digest of the credential, never the credential itself (they live in Redis).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from games.access.seats import _SCOPE_HEADER

log = logging.getLogger(__name__)
MESSAGE = "credential.closed"
# Close code of a socket whose credential ended (docs/live-tables.md): the client does not connect again
# with it; a page opened afresh asks who the visitor now is.
CLOSED = 4401


def _name(kind: str, secret: str) -> str:
    # 100 characters at most, ASCII letters, digits, '-', '_' and '.' (Channels' rule for group names).
    return f"credential-{kind}-{hashlib.sha256(secret.encode('utf-8', 'replace')).hexdigest()[:40]}"


def token_group(token_id: int) -> str:
    """An API token's (by its row: its digest is already what the database keeps)."""
    return f"credential-token-{int(token_id)}"


def seat_group(seat_token: str) -> str:
    """A seat credential's, as presented in ``X-Seat-Token``."""
    return _name("seat", seat_token)


def session_group(session_key: str) -> str:
    """A browser session's."""
    return _name("session", session_key)


def of_scope(scope: Mapping[str, Any]) -> list[str]:
    """The groups of the credentials a socket's handshake presents: its session, its X-Seat-Token."""
    groups = []
    session = scope.get("session")
    with contextlib.suppress(Exception):  # no session middleware, or a session not yet resolved
        key = session.session_key if session is not None else None
        if key:
            groups.append(session_group(key))
    for name, value in scope.get("headers") or []:
        if name.lower() == _SCOPE_HEADER and value:
            groups.append(seat_group(value.decode("latin-1")))
            break
    return groups


def close(group: str) -> None:
    """End what ``group``'s credential opened, once the transaction that ended it commits (a rolled-back
    revocation closes nothing)."""

    def send() -> None:
        from games.live import publish

        try:
            publish.group_send(group, {"type": MESSAGE})
        except Exception:  # the credential is ended in the database either way; every new request is refused
            log.exception("could not close the streams of an ended credential")

    transaction.on_commit(send)


def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        close(session_group(key))
