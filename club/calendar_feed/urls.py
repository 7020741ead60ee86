"""The member's calendar page, under the club's address (club/urls.py includes these)."""

from django.urls import path

from club.calendar_feed import views

urlpatterns = [
    path("calendar/", views.calendar_page, name="calendar"),
    path("calendar/renew/", views.renew, name="calendar_renew"),
]
