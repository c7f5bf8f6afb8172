"""What runs once a command is durable: the after-commit hooks.

The service does not import the parts that react to a change; they register here instead
(``games.live.publish`` sends each audience its view, ``games.computers.worker`` schedules the computer seats
that are to act, ``infra.metrics`` counts moves), and the service runs them with the table it built for the
command: nothing loads the table again in the same process (ARCHITECTURE.md "One move").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.eventlog.tables import Table

log = logging.getLogger(__name__)

# What a change is: a command just stored; a retry of the table's last command (its first attempt may
# have lost its connection after the commit, before publishing and waking the computer seats); a game
# whose deal was released (only its spectators' picture changes).
STORED, RETRIED, RELEASED = "stored", "retried", "released"


@dataclass(frozen=True)
class Change:
    table: Table  # the table after the command, as the service built it
    kind: str = STORED
    actor: str = ""  # who made the command ("seat:N", "bot:N", "system")
    first_seq: int = 0  # the command's first seq (its last is table.seq)

    @property
    def is_move(self) -> bool:
        """A player's or a computer's move just stored (not a table command, not a retry)."""
        return self.kind == STORED and self.actor.startswith(("seat:", "bot:"))


Hook = Callable[[Change], None]
_hooks: dict[str, tuple[int, Hook]] = {}


def register(name: str, hook: Hook, order: int = 50) -> None:
    """Run ``hook(change)`` after every commit, in ``order`` (publishing first, then scheduling).
    Registering a name again replaces its hook."""
    _hooks[name] = (order, hook)


def run(change: Change) -> None:
    """Every hook in order; one that fails is logged and the others still run: the command stands."""
    for name, (_order, hook) in sorted(_hooks.items(), key=lambda item: item[1][0]):
        try:
            hook(change)
        except Exception:
            log.exception(
                "after-commit hook %s failed for game %s seq %s", name, change.table.game.pk, change.table.seq
            )
