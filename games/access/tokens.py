"""Personal API tokens: a signed-in player's key for the public API (docs/api.md "Tokens").

A token is ``th_`` and 43 random characters; the database keeps its SHA-256 digest only (a token has
256 bits of chance: no salt or slow hash is needed against guessing, and a stolen database gives no
token away). It is shown once, when it is made. Each token carries scopes: ``play`` (make and join
tables, move for one's seats), ``read`` (one's seats' views and hand histories), ``organise`` (every
hand of the games one organised, after their end). A revoked token is refused at once, and the streams it opened end
(games/access/credentials.py).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.access import credentials
from games.engines.base import _
from games.errors import ServiceError
from games.models import ApiToken

PREFIX = "th_"
SCOPES = tuple(ApiToken.Scope.values)
MAX_TOKENS = 20  # live tokens per player
# last_used_at is written at most this often per token: a bot's every move must not write a row.
TOUCH_EVERY = timedelta(minutes=5)


class Unauthorized(ServiceError):
    status = 401


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def create(user: Any, name: str, scopes: Iterable[str]) -> tuple[ApiToken, str]:
    """A new token for ``user``: the row and the token itself (to be shown once, never stored)."""
    chosen = sorted(set(scopes))
    if not chosen or any(s not in SCOPES for s in chosen):
        raise ServiceError("bad_scopes", _("Choose at least one of the scopes play, organise and read."))
    name = name.strip()
    if not name or len(name) > 64:
        raise ServiceError("bad_name", _("Give the token a name of 1 to 64 characters."))
    if live(user).count() >= MAX_TOKENS:
        raise ServiceError("too_many_tokens", _("You have too many tokens: revoke one first."))
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(
        user=user, name=name, prefix=token[:8], digest=digest(token), scopes=",".join(chosen)
    )
    return row, token


def live(user: Any) -> Any:
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True)


def revoke(user: Any, token_id: Any) -> bool:
    """Revoke one of ``user``'s tokens; False when they have no such live token."""
    if isinstance(token_id, bool) or not isinstance(token_id, int):
        return False
    if live(user).filter(pk=token_id).update(revoked_at=timezone.now()) != 1:
        return False
    # Its open streams end too, within a second, not only its next requests (#37).
    credentials.close(credentials.token_group(token_id))
    return True


def authenticate(header: str | None) -> ApiToken | None:
    """The live token an ``Authorization`` header presents; None when there is no such header;
    Unauthorized when it presents something that is not a live token (never a silent anonymous)."""
    if header is None:
        return None
    scheme, _space, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not value:
        raise Unauthorized("bad_token", _("Send your API token as: Authorization: Bearer <token>."))
    row = (
        ApiToken.objects.select_related("user").filter(digest=digest(value), revoked_at__isnull=True).first()
    )
    if row is None or not row.user.is_active:
        raise Unauthorized("bad_token", _("This API token is unknown or was revoked."))
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row
