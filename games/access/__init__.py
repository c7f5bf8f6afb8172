"""Who may do what at a table, and how a player comes to a seat (docs/security.md).

- ``seats`` — which seats a requester holds (a user, a credential, a session) and who may see a table.
- ``credentials`` — a credential's end (a revoked token, a signed-out session) closes what it opened.
- ``tokens`` — personal API tokens and their scopes.
- ``ratelimit`` — the limits on what players send, per socket and per seat.
- ``invites`` — single-use claims on an open seat.
- ``playnow`` — Play now: players waiting for the same game seated together.
"""
