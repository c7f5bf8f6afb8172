from django.urls import path

from frontend import tables, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("new/", tables.choose_game, name="choose_game"),
    path("new/<str:game>/", tables.new_table, name="new_table"),
    path("tables/<int:game_id>/", tables.table, name="table"),
    path("tables/<int:game_id>/join/<str:token>/", tables.join, name="join"),
    path("tables/<int:game_id>/hint", tables.hint, name="hint"),
    path("rules/<str:game>/", tables.rules, name="rules"),
]
