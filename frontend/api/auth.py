"""Who calls the public API: a personal token (``Authorization: Bearer``, games/access/tokens.py) and/or a
seat's credential (``X-Seat-Token``, issued by the API when it seats the caller).

The session cookie is never read here: a request is authorised by what it presents, which another
site cannot make a browser send, so the API needs no CSRF token. A token that is wrong, revoked or
badly written is refused (401 ``bad_token``), never treated as no token at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from games.access import seats, tokens
from games.access.seats import TOKEN_HEADER
from games.engines.base import _
from games.errors import Forbidden, ServiceError
from games.models import ApiToken


@dataclass(frozen=True)
class Caller:
    token: ApiToken | None
    seat_token: str | None  # a seat's credential, presented in X-Seat-Token

    def __bool__(self) -> bool:  # ninja takes a falsy answer for "not authenticated"
        return True

    @property
    def user(self) -> Any:
        return self.token.user if self.token is not None else None

    def has(self, *scopes: str) -> bool:
        return self.token is not None and bool(self.token.scope_set & set(scopes))

    def need(self, scope: str) -> Any:
        """The token's user, when the token carries ``scope``; Forbidden otherwise."""
        if self.token is None:
            raise Unauthorized("sign_in", _("Send a personal API token: Authorization: Bearer <token>."))
        if scope not in self.token.scope_set:
            raise Forbidden(
                "missing_scope",
                _("This token does not have the {scope} scope: make one that does."),
                scope=scope,
            )
        return self.token.user

    def requester(self, *scopes: str) -> seats.Requester:
        """Who asks for a seat (games/access/seats.py): the seat credential presented, else the token's user
        if the token carries one of ``scopes``."""
        if self.seat_token is None and self.token is not None and not self.has(*scopes):
            raise Forbidden(
                "missing_scope",
                _("This token does not have the {scope} scope: make one that does."),
                scope=scopes[0],
            )
        return seats.Requester(user=self.user if self.has(*scopes) else None, token=self.seat_token)


Unauthorized = tokens.Unauthorized


class TokenAuth(HttpBearer):
    """Optional bearer authentication: a route with it answers anyone, and knows who asks."""

    def __call__(self, request: HttpRequest) -> Caller:
        token = tokens.authenticate(request.headers.get("Authorization"))
        seat_token = request.headers.get(TOKEN_HEADER) or None
        return Caller(token, seat_token)

    def authenticate(self, request: HttpRequest, token: str) -> Caller:  # the base class asks for it
        return self(request)


def caller(request: HttpRequest) -> Caller:
    found = getattr(request, "auth", None)
    if not isinstance(found, Caller):
        raise ServiceError("bad_request", _("The request could not be authenticated."))
    return found
