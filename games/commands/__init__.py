"""A game's commands, the one way anything changes a game (ARCHITECTURE.md "One move").

- ``runner`` — the pipeline every command runs through: load, check, decide, append, after commit.
- ``create`` — a new table (``SeatSpec``, ``create_game``).
- ``moves`` — a seat's move (``submit``, ``submit_now``) and a computer seat's (``play_turn``).
- ``controls`` — undo, redo, restart, new game, pause, resume, abandon.
- ``resignation`` — resign, and claim the game of a seat that left.
- ``deals`` — releasing a duplicate round's secret deals.

What a game's log says (results, seating, hints) is read through games.eventlog.queries and
games.eventlog.tables: nothing reads through these modules. Every module here may use ``runner``; none
imports a sibling.
"""
