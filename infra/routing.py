"""WebSocket routes. The last one takes every other path: closed with 4404 (games/live/sockets.py)."""

from django.urls import path, re_path

from games import ids  # noqa: F401 - registers the <id:...> converter
from games.live.consumers import SpectatorConsumer, TableConsumer
from games.live.sockets import NoSuchSocket
from replay.routing import websocket_urlpatterns as replay_routes
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tables/<id:game_id>/", TableConsumer.as_asgi()),
    # The spectators' address when a spectator edge serves them (SPECTATOR_SOCKET=/ws/watch/): here
    # for when nginx falls back to the web processes.
    path("ws/watch/<id:game_id>/", SpectatorConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
    *replay_routes,
    re_path(r"", NoSuchSocket.as_asgi()),  # last: a path no route above matches
]
