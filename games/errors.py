"""Errors the games service reports: a stable code and a sentence a player understands."""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction, _


class ServiceError(Exception):
    """Refused input. ``code`` is stable (clients switch on it); ``message`` is an English template."""

    status = 400

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(self.text)

    @property
    def text(self) -> str:
        try:
            return self.message.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.message

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.text}

    def localized(self) -> dict[str, Any]:
        """Code and sentence in the active language (the request's, or the socket's: games.i18n).

        The template is looked up in the catalogue, then the parameters are filled in; a string
        parameter that is a word of the game (games.i18n.PARAMETER_WORDS) is translated too.
        """
        from django.utils.translation import gettext, pgettext

        from games.i18n import PARAMETER_CONTEXT

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
            _("The table has moved on since you looked (you saw move {expected}, it is now at {actual})."),
            expected=expected_seq,
            actual=actual_seq,
        )
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
