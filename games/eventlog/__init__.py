"""The event log of every game and stream, and what is folded from it (ARCHITECTURE.md, "games/").

- ``store`` — append (optimistic concurrency, idempotent command ids, the hash chain), load, verify.
- ``streams`` — logs that are not tables (a tournament's, a season's) in the same store.
- ``verify`` — a stored game checked: its chain, then a replay through its engine.
- ``commitment`` — the fair-deal proof: each deal committed to before it is dealt.
- ``timeline`` — which engine events count now (undo, redo, restart, new game, pause).
- ``tables`` — the read side: a game's log folded into a ``Table``, recent folds kept per process.
- ``resigned`` — the end of a game a seat resigned or was claimed against, for the fold.
- ``queries`` — what a table's log says, for the parts that list, rate or help (reads only).
- ``lengths`` — how long a game lasts, measured from finished games or simulated.

The commands (games.commands) write through ``store``; nothing here imports them.
"""
