"""Computer players at tables: which computer seats act, and their turns played (the bots' strategies
are games/bots/; what a computer player is called, games/words/computers.py).

- ``worker`` — an after-commit hook: the computer seats to act, their turns scheduled as jobs; the turn
  watchdog.
- ``autoplay`` — a computer seat's turn: its bot chooses from the seat's view, the move goes through
  the commands' pipeline.
- ``standin`` — a computer stands in for a person who left a game others play on.
- ``matchplay`` — bots against bots without the database (``botmatch``, benchmarks).
"""
