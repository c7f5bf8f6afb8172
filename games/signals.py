"""What the games service tells other parts, after commit.

``game_finished(game_id, outcome)`` is sent once the command that ended a game is durable, in
the process that ran it (a web process, the in-process worker or a Celery worker). Receivers
must be idempotent: a retried command or a restart may send it again for the same game.
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
