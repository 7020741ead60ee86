"""The tables' pages for an evening's play. Mounted under /play/."""

from django.urls import path

from games import views

app_name = "games"
_table = "<int:session_id>/tables/<int:number>/"

urlpatterns = [
    path("<int:session_id>/start/", views.start, name="start"),
    path("<int:session_id>/end/", views.end, name="end"),
    path(_table, views.table, name="table"),
    path(_table + "live/", views.live, name="live"),
    path(_table + "win/", views.record_win, name="win"),
    path(_table + "win/preview/", views.preview_win, name="preview"),
    path(_table + "full/", views.full_hand, name="full"),
    path(_table + "draw/", views.record_draw, name="draw"),
    path(_table + "kong/", views.record_kong, name="kong"),
    path(_table + "kong/take-back/", views.take_back_kong, name="take_back_kong"),
    path(_table + "undo/", views.undo, name="undo"),
    path(_table + "dice/", views.throw_dice, name="dice"),
]
