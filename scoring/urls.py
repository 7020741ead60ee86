"""Scoring outside a match. Mounted under /scoring/ (the API under /api/)."""

from django.urls import path

from scoring import views

app_name = "scoring"
urlpatterns = [
    path("practice/", views.practice, name="practice"),
    path("rules/", views.rules, name="rules"),
]
