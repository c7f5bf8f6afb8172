"""A client of the public API for the tests: a personal token, JSON in and out."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from games.access import tokens


def user(name: str = "ada", **kwargs: Any) -> Any:
    return get_user_model().objects.create_user(name, **kwargs)


def token_for(who: Any, scopes: tuple[str, ...] = ("play", "read")) -> str:
    return tokens.create(who, "test", scopes)[1]


class Api:
    """Speaks to /api/v1/ as a script would: a bearer token and/or a seat credential, no cookie."""

    def __init__(self, token: str | None = None, seat_token: str | None = None) -> None:
        self.client = Client()
        self.token = token
        self.seat_token = seat_token

    def headers(self) -> dict[str, str]:
        out = {}
        if self.token is not None:
            out["HTTP_AUTHORIZATION"] = f"Bearer {self.token}"
        if self.seat_token is not None:
            out["HTTP_X_SEAT_TOKEN"] = self.seat_token
        return out

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(f"/api/v1{path}", params, **self.headers())

    def post(self, path: str, body: Any) -> Any:
        data = body if isinstance(body, (str, bytes)) else json.dumps(body)
        return self.client.post(f"/api/v1{path}", data, content_type="application/json", **self.headers())
