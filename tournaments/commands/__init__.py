"""Tournament commands, by concern, over one runner (``runner.run``).

- ``runner`` — load, decide, append, project, in one transaction (a lost race decided again);
  who may act (``check_organiser``).
- ``progress`` — ``advance``: every step the state calls for (pair, start a round or a game,
  decide a match, finish), and the watch for players who never came.
- ``registration`` — creating a tournament, entrants, check-in, withdrawal, seeding.
- ``running`` — start, rounds (start, re-pair, length), pairing edits, byes, pause and holds.
- ``results`` — a game's end, the organiser's corrections and forfeits.
- ``over_the_board`` — rounds played with real cards: entries, confirmations, disputes, decisions.

Imports go one way: every module may use ``runner`` and ``progress``; none imports a sibling
above it. ``tournaments/tasks.py`` (Celery) calls in; nothing here imports it (a task is sent by
its name).
"""
