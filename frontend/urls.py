from django.templatetags.static import static
from django.urls import path
from django.views.generic import RedirectView

from frontend import (
    clubs,
    console,
    lessons,
    over_the_board,
    playnow,
    printables,
    profile,
    ratings,
    round_clock,
    round_grid,
    tables,
    tournament_new,
    tournament_page,
    views,
)
from frontend import screen as room_screen  # the club's year (#34)
from frontend import seasons as season_pages
from frontend import tournament_exports as exports
from games import ids  # noqa: F401 - registers the <id:...> converter

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    # Browsers and feed readers ask for /favicon.ico whatever the page says: never a 404.
    path(
        "favicon.ico",
        RedirectView.as_view(url=static("frontend/favicon.svg"), permanent=True),
        name="favicon",
    ),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", profile.profile, name="profile"),
    path("new/", tables.choose_game, name="choose_game"),
    path("new/<str:game>/", tables.new_table, name="new_table"),
    path("tables/<id:game_id>/", tables.table, name="table"),
    # Play now (#33): seated with the next player who asks for the same game, options and kind.
    path("play/<str:game>/", playnow.play_now, name="play_now"),
    path("play/waits/<id:seek_id>/", playnow.wait, name="play_wait"),
    path("play/waits/<id:seek_id>/state", playnow.wait_state, name="play_state"),
    path("play/waits/<id:seek_id>/cancel", playnow.cancel, name="play_cancel"),
    path("tables/<id:game_id>/invite/<str:code>/", tables.invite, name="invite"),
    path("tables/<id:game_id>/take/", tables.take_seat, name="take_seat"),
    # The links of old carried the seat's credential: they say so and grant nothing (tables.old_invite).
    path("tables/<id:game_id>/join/<str:token>/", tables.old_invite, name="old_invite"),
    path("tables/<id:game_id>/hint", tables.hint, name="hint"),
    path("rules/<str:game>/", tables.rules, name="rules"),
    path("learn/", lessons.index, name="learn_index"),
    path("learn/<str:slug>/", lessons.lesson, name="learn"),
    path("learn/tables/<id:game_id>/progress", lessons.progress, name="lesson_progress"),
    path("tournaments/", tournament_new.tournament_list, name="tournaments"),
    path("ratings/", ratings.leaderboard, name="leaderboard"),
    path("clubs/<slug:slug>/", ratings.club, name="club"),
    # Club members (#33): the members' page, the join link, the organisers' buttons, leaving.
    path("clubs/<slug:slug>/members/", clubs.members, name="club_members"),
    path("clubs/<slug:slug>/join/<str:code>/", clubs.join, name="club_join"),
    path("clubs/<slug:slug>/members/add", clubs.add, name="club_add"),
    path("clubs/<slug:slug>/members/change", clubs.change, name="club_change"),
    path("clubs/<slug:slug>/members/new-code", clubs.rotate, name="club_rotate"),
    path("clubs/<slug:slug>/leave", clubs.leave, name="club_leave"),
    path("players/<path:key>/", ratings.player, name="player"),
    path("clubs/<slug:slug>/seasons/new/", season_pages.new_season, name="new_season"),
    path("seasons/<id:season_id>/", season_pages.season, name="season"),
    path("seasons/<id:season_id>/edit/", season_pages.edit_season, name="season_edit"),
    path("seasons/<id:season_id>/close", season_pages.close_season, name="season_close"),
    path("seasons/<id:season_id>/print/", season_pages.print_season, name="season_print"),
    path("seasons/<id:season_id>/season.pdf", season_pages.print_pdf, name="season_pdf"),
    path("tournaments/new/", tournament_new.new_tournament, name="new_tournament"),
    path("tournaments/estimate", tournament_new.estimate_view, name="tournament_estimate"),
    path("tournaments/<id:tournament_id>/", tournament_page.tournament, name="tournament"),
    path("tournaments/<id:tournament_id>/act", console.act, name="tournament_act"),
    path("tournaments/<id:tournament_id>/do/<slug:action>", console.do, name="tournament_do"),
    path("tournaments/<id:tournament_id>/standings.csv", exports.standings_csv, name="tournament_csv"),
    path("tournaments/<id:tournament_id>/log.json", exports.log_json, name="tournament_log"),
    path("tournaments/<id:tournament_id>/print/<str:sheet>/", printables.print_sheet, name="print"),
    path("tournaments/<id:tournament_id>/print/<str:sheet>.pdf", printables.print_pdf, name="print_pdf"),
    path("tournaments/<id:tournament_id>/score/", over_the_board.score_home, name="score_home"),
    path("tournaments/<id:tournament_id>/score/<str:key>/", over_the_board.score_table, name="score_table"),
    path("tournaments/<id:tournament_id>/board/", over_the_board.board_page, name="board"),
    path("tournaments/<id:tournament_id>/board/round/", round_grid.round_grid, name="round_grid"),
    path("tournaments/<id:tournament_id>/screen/", room_screen.screen, name="tournament_screen"),
    path("tournaments/<id:tournament_id>/clock/", room_screen.clock_page, name="tournament_clock"),
    path("tournaments/<id:tournament_id>/clock.json", round_clock.clock_json, name="tournament_clock_json"),
    path("clubs/<slug:slug>/screen/", room_screen.club_screen, name="club_screen"),
]
