from django.urls import path

from games import api, ids  # noqa: F401 - ids registers the <id:...> converter

app_name = "games"

urlpatterns = [
    path("games/<id:game_id>/actions", api.submit_action, name="submit"),
    path("games/<id:game_id>/state", api.game_state, name="state"),
]
