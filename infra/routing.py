"""WebSocket routes."""

from django.urls import path

from games.consumers import TableConsumer
from replay.routing import websocket_urlpatterns as replay_routes
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:game_id>/", TableConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    *replay_routes,
]
