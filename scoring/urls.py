"""Scoring pages, mounted at the site's root with their own prefixes: /scoring/ (our rules,
practice with the tile picker; a match's scoresheet, corrections and paper sheet; a session's
changes and blank score sheets), /play/<session>/tables/<n>/ (a table's page and its hand
entry) and /standings/ (results, standings, records, exports).
The scoring API is /api/score/ (config/urls.py)."""

from django.urls import path

from scoring.views import practice, rules, scoresheets, standings, table

app_name = "scoring"
# A table's page and its hand entry, under /play/ with the evening's start and end (games).
_table = "play/<int:session_id>/tables/<int:number>/"

urlpatterns = [
    path(_table, table.table, name="table"),
    path(_table + "poll/", table.poll, name="poll"),
    path(_table + "win/", table.record_win, name="win"),
    path(_table + "win/preview/", table.preview_win, name="preview"),
    path(_table + "full/", table.full_hand, name="full"),
    path(_table + "draw/", table.record_draw, name="draw"),
    path(_table + "kong/", table.record_kong, name="kong"),
    path(_table + "kong/take-back/", table.take_back_kong, name="take_back_kong"),
    path(_table + "undo/", table.undo, name="undo"),
    path(_table + "dice/", table.throw_dice, name="dice"),
    path("scoring/practice/", practice.practice, name="practice"),
    path("scoring/rules/", rules.rules, name="rules"),
    path("scoring/matches/<int:pk>/", scoresheets.scoresheet_page, name="scoresheet"),
    path(
        "scoring/matches/<int:pk>/hands/<int:number>/correct/",
        scoresheets.correct,
        name="correct",
    ),
    path("scoring/matches/<int:pk>/paper/", scoresheets.paper, name="paper"),
    path("scoring/sessions/<int:pk>/changes/", scoresheets.changes, name="changes"),
    path(
        "scoring/sessions/<int:pk>/blank-sheets/",
        scoresheets.blank_sheets,
        name="blank_sheets",
    ),
    path("standings/", standings.leaderboard, name="leaderboard"),
    path("standings/standings.csv", standings.leaderboard_csv, name="leaderboard_csv"),
    path("standings/hands.csv", standings.hands_csv, name="hands_csv"),
    path("standings/evening/", standings.latest_evening, name="latest_evening"),
    path("standings/evening/<int:pk>/", standings.evening, name="evening"),
    path("standings/evening/<int:pk>/results.csv", standings.evening_csv, name="evening_csv"),
    path("standings/members/<int:pk>/", standings.member_page, name="member"),
    path("standings/records/", standings.records, name="records"),
    path("standings/room/", standings.room, name="room"),
    path("standings/attendance/", standings.attendance, name="attendance"),
    path("standings/attendance.csv", standings.attendance_csv, name="attendance_csv"),
]
