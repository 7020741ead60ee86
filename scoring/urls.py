"""Results and standings. Mounted under /standings/."""

from django.urls import path

from . import views

app_name = "scoring"
urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("standings.csv", views.leaderboard_csv, name="leaderboard_csv"),
    path("hands.csv", views.hands_csv, name="hands_csv"),
    path("evening/", views.latest_evening, name="latest_evening"),
    path("evening/<int:pk>/", views.evening, name="evening"),
    path("evening/<int:pk>/results.csv", views.evening_csv, name="evening_csv"),
    path("members/<int:pk>/", views.member_page, name="member"),
    path("records/", views.records, name="records"),
    path("room/", views.room, name="room"),
    path("attendance/", views.attendance, name="attendance"),
    path("attendance.csv", views.attendance_csv, name="attendance_csv"),
]
