"""The coordinator's start and end of an evening's play. Mounted under /play/ (the tables'
pages, also under /play/, are scoring's: scoring/urls.py)."""

from django.urls import path

from games import play_views

app_name = "games"

urlpatterns = [
    path("<int:session_id>/start/", play_views.start, name="start"),
    path("<int:session_id>/end/", play_views.end, name="end"),
]
