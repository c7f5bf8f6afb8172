from django.urls import path, re_path

from games import api, ids  # noqa: F401 - ids registers the <id:...> converter

app_name = "games"

urlpatterns = [
    path("games/<id:game_id>/actions", api.submit_action, name="submit"),
    path("games/<id:game_id>/state", api.game_state, name="state"),
    # An id past 64 bits matches neither route above: still the API's JSON answer (unknown_game, 404).
    re_path(r"^games/[0-9]+/(?P<endpoint>actions|state)$", api.no_such_game, name="no_such_game"),
]
