"""Errors the games service reports: a stable code and a sentence a player understands."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import InterfaceError, OperationalError

from games.engines.base import IllegalAction, Refusal, _
from games.models import Game

log = logging.getLogger(__name__)


class ServiceError(Refusal):
    """Refused input. ``code`` is stable (clients switch on it); ``message`` is an English template."""

    status = 400

    def localized(self) -> dict[str, Any]:
        """Code and sentence in the active language (the request's, or the socket's: games.words.i18n).

        The template is looked up in the catalogue, then the parameters are filled in; a string
        parameter that is a word of the game (games.words.i18n.PARAMETER_WORDS) is translated too.
        """
        from django.utils.translation import gettext, pgettext

        from games.words.i18n import PARAMETER_CONTEXT

        params = {
            key: pgettext(PARAMETER_CONTEXT, value) if isinstance(value, str) else value
            for key, value in self.params.items()
        }
        text = gettext(self.message)
        try:
            text = text.format(**params)
        except (KeyError, IndexError, ValueError):
            text = self.text
        return {"code": self.code, "message": text}

    @classmethod
    def from_illegal(cls, exc: IllegalAction) -> ServiceError:
        return cls(exc.code, exc.message, **exc.params)


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


def casual_only(
    game: Game, *, tournament: tuple[str, str], lesson: tuple[str, str], rated: tuple[str, str]
) -> None:
    """Refuse, with the refusal (code, sentence) given for the table's kind, what only a casual table
    allows (docs/security.md "Rated and casual")."""
    if game.kind == Game.Kind.CASUAL:
        return
    kinds = {Game.Kind.TOURNAMENT: tournament, Game.Kind.LESSON: lesson}
    raise Forbidden(*kinds.get(Game.Kind(game.kind), rated))


class CommandReused(ServiceError):
    """A command id already stored for another command: nothing was appended (a retry must resend
    the same command)."""

    status = 409

    def __init__(self) -> None:
        super().__init__(
            "command_reused",
            _("This command id was already used for another move: send the move with a new id."),
        )


class Conflict(ServiceError):
    """The game moved on since the client's ``expected_seq``: nothing was appended."""

    status = 409

    def __init__(self, expected_seq: int, actual_seq: int) -> None:
        super().__init__(
            "stale_seq",
            _(
                "The table has moved on since you looked (you saw event {expected}, it is now at {actual}): "
                "look at the table again, then play."
            ),
            expected=expected_seq,
            actual=actual_seq,
        )
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class DatabaseUnavailable(ServiceError):
    """The database could not be reached, or the connection was lost in the middle of a command.

    A command cut off that way is either stored whole or not at all (one INSERT, or one transaction
    when it also changes the game's status): sending it again with the same command id stores it
    once (``duplicate`` when the first attempt had been stored).
    """

    status = 503

    def __init__(self) -> None:
        super().__init__(
            "database_unavailable", _("The database is not available right now: try again in a moment.")
        )


class LiveUnavailable(ServiceError):
    """The live updates' connection (Redis pub/sub) could not be opened: the table is fine, its stream
    is not available for now. Nothing was changed; opening it again later resumes it (``since``)."""

    status = 503

    def __init__(self) -> None:
        super().__init__(
            "live_unavailable", _("Live updates are not available right now: try again in a moment.")
        )


@contextmanager
def database_guard() -> Iterator[None]:
    """Turn a lost or unreachable database into DatabaseUnavailable (503, a code and a sentence).

    Only OperationalError and InterfaceError (a lost connection, a server down or restarting, a
    deadlock): the other database errors are bugs and stay server errors.
    """
    try:
        yield
    except (OperationalError, InterfaceError) as exc:
        log.warning("database unavailable: %s: %s", type(exc).__name__, str(exc).strip()[:200])
        raise DatabaseUnavailable() from exc
