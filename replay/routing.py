"""WebSocket routes of replays (infra/routing.py mounts them beside the table socket)."""

from django.urls import path

from games import ids  # noqa: F401 - registers the <id:...> converter
from replay.consumers import ReplayConsumer

websocket_urlpatterns = [
    path("ws/replays/<id:game_id>/", ReplayConsumer.as_asgi()),
    path("ws/replays/rooms/<str:key>/", ReplayConsumer.as_asgi()),
]
