"""Live tables: what each audience is sent after a change, and the sockets that carry it.

- ``publish`` — an after-commit hook: each audience's view computed once, PUBLISHed on Redis.
- ``groups`` — the one place channel-layer groups and Redis channels are spelled.
- ``pubsub`` — one process's Redis subscriptions, on one connection (web processes, the edge).
- ``feeds`` — a web process's one subscription per audience, fanned out to its sockets.
- ``sockets`` — what every JSON socket checks before a message reaches its consumer.
- ``consumers`` — the table socket: a seat's moves and controls, spectators' views.
- ``resume`` — what a socket that dropped missed, as it was sent live.
- ``presence`` — whether a seat is connected, and since when it is not.
- ``audience`` — how many spectators watch each table, across processes.

Nothing here decides a move: the commands (games.commands) hand over the table they built.
"""
