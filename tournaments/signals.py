"""What a tournament tells other parts, after commit.

``tournament_finished(tournament_id)`` is sent once the step that finished a tournament is durable.
Receivers are wired in one place (``tournaments/apps.py``) and must be idempotent.
"""

from __future__ import annotations

from django.dispatch import Signal

tournament_finished = Signal()
