"""The coordinator's start and end of an evening's play, the tables' keys and the room card. Mounted under
/play/ (the tables' pages, also under /play/, are scoring's: scoring/urls.py). A key's own
addresses, /t/ and /t/<code>/, are the site's (config/urls.py)."""

from django.urls import path

from games import key_views, play_views, room_key_views

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
    # The club's room card: a TV opens the room display with it (not one evening's: the
    # same TV every week).
    path("room-card/", room_key_views.room_key_page, name="room_key"),
    path("room-card/reissue/", room_key_views.reissue, name="room_key_reissue"),
    path("room-card/stop/", room_key_views.stop, name="room_key_stop"),
]
