"""A client of Tablehall's public API, version 1 (docs/api.md). Depends on httpx only.

Every refusal raises ``ApiError`` with the API's stable ``code`` (docs/api.md lists them). Busy
answers (429 rate_limited, 503 database_unavailable) are retried after their Retry-After, with the
same command id, so a move is never played twice.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

__all__ = ["ApiError", "Client", "Table"]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, fields: list[str] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.fields = status, code, message, fields or []


@dataclass(frozen=True)
class Table:
    id: int
    seat: int  # your first seat
    credentials: dict[int, str]  # seat -> its credential (X-Seat-Token)
    invites: dict[int, str]  # seat -> invite code


class Client:
    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        retries: int = 5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(
            base_url=base_url.rstrip("/") + "/api/v1", headers=headers, transport=transport
        )
        self.retries, self.sleep = retries, sleep

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        for attempt in range(self.retries + 1):
            response = self.http.request(method, path, **kwargs)
            if response.status_code in (429, 503) and attempt < self.retries:
                self.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            body = response.json()
            if response.status_code >= 400:
                error = body.get("error", {})
                raise ApiError(
                    response.status_code,
                    error.get("code", "?"),
                    error.get("message", ""),
                    error.get("fields"),
                )
            return body
        raise AssertionError("unreachable")

    def me(self) -> dict[str, Any]:
        return self._call("GET", "/me")

    def lobby(self) -> dict[str, Any]:
        return self._call("GET", "/lobby")

    def create_table(
        self,
        game: str,
        seats: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
        kind: str = "casual",
    ) -> Table:
        made = self._call(
            "POST", "/tables", json={"game": game, "seats": seats, "options": options or {}, "kind": kind}
        )
        credentials = {c["seat"]: c["credential"] for c in made["credentials"]}
        invites = {i["seat"]: i["code"] for i in made["invites"]}
        return Table(made["table"], min(credentials), credentials, invites)

    def join(self, table: int, seat: int | None = None, code: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/tables/{table}/join", json={"seat": seat, "code": code})

    def state(self, table: int, seat: int | None = None) -> dict[str, Any]:
        return self._call("GET", f"/tables/{table}/state", params={} if seat is None else {"seat": seat})

    def act(
        self,
        table: int,
        action: dict[str, Any],
        seat: int | None = None,
        expected_seq: int | None = None,
        command_id: str | None = None,
    ) -> dict[str, Any]:
        # An id of our own, so that a retry after a lost answer can never play the move twice.
        body = {
            "action": action,
            "seat": seat,
            "expected_seq": expected_seq,
            "command_id": command_id or uuid.uuid4().hex,
        }
        return self._call("POST", f"/tables/{table}/actions", json=body)

    def history(self, table: int, perspective: str | int = "public", views: str = "end") -> dict[str, Any]:
        return self._call(
            "GET", f"/tables/{table}/history", params={"perspective": str(perspective), "views": views}
        )
