from django.urls import path

from games import ids  # noqa: F401 - registers the <id:...> converter
from replay import views

app_name = "replay"

urlpatterns = [
    path("games/<id:game_id>/replay/", views.page, name="page"),
    path("games/<id:game_id>/replay/rooms/", views.open_room, name="open_room"),
    path("games/<id:game_id>/replay/comments/", views.comment_list, name="comments"),
    path("games/<id:game_id>/replay/comments/<id:note_id>/", views.comment_hide, name="moderate"),
    path("games/<id:game_id>/replay/review/", views.review_state, name="review"),
    path("games/<id:game_id>/replay/better/", views.better_board, name="better"),
    path("replays/rooms/<str:key>/", views.room, name="room"),
]
