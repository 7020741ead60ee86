"""Scoring pages, mounted under /scoring/ (the API under /api/score/): practice with the tile
picker; a match's scoresheet, corrections and paper sheet; a session's changes and blank
score sheets."""

from django.urls import path

from scoring.views import practice, scoresheets

app_name = "scoring"
urlpatterns = [
    path("practice/", practice.practice, name="practice"),
    path("matches/<int:pk>/", scoresheets.scoresheet_page, name="scoresheet"),
    path("matches/<int:pk>/hands/<int:number>/correct/", scoresheets.correct, name="correct"),
    path("matches/<int:pk>/paper/", scoresheets.paper, name="paper"),
    path("sessions/<int:pk>/changes/", scoresheets.changes, name="changes"),
    path("sessions/<int:pk>/blank-sheets/", scoresheets.blank_sheets, name="blank_sheets"),
]
