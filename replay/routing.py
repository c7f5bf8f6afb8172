"""WebSocket routes of replays (infra/routing.py mounts them beside the table socket)."""

from django.urls import path

from replay.consumers import ReplayConsumer

websocket_urlpatterns = [
    path("ws/replays/<int:game_id>/", ReplayConsumer.as_asgi()),
    path("ws/replays/rooms/<str:key>/", ReplayConsumer.as_asgi()),
]
