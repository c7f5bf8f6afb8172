"""What the games service tells other parts, after commit.

``game_finished(game_id, outcome, number)`` is sent once the command that ended a game is durable,
in the process that ran it (a web process, the in-process worker or a Celery worker). ``number`` is
the game's number at its table (1, then one more per new game started there). Receivers must be
idempotent: a retried command or a restart may send it again for the same game.
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
