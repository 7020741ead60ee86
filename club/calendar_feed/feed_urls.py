"""The feeds calendar apps subscribe to: addresses that name no club (config/urls.py)."""

from django.urls import path

from club.calendar_feed import views

urlpatterns = [
    path("<str:calendar_token>.ics", views.member_feed, name="calendar_feed"),
    path("club/<str:slug>.ics", views.public_feed, name="public_calendar_feed"),
]
