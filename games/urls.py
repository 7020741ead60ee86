"""The coordinator's start and end of an evening's play, and the tables' keys. Mounted under
/play/ (the tables' pages, also under /play/, are scoring's: scoring/urls.py). A key's own
addresses, /t/ and /t/<code>/, are the site's (config/urls.py)."""

from django.urls import path

from games import key_views, play_views

app_name = "games"

urlpatterns = [
    path("<int:session_id>/start/", play_views.start, name="start"),
    path("<int:session_id>/end/", play_views.end, name="end"),
    path("<int:session_id>/keys/", key_views.keys_page, name="table_keys"),
    path(
        "<int:session_id>/keys/<int:number>/reissue/",
        key_views.reissue,
        name="table_key_reissue",
    ),
    path("<int:session_id>/keys/<int:number>/stop/", key_views.stop, name="table_key_stop"),
]
