"""The club's week, included by club/urls.py."""

from django.urls import path

from club.week import views

urlpatterns = [
    path("sessions/<int:pk>/reply/", views.reply, name="week_reply"),
    path("sessions/<int:pk>/reply-for/", views.reply_for, name="week_reply_for"),
    path("week/away/", views.away, name="week_away"),
    path("week/away/<int:pk>/remove/", views.away_end, name="week_away_end"),
]
