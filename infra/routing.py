"""WebSocket routes; each app adds its consumers here."""

websocket_urlpatterns: list = []
