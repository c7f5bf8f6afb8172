"""The spectator edge: spectators' table sockets served by a process built for fan-out (as lila-ws
beside lila). Seats stay on Daphne (games/live/consumers.py).

    python -m infra.edge [--host 127.0.0.1] [--port 8003]        (REDIS_URL, SPECTATOR_SOCKET set)

It hears only what the table's public group hears: ``games.live.publish`` also PUBLISHes each public update,
already cut by the spectator delay and the duplicate rules and already encoded, on the table's Redis
channel (``games.live.groups.edge_channel``), and this process SUBSCRIBEs to that channel alone, once per
table, on one connection. It never joins the channel layer, so no seat's message can reach it. Each
update is written to all of a table's sockets framed once (``Edge.send_all``).

The socket speaks the table socket's spectator protocol (docs/live-tables.md): the ``state`` on connect
and on ``resync``, then every ``update`` as it comes; ``?since=SEQ`` resumes from a seq when the last
``KEEP`` updates of the table still reach back to it (else the state is sent). The state is the read
side's (``games.live.publish.snapshot``), read once per table and language (seats without a name of their own
are named in the socket's language, as Daphne names them) and brought up to date with the updates heard
since, as a client does (an update whose ``since`` is not the picture's seq throws it away); it is read
again after ``STATE_TTL`` seconds, so a seat's new name shows. A socket is subscribed before its state
is read, and the updates heard meanwhile follow the state, as in games/live/feeds.py.

Close codes as on Daphne: 4403 for a seat asked of the edge (players connect to Daphne), 4400 for a
credential in the address, 4404 for no such table, 4503 when the edge stops or loses Redis (whose
restart would leave its subscriptions deaf): clients connect again and get the whole picture.

``tables.py``: a table as the edge holds it; ``subscriptions.py``: the Redis connection, owned by one
task (sockets ask it to subscribe and unsubscribe; only a failure of the connection is a lost Redis);
``server.py``: the sockets; ``__main__.py``: the process (``--processes N`` share the port).
"""
