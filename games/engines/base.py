"""What every engine shares: the error type, the JSON shapes, and the contract.

Engines are pure Python (stdlib only): no Django, no I/O, no clock, and
``apply`` never draws a random number. See ARCHITECTURE.md and DESIGN.md.

The contract in detail (JSON rules, extra hooks): games/engines/CONTRACT.md.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, TypeAlias

Event: TypeAlias = dict[str, Any]
Action: TypeAlias = dict[str, Any]
View: TypeAlias = dict[str, Any]
Config: TypeAlias = dict[str, Any]


def _(message: str) -> str:
    """Mark an English sentence for translation without importing Django.

    ``makemessages`` picks up ``_("...")`` calls; the web layer translates the
    sentence by looking it up in the catalogue, then formats ``params`` into it.
    """
    return message


class Refusal(Exception):
    """A stable ``code`` and a sentence for players: what the engine and the service refuse with.

    ``message`` is an English template with ``{name}`` placeholders filled from
    ``params``; keep the template constant so it can be translated.
    """

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


class IllegalAction(Refusal):
    """A refused action or config (games.errors.ServiceError is the service's own refusal)."""


class Engine(Protocol):
    """The module interface of every engine (DESIGN.md, "The engine contract")."""

    NAME: str
    VERSION: int

    def default_config(self, players: int) -> Config: ...
    def validate_config(self, config: Config) -> Config: ...
    def sample_configs(self) -> list[Config]: ...
    def start(self, config: Config, seed: int) -> list[Event]: ...
    def apply(self, state: Any, event: Event) -> Any: ...
    def replay(self, events: list[Event]) -> Any: ...
    def to_act(self, state: Any) -> list[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...
    def decide(self, state: Any, seat: int, action: Action) -> list[Event]: ...
    def view(self, state: Any, seat: int | None) -> View: ...
    def reveal(self, state: Any) -> View: ...
    def outcome(self, state: Any) -> dict[str, Any] | None: ...
    def determinize(self, view: View, rng: random.Random) -> Any: ...
    def components(self, state: Any) -> list[Any]: ...
    def hidden_from(self, state: Any, seat: int | None) -> list[str]: ...
