from django.urls import path

from games import api

app_name = "games"

urlpatterns = [
    path("games/<int:game_id>/actions", api.submit_action, name="submit"),
    path("games/<int:game_id>/state", api.game_state, name="state"),
]
